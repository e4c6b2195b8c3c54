/**
 * Strict base64 (RFC 4648 section 4, the standard alphabet with `=` padding), in standard
 * JavaScript. Forgiving decoders (`atob`, Node's Buffer) skip characters they do not know and
 * accept missing padding, so two different strings decode to the same bytes and damaged content
 * passes unnoticed; a host verifying what a server sent must refuse both instead.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const VALUES = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUES[ALPHABET.charCodeAt(i)] = i;

export type Base64Result = { ok: true; bytes: Uint8Array } | { ok: false; error: string };

const describe = (text: string, at: number) => {
  const code = text.codePointAt(at)!;
  return `${JSON.stringify(String.fromCodePoint(code))} (U+${code.toString(16).toUpperCase().padStart(4, '0')}) at offset ${at}`;
};

/** Decode `text`, or say exactly why it is not canonical base64 (a character, the padding or the length). */
export function decodeBase64Strict(text: string): Base64Result {
  if (typeof text !== 'string') return { ok: false, error: 'the blob is not a string' };
  const firstPad = text.indexOf('=');
  const end = firstPad < 0 ? text.length : firstPad;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x3d) continue;
    if ((code < 128 ? VALUES[code]! : -1) < 0) return { ok: false, error: `it has the character ${describe(text, i)}, which is not in the base64 alphabet` };
    if (i > end) return { ok: false, error: `"=" at offset ${end} is padding inside the data` };
  }
  const padding = text.length - end;
  if (padding > 2) return { ok: false, error: `it ends in ${padding} "=" characters; base64 pads with at most 2` };
  if (text.length % 4 !== 0) return { ok: false, error: `its length, ${text.length} characters, is not a multiple of 4 (base64 is padded with "=")` };
  const bytes = new Uint8Array((text.length / 4) * 3 - padding);
  let out = 0;
  for (let i = 0; i < end; i += 4) {
    const count = Math.min(4, end - i);
    let group = 0;
    for (let j = 0; j < count; j++) group = (group << 6) | VALUES[text.charCodeAt(i + j)]!;
    if (count === 4) {
      bytes[out++] = group >> 16;
      bytes[out++] = (group >> 8) & 0xff;
      bytes[out++] = group & 0xff;
    } else if (count === 3) {
      if ((group & 0x3) !== 0) return { ok: false, error: 'its last character before "=" has bits set that encode nothing (not canonical base64)' };
      bytes[out++] = group >> 10;
      bytes[out++] = (group >> 2) & 0xff;
    } else if (count === 2) {
      if ((group & 0xf) !== 0) return { ok: false, error: 'its last character before "==" has bits set that encode nothing (not canonical base64)' };
      bytes[out++] = group >> 4;
    } else {
      return { ok: false, error: 'its last group holds a single character, which encodes no whole byte' };
    }
  }
  return { ok: true, bytes };
}
