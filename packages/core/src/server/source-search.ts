/**
 * Searching the source that answers a request, for the skills service: a catalog asks its index
 * (or, when it keeps none, ranks its entries with the same `searchEntries`), a custom source its
 * own `search`, or its pages when it has none. Only skills the request may see are ranked, so a
 * page, its length and its cursor are those a source without the hidden skills would give.
 */
import { SkillSearchError } from '../search/errors.js';
import { searchEntries } from '../search/search.js';
import type { SkillContext, SkillEntry, SkillSearchOptions, SkillSearchPage, SkillSource } from '../types.js';

/** Whether one entry is visible to the request; sync when the rule is. */
export type Shown = (entry: SkillEntry) => boolean | Promise<boolean>;

/** What is asked: the query, and the page (`limit`, `cursor`), unchecked: the index refuses what is wrong. */
export interface SearchAsk {
  query: string;
  limit?: number;
  cursor?: string;
}

/** `skills/list` pages walked to rank a source that cannot search (the prompts' and the names' bound). */
export const MAX_SEARCH_PAGES = 1000;

/**
 * Run a synchronous search with a visibility rule that may answer later: the search runs with
 * what is known, the rule's pending answers are awaited, and it runs again until it asks nothing
 * new. Every round learns at least one answer, so it ends; a sync rule needs one round.
 */
export async function withVisibility(
  search: (visible?: (entry: SkillEntry) => boolean) => SkillSearchPage | Promise<SkillSearchPage>,
  shown: Shown | undefined,
): Promise<SkillSearchPage> {
  if (!shown) return search();
  const known = new Map<SkillEntry, boolean>();
  for (;;) {
    const pending: SkillEntry[] = [];
    const waiting: Promise<boolean>[] = [];
    const page = await search((entry) => {
      const told = known.get(entry);
      if (told !== undefined) return told;
      const answer = shown(entry);
      if (typeof answer === 'boolean') {
        known.set(entry, answer);
        return answer;
      }
      pending.push(entry);
      waiting.push(answer);
      return false;
    });
    if (pending.length === 0) return page;
    const answers = await Promise.all(waiting);
    for (let i = 0; i < pending.length; i++) known.set(pending[i]!, answers[i] === true);
  }
}

/**
 * One page of the visible skills that match, best first, from `source`: a catalog built here
 * (`catalog`), a custom source's own `search` (its answer unchecked: `checked` false, the caller
 * checks it and applies the rules again), or, for a source that cannot search, `listAll()` (the
 * visible skills, in list order, already checked) ranked here.
 */
export async function searchSource(
  source: SkillSource,
  ask: SearchAsk,
  ctx: SkillContext,
  shown: Shown | undefined,
  listAll: () => Promise<SkillEntry[]>,
  catalog?: SearchableCatalog,
): Promise<{ page: unknown; checked: boolean }> {
  const options = { ...(ask.limit !== undefined ? { limit: ask.limit } : {}), ...(ask.cursor !== undefined ? { cursor: ask.cursor } : {}) };
  if (catalog) {
    const page = await withVisibility((visible) => catalogSearch(catalog, ask.query, { ...options, ...(visible ? { visible } : {}) }), shown);
    return { page, checked: true };
  }
  if (typeof source.search === 'function') {
    const page = await withVisibility((visible) => source.search!(ask.query, { ...options, ...(visible ? { visible } : {}) }, ctx), shown);
    return { page, checked: false };
  }
  return { page: searchEntries(await listAll(), ask.query, options), checked: true };
}

/** A `SkillCatalog` built here, as a search sees it (the service hands it over: only the service imports the catalog). */
export interface SearchableCatalog {
  readonly entries: readonly SkillEntry[];
  search(query: string, options?: SkillSearchOptions): SkillSearchPage;
}

/** The catalog's index, or, for a catalog loaded without one, its entries ranked alike. */
function catalogSearch(catalog: SearchableCatalog, query: string, options: SkillSearchOptions): SkillSearchPage {
  try {
    return catalog.search(query, options);
  } catch (error) {
    if (error instanceof SkillSearchError && error.reason === 'off') return searchEntries(catalog.entries, query, options);
    throw error;
  }
}
