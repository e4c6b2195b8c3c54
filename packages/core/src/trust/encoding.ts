/** Base64, PEM and ECDSA signature encodings, in standard JavaScript (browsers run the verifier). */
import { decodeBase64Strict } from '../bytes/base64.js';

/** Standard base64 with padding, as Sigstore bundles and DSSE write it. */
export function encodeBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The bytes of strict base64, or undefined. */
export function decodeBase64(text: unknown): Uint8Array | undefined {
  if (typeof text !== 'string') return undefined;
  const decoded = decodeBase64Strict(text);
  return decoded.ok ? decoded.bytes : undefined;
}

/** A PEM block of `label` (`PUBLIC KEY`, `PRIVATE KEY`) around the DER bytes. */
export function toPem(label: string, der: Uint8Array): string {
  const lines = encodeBase64(der).match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

/** The DER bytes of the one PEM block of `label` in `text`, or undefined. */
export function fromPem(label: string, text: string): Uint8Array | undefined {
  const match = new RegExp(`-----BEGIN ${label}-----([A-Za-z0-9+/=\\s]+)-----END ${label}-----`).exec(text);
  return match ? decodeBase64(match[1]!.replace(/\s+/g, '')) : undefined;
}

const derInteger = (value: Uint8Array): Uint8Array => {
  let start = 0;
  while (start < value.length - 1 && value[start] === 0) start++;
  const trimmed = value.subarray(start);
  return trimmed[0]! & 0x80 ? new Uint8Array([0x02, trimmed.length + 1, 0, ...trimmed]) : new Uint8Array([0x02, trimmed.length, ...trimmed]);
};

/** An ECDSA P-256 signature as WebCrypto makes it (r ‖ s, 64 bytes) in the ASN.1 DER form Sigstore bundles hold. */
export function p1363ToDer(signature: Uint8Array): Uint8Array {
  const r = derInteger(signature.subarray(0, 32));
  const s = derInteger(signature.subarray(32, 64));
  return new Uint8Array([0x30, r.length + s.length, ...r, ...s]);
}

/** The r ‖ s form of a DER ECDSA P-256 signature, or undefined when the bytes are not one. */
export function derToP1363(der: Uint8Array): Uint8Array | undefined {
  if (der.length < 8 || der[0] !== 0x30 || der[1] !== der.length - 2) return undefined;
  const out = new Uint8Array(64);
  let at = 2;
  for (const offset of [0, 32]) {
    if (der[at] !== 0x02) return undefined;
    const length = der[at + 1]!;
    let value = der.subarray(at + 2, at + 2 + length);
    if (value.length !== length || length === 0) return undefined;
    while (value.length > 32 && value[0] === 0) value = value.subarray(1);
    if (value.length > 32) return undefined;
    out.set(value, offset + 32 - value.length);
    at += 2 + length;
  }
  return at === der.length ? out : undefined;
}
