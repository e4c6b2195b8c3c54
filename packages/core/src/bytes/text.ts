const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The bytes as a string when they are valid UTF-8, else undefined. The BOM is kept so the text re-encodes to the same bytes. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Bytes the text takes as UTF-8, without encoding it (a lone surrogate counts as the 3 bytes of
 * U+FFFD, as TextEncoder writes it). Standard JavaScript only, so the client runs in a browser.
 */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    if (unit < 0x800) {
      bytes += 1;
    } else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // a surrogate pair: 2 units, 4 bytes
      i++;
    } else {
      bytes += 2;
    }
  }
  return bytes;
}
