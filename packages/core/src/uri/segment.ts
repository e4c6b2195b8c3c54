import { plainSegmentProblem } from '../storage-kit/paths.js';
import { codePoint, controlCharacterIn } from '../text/escape.js';

/**
 * One path segment of a skill URI, decoded. A segment is refused when it cannot be a segment of a
 * storage path (`plainSegmentProblem`: empty, `.` or `..`, or containing `/`, `\` or NUL), or when
 * no URI could carry it unambiguously: not valid Unicode; or
 * when it holds a control character or a bidirectional override, which would drive or garble a
 * terminal, a log or a prompt that shows the URI.
 */
export function segmentProblem(segment: string): string | undefined {
  const plain = plainSegmentProblem(segment);
  if (plain) return plain;
  if (!segment.isWellFormed()) return 'an unpaired UTF-16 surrogate';
  const control = controlCharacterIn(segment);
  if (control !== undefined) return `a control character (${codePoint(control)})`;
  return undefined;
}

// What stays as written: in a path segment, the characters WHATWG URL parsing leaves alone (and
// RFC 3986 allows there), so published URIs equal their own `new URL(uri).href`; in the first
// segment, the URI authority, only what encodeURIComponent keeps. Both match the SDK v2's spelling.
const ENCODED_IN_PATH = /[^\w!$&'()*+,.:;=@[\]|~-]/gu;
const ENCODED_IN_AUTHORITY = /[^\w!'()*.~-]/gu;

/** Percent-encode one decoded segment; `authority` for the first segment of a URI. */
export function encodeSegment(segment: string, authority = false): string {
  return segment.replace(authority ? ENCODED_IN_AUTHORITY : ENCODED_IN_PATH, (char) => encodeURIComponent(char));
}
