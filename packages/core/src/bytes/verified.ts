import { toBase64 } from './encode.js';
import { decodeUtf8 } from './text.js';

/** A file's content as `resources/read` sends it: the text when it is UTF-8, else base64. */
export type EncodedContent = { text: string } | { blob: string };

/**
 * Bytes a catalog has already checked against a published digest, with their wire encoding made
 * at that moment. `resources/read` then neither hashes nor decodes them again, and serves the
 * encoding (an immutable string) rather than the bytes, so even a caller that wrote into the
 * shared bytes could not change what goes out. Only core code marks bytes.
 */
const verified = new WeakMap<Uint8Array, { digest: string; content: EncodedContent }>();

/** Mark `bytes` as matching `digest` (the caller has just checked) and encode them once. */
export function markVerified(bytes: Uint8Array, digest: string): EncodedContent {
  const content = encodeContent(bytes);
  verified.set(bytes, { digest, content });
  return content;
}

/** The encoding made when these exact bytes were checked against this size and digest, else undefined. */
export function verifiedContent(bytes: Uint8Array, published: { size: number; digest: string }): EncodedContent | undefined {
  const mark = verified.get(bytes);
  return bytes.byteLength === published.size && mark?.digest === published.digest ? mark.content : undefined;
}

export function encodeContent(bytes: Uint8Array): EncodedContent {
  const text = decodeUtf8(bytes);
  return text !== undefined ? { text } : { blob: toBase64(bytes) };
}

/** Approximate memory an encoding holds, in bytes (V8 keeps ASCII strings at one byte a character). */
export function encodedCost(content: EncodedContent): number {
  return 'text' in content ? content.text.length : content.blob.length;
}
