/** Base64 of the bytes, for serving a file that is not UTF-8 (server side: Node's fast native encoder). */
export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}
