import type { SkillEntry } from '../types.js';
import { encodeSearchCursor, decodeSearchCursor, queryKey } from './cursor.js';
import { SkillSearchError } from './errors.js';
import { SEARCH_LIMITS } from './limits.js';
import { queryTerms } from './query.js';
import { SkillIndex } from './skill-index.js';
import type { SkillSearchCandidate, SkillSearchOptions, SkillSearchPage, SkillSearchRerank } from './types.js';
import { compare } from '../text/compare.js';

/** An index and what a search over it needs besides the request: its generation (for cursors) and the app's ranker. */
export interface SearchTarget {
  index: SkillIndex;
  generation: number;
  rerank?: SkillSearchRerank | undefined;
}

/**
 * One page of results for `query` over an index: the options and the query checked first, then
 * the ranking over the visible skills, then the app's reranking, then the page.
 *
 * @throws {@link SkillSearchError} for a bad query, limit or cursor.
 * @throws TypeError when `options` or `options.visible` has the wrong type (a programming error, not a request's).
 */
export function searchIndex(target: SearchTarget, query: unknown, options: SkillSearchOptions = {}): SkillSearchPage {
  if (typeof options !== 'object' || options === null) throw new TypeError('skillmount: search options must be an object { limit?, cursor?, visible? }');
  const { visible, cursor } = options;
  if (visible !== undefined && typeof visible !== 'function') throw new TypeError('skillmount: search option visible must be a function (entry) => boolean');
  const limit = checkLimit(options.limit);
  const terms = queryTerms(query);
  const key = queryKey(terms);
  const offset = cursor === undefined ? 0 : decodeSearchCursor(cursor, target.generation, key);
  const { rerank } = target;
  const depth = rerank ? SEARCH_LIMITS.rerankDepth : SEARCH_LIMITS.maxResults;
  let ranked = target.index.search(terms, visible, depth);
  if (rerank && ranked.length > 0) ranked = reranked(ranked, rerank(ranked, query as string));
  const skills = ranked.slice(offset, offset + limit).map((c) => c.entry);
  const next = offset + limit;
  return next < ranked.length && next < SEARCH_LIMITS.maxResults ? { skills, nextCursor: encodeSearchCursor(target.generation, next, key) } : { skills };
}

function checkLimit(limit: unknown): number {
  if (limit === undefined) return SEARCH_LIMITS.defaultLimit;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
    throw new SkillSearchError('limit', `Invalid search limit ${String(limit)}: it must be an integer from 1 to ${SEARCH_LIMITS.maxLimit}`);
  }
  // Above the most a page holds: a full page, as list methods do with a large page size.
  return Math.min(limit, SEARCH_LIMITS.maxLimit);
}

/** The hook's answer kept to the candidates it was given, each once, ordered by its score then URI. */
function reranked(candidates: readonly SkillSearchCandidate[], answer: readonly SkillSearchCandidate[]): SkillSearchCandidate[] {
  if (!Array.isArray(answer)) throw new TypeError('skillmount: the search rerank hook must return an array of { entry, score }');
  const given = new Set(candidates.map((c) => c.entry));
  const kept: SkillSearchCandidate[] = [];
  for (const c of answer) {
    if (!c || !given.has(c.entry) || typeof c.score !== 'number' || Number.isNaN(c.score)) continue;
    given.delete(c.entry);
    kept.push({ entry: c.entry, score: c.score });
  }
  return kept.sort((a, b) => b.score - a.score || compare(a.entry.uri, b.entry.uri));
}

/** Indexes of frozen entry lists (a catalog's, a client's held list), built once per list. */
const built = new WeakMap<readonly SkillEntry[], SkillIndex>();

function indexOf(entries: readonly SkillEntry[]): SkillIndex {
  let index = Object.isFrozen(entries) ? built.get(entries) : undefined;
  if (!index) {
    index = new SkillIndex();
    for (const entry of entries) index.add(entry);
    if (Object.isFrozen(entries)) built.set(entries, index);
  }
  return index;
}

/** What {@link searchEntries} takes besides the request's options. */
export interface SearchEntriesOptions extends SkillSearchOptions {
  /** An app's own ranker, as the catalog's `search.rerank`. */
  rerank?: SkillSearchRerank;
}

/**
 * Search a list of skill entries with the ranking a catalog's `search` uses (over the same
 * fields: name, description, `metadata.version`), without a catalog: for a host ranking the
 * skills it listed when a server has no search. A frozen list is indexed once and the index
 * reused for later searches of it; any other list is indexed on every call.
 *
 * @example
 * ```ts
 * import { searchEntries } from '@skillmount/core';
 *
 * const entries = [
 *   { uri: 'skill://pdf/SKILL.md', frontmatter: { name: 'pdf', description: 'Extract text and tables from PDF files' }, resources: 'dynamic' as const },
 *   { uri: 'skill://xlsx/SKILL.md', frontmatter: { name: 'xlsx', description: 'Spreadsheets: formulas and charts' }, resources: 'dynamic' as const },
 * ];
 * const { skills, nextCursor } = searchEntries(entries, 'extract tables from a pdf', { limit: 5 });
 * console.log(skills.map((s) => s.frontmatter.name), nextCursor); // [ 'pdf' ] undefined
 * ```
 * @throws {@link SkillSearchError} (`-32602`) when the query, limit or cursor is bad: the message says what and the limit.
 * @throws TypeError when `entries` is not an array, or an option has the wrong type.
 */
export function searchEntries(entries: readonly SkillEntry[], query: string, options: SearchEntriesOptions = {}): SkillSearchPage {
  if (!Array.isArray(entries)) throw new TypeError('skillmount: searchEntries(entries, query) needs an array of skill entries');
  const { rerank, ...request } = options ?? {};
  if (rerank !== undefined && typeof rerank !== 'function')
    throw new TypeError('skillmount: search option rerank must be a function (candidates, query) => candidates');
  // Checked before the list is indexed: a bad request costs nothing.
  queryTerms(query);
  checkLimit(request.limit);
  return searchIndex({ index: indexOf(entries), generation: 0, rerank }, query, request);
}
