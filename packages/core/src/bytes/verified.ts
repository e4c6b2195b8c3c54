/**
 * Bytes a catalog has already checked against a published size and digest, so `resources/read`
 * does not hash them a second time. Only core code marks bytes, and only on a copy that it made
 * itself and hands to one request, so nothing else holds a reference that could change them.
 */
const verified = new WeakMap<Uint8Array, string>();

export function markVerified(bytes: Uint8Array, digest: string): Uint8Array {
  verified.set(bytes, digest);
  return bytes;
}

/** True when these exact bytes were checked against this size and digest. */
export function isVerified(bytes: Uint8Array, published: { size: number; digest: string }): boolean {
  return bytes.byteLength === published.size && verified.get(bytes) === published.digest;
}
