/** Signing keys (ECDSA P-256 with SHA-256) as PEM files, and the hint that names a public key in a bundle. */
import { fromPem, p1363ToDer, toPem } from './encoding.js';
import { toHex } from './skill-digest.js';

const EC = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGN = { name: 'ECDSA', hash: 'SHA-256' } as const;
/** A WebCrypto key (the lib has no DOM types, so named by what importKey returns). */
type WebKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

/**
 * Signs the bytes a signature covers. The default comes from a key file ({@link keyFileSigner});
 * a key kept in a KMS or an HSM is another implementation: it returns the ASN.1 DER ECDSA P-256
 * SHA-256 signature of `payload` and names its public key.
 */
export interface SkillSigner {
  /** The signer's public key, SPKI PEM (`-----BEGIN PUBLIC KEY-----`). */
  publicKey: string;
  /** The DER ECDSA P-256 SHA-256 signature of exactly these bytes. */
  sign(payload: Uint8Array): Promise<Uint8Array>;
}

/** A public key a verifier trusts, with the name it reports for the signer (e.g. the key file's name). */
export interface TrustedKey {
  name: string;
  /** SPKI PEM of an ECDSA P-256 key. */
  publicKey: string;
}

/**
 * A new signing key: the private key as PKCS #8 PEM and the public key as SPKI PEM.
 *
 * @example
 * ```ts
 * import { generateSigningKey } from '@skillmount/core';
 *
 * const { privateKey, publicKey } = await generateSigningKey();
 * ```
 * @throws {TypeError} When the runtime lacks WebCrypto.
 */
export async function generateSigningKey(): Promise<{ privateKey: string; publicKey: string }> {
  const pair = await crypto.subtle.generateKey(EC, true, ['sign', 'verify']);
  const privateDer = new Uint8Array(await crypto.subtle.exportKey('pkcs8', pair.privateKey));
  const publicDer = new Uint8Array(await crypto.subtle.exportKey('spki', pair.publicKey));
  return { privateKey: toPem('PRIVATE KEY', privateDer), publicKey: toPem('PUBLIC KEY', publicDer) };
}

/**
 * The signer of a PKCS #8 PEM ECDSA P-256 private key (what `skillmount keygen` writes).
 *
 * @example
 * ```ts
 * import { generateSigningKey, keyFileSigner } from '@skillmount/core';
 *
 * const signer = await keyFileSigner((await generateSigningKey()).privateKey);
 * ```
 * @throws {TypeError} When the text holds no PKCS #8 ECDSA P-256 private key (the message never quotes the key).
 */
export async function keyFileSigner(privateKeyPem: string): Promise<SkillSigner> {
  const der = fromPem('PRIVATE KEY', privateKeyPem);
  if (!der) throw new TypeError('skillmount: the signing key is not a PEM "PRIVATE KEY" (PKCS #8) block; make one with `skillmount keygen DIR`');
  let key: WebKey;
  try {
    key = await crypto.subtle.importKey('pkcs8', der as Uint8Array<ArrayBuffer>, EC, true, ['sign']);
  } catch {
    throw new TypeError('skillmount: the signing key is not an ECDSA P-256 private key; make one with `skillmount keygen DIR`');
  }
  const { d: _secret, key_ops: _ops, ...jwk } = await crypto.subtle.exportKey('jwk', key);
  const publicKey = await crypto.subtle.importKey('jwk', jwk, EC, true, ['verify']);
  return {
    publicKey: toPem('PUBLIC KEY', new Uint8Array(await crypto.subtle.exportKey('spki', publicKey))),
    sign: async (payload) => p1363ToDer(new Uint8Array(await crypto.subtle.sign(SIGN, key, payload as Uint8Array<ArrayBuffer>))),
  };
}

/**
 * The hint a bundle names a public key by: the lowercase hex SHA-256 of its SPKI DER bytes.
 *
 * @example
 * ```ts
 * import { generateSigningKey, keyHint } from '@skillmount/core';
 *
 * const hint = await keyHint((await generateSigningKey()).publicKey); // 64 hex digits
 * ```
 * @throws Nothing: undefined when the text holds no PEM "PUBLIC KEY" block.
 */
export async function keyHint(publicKeyPem: string): Promise<string | undefined> {
  const der = fromPem('PUBLIC KEY', publicKeyPem);
  return der ? toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', der as Uint8Array<ArrayBuffer>))) : undefined;
}

/** The DER of every uncompressed ECDSA P-256 SPKI public key up to its point's 64 coordinate bytes. */
const P256_SPKI_HEAD = '3059301306072a8648ce3d020106082a8648ce3d03010703420004';
const P256_SPKI_BYTES = 91;

/**
 * Why `pem` is not an ECDSA P-256 public key a verifier can trust, or undefined: checked from its
 * DER bytes, without WebCrypto, so a host's option is refused at once rather than on a first read.
 */
export function publicKeyProblem(pem: unknown): string | undefined {
  if (typeof pem !== 'string') return `must be the text of a PEM "PUBLIC KEY" file, got ${pem === null ? 'null' : typeof pem}`;
  const der = fromPem('PUBLIC KEY', pem);
  if (!der) return 'holds no PEM "PUBLIC KEY" block (-----BEGIN PUBLIC KEY----- … -----END PUBLIC KEY-----)';
  if (der.length !== P256_SPKI_BYTES || toHex(der.subarray(0, P256_SPKI_HEAD.length / 2)) !== P256_SPKI_HEAD) {
    return 'is not an ECDSA P-256 public key (the kind `skillmount keygen` writes)';
  }
  return undefined;
}

/** The WebCrypto verifying key of an SPKI PEM ECDSA P-256 key, or undefined. */
export async function importPublicKey(publicKeyPem: string): Promise<WebKey | undefined> {
  const der = fromPem('PUBLIC KEY', publicKeyPem);
  if (!der) return undefined;
  try {
    return await crypto.subtle.importKey('spki', der as Uint8Array<ArrayBuffer>, EC, false, ['verify']);
  } catch {
    return undefined;
  }
}

export { SIGN as SIGNATURE_ALGORITHM };
