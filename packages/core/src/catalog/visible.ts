/**
 * A catalog seen through a per-request visibility rule: the pages a catalog holding only the
 * visible skills would give (same page size, same cursors), and the skills whose folders hold a
 * URI. Read from the catalog's snapshot with no storage call.
 */
import { SKILL_MD } from '../protocol/constants.js';
import type { ListSkillsPage, SkillEntry } from '../types.js';
import { catalogInternals, type SkillCatalog } from './catalog.js';
import type { CatalogSnapshot } from './snapshot.js';
import { decodeCursor, encodeCursor } from './paging.js';

/** Whether one entry is visible to the request; sync when the rule is. */
export type Keep = (entry: SkillEntry) => boolean | Promise<boolean>;

/**
 * One page of the skills `keep` allows, after the cursor's URI: up to the catalog's page size,
 * with a `nextCursor` only when a later skill is allowed too, so neither the page nor its cursor
 * tells that hidden skills exist.
 */
export async function visiblePage(catalog: SkillCatalog, cursor: string | undefined, keep: Keep): Promise<ListSkillsPage> {
  const { snapshot, pageSize } = catalogInternals(catalog);
  const entries = snapshot.entries;
  const after = decodeCursor(cursor);
  let start = 0;
  if (after !== undefined) {
    let hi = entries.length;
    while (start < hi) {
      const mid = (start + hi) >>> 1;
      if (entries[mid]!.uri <= after) start = mid + 1;
      else hi = mid;
    }
  }
  const skills: SkillEntry[] = [];
  for (let i = start; i < entries.length; i++) {
    const entry = entries[i]!;
    const shown = keep(entry);
    if (!(typeof shown === 'boolean' ? shown : await shown)) continue;
    // One more allowed skill after a full page: the page gets a cursor, and the skill waits for the next page.
    if (skills.length === pageSize) return { skills, nextCursor: encodeCursor(skills.at(-1)!.uri) };
    skills.push(entry);
  }
  return { skills };
}

/**
 * The skills holding each served file, by the file's own URI, per snapshot: asked on every read a
 * visibility rule, a read hook or a tracer follows, so each is worked out once (a reload's
 * snapshot starts afresh). Only a file's own URI is kept, so the map is bounded by the files served.
 */
const holdersByFile = new WeakMap<CatalogSnapshot, Map<string, readonly SkillEntry[]>>();

/**
 * The skills whose folders hold `uri` (a file, or with `directory` a folder), nearest first:
 * nested skills share their files with the skills around them. Empty for a URI no skill holds,
 * malformed ones included.
 */
export function skillsHolding(catalog: SkillCatalog, uri: string, kind: 'file' | 'directory'): readonly SkillEntry[] {
  const { snapshot, pathOf } = catalogInternals(catalog);
  const known = kind === 'file' ? holdersByFile.get(snapshot)?.get(uri) : undefined;
  if (known) return known;
  let path: string;
  try {
    path = pathOf(uri, kind);
  } catch {
    return [];
  }
  const holding: SkillEntry[] = [];
  let folder = kind === 'directory' ? path : path.slice(0, Math.max(0, path.lastIndexOf('/')));
  while (folder !== '') {
    const entry = snapshot.skills.get(`${folder}/${SKILL_MD}`);
    if (entry) holding.push(entry);
    folder = folder.slice(0, Math.max(0, folder.lastIndexOf('/')));
  }
  // Another spelling of the URI (percent-encoding, say) is answered but not kept: spellings are unbounded.
  if (kind === 'file' && snapshot.files.get(path)?.resource.uri === uri) {
    let byFile = holdersByFile.get(snapshot);
    if (!byFile) {
      byFile = new Map();
      holdersByFile.set(snapshot, byFile);
    }
    byFile.set(uri, Object.freeze(holding));
  }
  return holding;
}
