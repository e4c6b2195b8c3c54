import { SkillSearchError } from './errors.js';
import { SEARCH_LIMITS } from './limits.js';

/**
 * Search cursors: "this query, this index generation, from this result on", opaque to clients.
 * They hold no URI and no score, only a position among the results the request may see, so no
 * cursor reaches a hidden skill; one made for another query or before the index changed is refused.
 */
const VERSION = 's1';
const MAX_CURSOR_LENGTH = 64;

/** A short digest of the query's words (FNV-1a): binds a cursor to its query, nothing secret. */
export function queryKey(terms: readonly string[]): string {
  let hash = 0x811c9dc5;
  const text = terms.join(' ');
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}

export function encodeSearchCursor(generation: number, offset: number, key: string): string {
  return toBase64Url(`${VERSION}.${generation.toString(36)}.${offset.toString(36)}.${key}`);
}

/**
 * The offset a cursor continues at.
 *
 * @throws {@link SkillSearchError} (`reason: 'cursor'`) for a cursor this index did not give for this
 * query, or one given before the index changed.
 */
export function decodeSearchCursor(cursor: unknown, generation: number, key: string): number {
  const bad = (problem: string) =>
    new SkillSearchError(
      'cursor',
      `Invalid search cursor: ${problem}; pass back a nextCursor exactly as received with the same query, or omit it to start over`,
    );
  if (typeof cursor !== 'string') throw bad(`it must be a string, got ${cursor === null ? 'null' : typeof cursor}`);
  if (cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw bad('it is not one this server gave');
  const parts = fromBase64Url(cursor)?.split('.');
  if (parts?.length !== 4 || parts[0] !== VERSION || !parts.slice(1).every((p) => /^[0-9a-z]{1,10}$/.test(p))) {
    throw bad('it is not one this server gave');
  }
  const [, gen, at, forKey] = parts as [string, string, string, string];
  if (forKey !== key) throw bad('it was given for another query');
  if (Number.parseInt(gen, 36) !== generation)
    throw new SkillSearchError('cursor', 'The search cursor is stale: the skills changed since it was given; search again without a cursor');
  const offset = Number.parseInt(at, 36);
  if (!(offset > 0 && offset < SEARCH_LIMITS.maxResults)) throw bad('it is not one this server gave');
  return offset;
}

// btoa and atob: the same in browsers and Node.js, over Latin-1 text (a cursor is ASCII).
const toBase64Url = (text: string) => btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

function fromBase64Url(text: string): string | undefined {
  try {
    const decoded = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    return toBase64Url(decoded) === text ? decoded : undefined;
  } catch {
    return undefined;
  }
}
