/**
 * One path segment of a skill URI, decoded. A segment is refused when no URI could carry it
 * unambiguously: empty, `.` or `..`, or containing `/`, `\` or NUL, or not valid Unicode.
 */
export function segmentProblem(segment: string): string | undefined {
  if (segment.length === 0) return 'empty path segment';
  if (segment === '.' || segment === '..') return `"${segment}" segment`;
  if (segment.includes('/')) return 'a "/" inside a name';
  if (segment.includes('\\')) return 'a backslash';
  if (segment.includes('\0')) return 'a NUL character';
  if (!segment.isWellFormed()) return 'an unpaired UTF-16 surrogate';
  return undefined;
}

/** Percent-encode a segment so that WHATWG URL parsing leaves it unchanged. */
export function encodeSegment(segment: string): string {
  return encodeURIComponent(segment);
}
