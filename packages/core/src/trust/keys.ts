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

/** The SPKI algorithm of a P-256 key as {@link spkiAlgorithm} gives it: id-ecPublicKey, then prime256v1. */
const P256_ALGORITHM = '2a8648ce3d0201 2a8648ce3d030107';
/** Keys a wrong file may hold, by the hex of their SPKI algorithm OID (and curve OID), so a refusal names what it got. */
const OTHER_KEYS: Readonly<Record<string, string>> = {
  '2a864886f70d010101': 'an RSA key',
  '2b6570': 'an Ed25519 key',
  '2b6571': 'an Ed448 key',
  '2b656e': 'an X25519 key',
  '2b656f': 'an X448 key',
  '2a8648ce3d0201 2b81040022': 'an ECDSA P-384 key',
  '2a8648ce3d0201 2b81040023': 'an ECDSA P-521 key',
  '2a8648ce3d0201 2b8104000a': 'an ECDSA secp256k1 key',
};

/**
 * Why `pem` is not an ECDSA P-256 public key a verifier can trust, or undefined: checked from its
 * DER bytes, without WebCrypto or Node built-ins (browsers run it), so an option is refused at once
 * rather than on a first read. The text is never quoted: it may be a private key given by mistake.
 */
export function publicKeyProblem(pem: unknown): string | undefined {
  if (typeof pem !== 'string') return `must be the text of a PEM "PUBLIC KEY" file, got ${pem === null ? 'null' : typeof pem}`;
  // Any private key block refuses the text, even beside a public key: it must not be kept where keys are trusted.
  if (/-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/.test(pem)) {
    return 'is a private key: verifying needs only the public key (the .pub file), and the private key stays with whoever signs';
  }
  const der = fromPem('PUBLIC KEY', pem);
  if (!der) return 'holds no PEM "PUBLIC KEY" block (-----BEGIN PUBLIC KEY----- … -----END PUBLIC KEY-----)';
  if (der.length === P256_SPKI_BYTES && toHex(der.subarray(0, P256_SPKI_HEAD.length / 2)) === P256_SPKI_HEAD) return undefined;
  const algorithm = spkiAlgorithm(der);
  if (algorithm === undefined) return 'holds a PEM "PUBLIC KEY" block that is not a public key (SPKI)';
  if (algorithm === P256_ALGORITHM)
    return 'is an ECDSA P-256 key not in the form verifiers read (SPKI with an uncompressed point, as `skillmount keygen` writes)';
  const other = OTHER_KEYS[algorithm];
  return `is ${other ? `${other}, not an ECDSA P-256 key` : 'not an ECDSA P-256 public key'} (the kind \`skillmount keygen\` writes)`;
}

/** The hex algorithm OID of SPKI DER, followed by its curve's OID when the parameters are one; undefined when the bytes are not SPKI. */
function spkiAlgorithm(der: Uint8Array): string | undefined {
  const spki = derElement(der, 0, 0x30);
  const algorithm = spki && derElement(spki.body, 0, 0x30);
  const oid = algorithm && derElement(algorithm.body, 0, 0x06);
  if (!spki || spki.end !== der.length || !algorithm || !oid) return undefined;
  const curve = derElement(algorithm.body, oid.end, 0x06);
  return curve ? `${toHex(oid.body)} ${toHex(curve.body)}` : toHex(oid.body);
}

/** The DER element of tag `tag` at `at` (its body, and where the next element starts), or undefined. */
function derElement(der: Uint8Array, at: number, tag: number): { body: Uint8Array; end: number } | undefined {
  if (der[at] !== tag || at + 1 >= der.length) return undefined;
  let length = der[at + 1]!;
  let start = at + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    // A key's SPKI is well under 64 KiB: two length bytes at most.
    if (count === 0 || count > 2 || start + count > der.length) return undefined;
    length = 0;
    for (const byte of der.subarray(start, start + count)) length = length * 256 + byte;
    start += count;
  }
  const end = start + length;
  return end <= der.length ? { body: der.subarray(start, end), end } : undefined;
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
