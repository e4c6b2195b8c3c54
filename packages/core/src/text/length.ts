/**
 * Length in Unicode code points, as the Agent Skills specification counts characters: an emoji
 * outside the Basic Multilingual Plane is one (two UTF-16 units), and a combining mark is one of
 * its own (`é` written as `e` + U+0301 is two). Counted without allocating, in one pass; a lone
 * surrogate counts as one.
 */
export function codePointLength(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--; // a surrogate pair is one code point
        i++;
      }
    }
  }
  return count;
}
