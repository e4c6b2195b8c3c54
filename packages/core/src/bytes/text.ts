const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The bytes as a string when they are valid UTF-8, else undefined. The BOM is kept so the text re-encodes to the same bytes. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** Bytes the text takes as UTF-8, without encoding it. */
export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
