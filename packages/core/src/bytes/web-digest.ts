/**
 * `sha256:<64 lowercase hex>` of the exact bytes, with WebCrypto, so the host side runs wherever
 * `globalThis.crypto.subtle` exists (Node.js 20+, browsers, Deno, Bun, workers). The server side
 * keeps the synchronous `sha256Digest` of `digest.ts`.
 */
export async function sha256DigestWeb(bytes: Uint8Array): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) {
    throw new TypeError(
      'skillmount: verifying skill files needs WebCrypto (globalThis.crypto.subtle), ' +
        'which this runtime lacks; browsers serve it only to secure contexts (https or localhost)',
    );
  }
  // A view over a SharedArrayBuffer, or one that does not start the buffer, is copied so digest() sees exactly these bytes.
  const view = bytes.buffer instanceof ArrayBuffer ? bytes : new Uint8Array(bytes);
  const hash = new Uint8Array(await subtle.digest('SHA-256', view as Uint8Array<ArrayBuffer>));
  let hex = '';
  for (const byte of hash) hex += byte.toString(16).padStart(2, '0');
  return `sha256:${hex}`;
}
