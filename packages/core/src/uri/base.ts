import { SKILL_SCHEME } from '../protocol/constants.js';
import { buildSkillUri, parseUri } from './canonical.js';

/**
 * Where a source's URIs live: `skill://` (the default) or a base such as `github://acme/skills/`
 * under which skill paths are placed. `uri` is canonical and ends with `://` or `/`; `segments`
 * are its decoded authority and path segments, which every served URI starts with.
 */
export interface BaseUri {
  uri: string;
  scheme: string;
  segments: readonly string[];
}

export const DEFAULT_BASE_URI: BaseUri = Object.freeze({ uri: `${SKILL_SCHEME}://`, scheme: SKILL_SCHEME, segments: Object.freeze([]) as readonly string[] });

const SCHEME_ONLY = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/$/;

/**
 * A base URI option, checked: an absolute `scheme://` URI with no query or fragment, no `.`/`..`,
 * empty, encoded-slash or control-character segments, already in the canonical spelling that
 * WHATWG URL parsing gives it (so published URIs equal their own `new URL(uri).href`). One
 * trailing `/` is optional. Returns why not as a string.
 */
export function parseBaseUri(value: unknown): BaseUri | string {
  if (typeof value !== 'string') return `must be a string such as "github://acme/skills/", got ${typeof value}`;
  const schemeOnly = SCHEME_ONLY.exec(value);
  if (schemeOnly) {
    const scheme = schemeOnly[1]!.toLowerCase();
    return { uri: `${scheme}://`, scheme, segments: [] };
  }
  const parsed = parseUri(value.endsWith('/') ? value.slice(0, -1) : value);
  if (!parsed.ok) return `"${value.slice(0, 200)}" is not a base URI (${parsed.error}); write it as "scheme://authority/path/", e.g. "github://acme/skills/"`;
  if (parsed.segments[0] === '') return `"${value.slice(0, 200)}" has an empty authority; a skill name or an authority must follow "${parsed.scheme}://"`;
  const canonical = buildSkillUri(parsed.segments, parsed.scheme);
  let resolved: string | undefined;
  try {
    resolved = new URL(canonical).href;
  } catch {
    resolved = undefined;
  }
  if (resolved !== canonical) {
    const reads = resolved === undefined ? 'no URL at all' : `"${resolved}"`;
    return `"${value.slice(0, 200)}" does not keep its spelling as a URL (it reads as ${reads}); write it in that canonical form`;
  }
  if (stripSlash(value) !== canonical) return `"${value.slice(0, 200)}" is not in canonical form; write it as "${canonical}/"`;
  return { uri: `${canonical}/`, scheme: parsed.scheme, segments: parsed.segments };
}

const stripSlash = (text: string) => (text.endsWith('/') ? text.slice(0, -1) : text);

/**
 * Whether `uri` belongs to a source under `base`, to be answered (or refused as not found) by it
 * rather than by the app: its scheme is the base's, and it starts with the base's segments, in any
 * spelling, or, when it does not parse, with the base's own text.
 */
export function isUnderBase(base: BaseUri, uri: string): boolean {
  const colon = uri.indexOf(':');
  if (colon < 0 || uri.slice(0, colon).toLowerCase() !== base.scheme) return false;
  if (base.segments.length === 0) return true;
  const parsed = parseUri(uri);
  if (!parsed.ok) return (base.scheme + uri.slice(colon)).startsWith(base.uri);
  return parsed.segments.length > base.segments.length && base.segments.every((s, i) => parsed.segments[i] === s);
}
