import { SKILL_SCHEME } from '../protocol/constants.js';
import { encodeSegment, segmentProblem } from './segment.js';

export type ParsedUri = { ok: true; scheme: string; segments: string[] } | { ok: false; error: string };

const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//;

/**
 * Parse a hierarchical URI (`scheme://a/b/c`, any scheme) into its lower-cased scheme and decoded
 * segments, the first being the authority. An empty authority (`file:///srv/a/SKILL.md`) is legal
 * and comes back as a first segment `''`, so its URIs never compare equal to `file://srv/…`.
 * Refuses a query or fragment, empty path segments, `.`/`..` in any spelling (`%2e%2e`), encoded
 * slashes, backslashes, NUL and malformed escapes, so a URI can never name anything outside the
 * tree it appears to name.
 *
 * @example
 * ```ts
 * import { parseUri } from '@skillmount/core';
 *
 * const parsed = parseUri('skill://acme/billing/refunds/SKILL.md');
 * if (parsed.ok) console.log(parsed.segments); // ['acme', 'billing', 'refunds', 'SKILL.md']
 * ```
 * @throws Nothing: an unsafe or malformed URI comes back as `{ ok: false, error }`.
 */
export function parseUri(uri: string): ParsedUri {
  if (typeof uri !== 'string') return { ok: false, error: 'not a string' };
  const scheme = SCHEME.exec(uri);
  if (!scheme) return { ok: false, error: 'not an absolute scheme:// URI' };
  const rest = uri.slice(scheme[0].length);
  if (rest.includes('?') || rest.includes('#')) return { ok: false, error: 'a query or fragment is not allowed' };
  if (rest.includes('\\')) return { ok: false, error: 'backslashes are not allowed' };
  const emptyAuthority = rest.startsWith('/');
  const named = emptyAuthority ? rest.slice(1) : rest;
  if (named.length === 0) return { ok: false, error: 'no path' };
  const segments: string[] = emptyAuthority ? [''] : [];
  for (const raw of named.split('/')) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      return { ok: false, error: `malformed percent-encoding in "${raw}"` };
    }
    const problem = segmentProblem(decoded);
    if (problem) return { ok: false, error: `${problem} in the path` };
    segments.push(decoded);
  }
  return { ok: true, scheme: scheme[1]!.toLowerCase(), segments };
}

/**
 * Build the one spelling we publish for a list of decoded segments.
 *
 * @example
 * ```ts
 * import { buildSkillUri } from '@skillmount/core';
 *
 * buildSkillUri(['acme', 'refunds', 'notes v2.md']); // 'skill://acme/refunds/notes%20v2.md'
 * ```
 * @throws URIError when a segment holds an unpaired UTF-16 surrogate, which percent-encoding cannot spell.
 */
export function buildSkillUri(segments: readonly string[], scheme = SKILL_SCHEME): string {
  return `${scheme}://${segments.map((segment, i) => encodeSegment(segment, i === 0)).join('/')}`;
}

/** A lookup key under which every spelling of the same URI compares equal. */
export function skillUriKey(segments: readonly string[]): string {
  return segments.join('/');
}

/**
 * The canonical spelling of a URI, or undefined when it is not a safe hierarchical URI.
 *
 * @example
 * ```ts
 * import { canonicalUri } from '@skillmount/core';
 *
 * canonicalUri('SKILL://acme/%72efunds/SKILL.md'); // 'skill://acme/refunds/SKILL.md'
 * canonicalUri('skill://acme/../etc'); // undefined
 * ```
 * @throws Nothing: a URI that is not safe gives `undefined`.
 */
export function canonicalUri(uri: string): string | undefined {
  const parsed = parseUri(uri);
  return parsed.ok ? buildSkillUri(parsed.segments, parsed.scheme) : undefined;
}
