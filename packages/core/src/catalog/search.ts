/**
 * A catalog's search index: built from its snapshot at load, brought up to date from a reload's
 * report (the skills added, removed and changed), never per request. With bodies indexed, the
 * SKILL.md of every new or changed skill is read once more, and checked against its digest.
 */
import { decodeUtf8 } from '../bytes/text.js';
import { sha256Digest } from '../bytes/digest.js';
import { splitFrontmatter } from '../skillmd/split.js';
import { mapLimit } from '../storage-kit/limit.js';
import { toStorageError } from '../storage-kit/errors.js';
import { SkillIndex } from '../search/skill-index.js';
import type { SearchTarget } from '../search/search.js';
import type { ReloadReport, SkillFiles, SkillResource, SkillSearchRerank } from '../types.js';
import type { CatalogSnapshot } from './snapshot.js';

/** The `search` option, checked. */
export interface SearchSettings {
  text: boolean;
  rerank: SkillSearchRerank | undefined;
}

/** A catalog's index and what its searches need; `generation` changes with every change to the index (cursors name it). */
export interface CatalogSearch extends SearchTarget {
  text: boolean;
}

/**
 * SKILL.md bodies by SKILL.md URI, for the skills `uris` names (all of them when undefined): from
 * `built`, the bytes the snapshot's build read, else read from storage.
 */
export async function skillBodies(
  files: SkillFiles,
  snapshot: CatalogSnapshot,
  uris: ReadonlySet<string> | undefined,
  concurrency: number,
  built: ReadonlyMap<string, Uint8Array>,
): Promise<Map<string, string>> {
  const wanted = [...snapshot.skills].filter(([, entry]) => uris === undefined || uris.has(entry.uri));
  const bodies = new Map<string, string>();
  await mapLimit(wanted, concurrency, async ([path, entry]) => {
    const published = (entry.resources as SkillResource[]).find((r) => r.uri === entry.uri);
    if (!published) return;
    // The build's own bytes are the ones its digest was taken of: only a read now is checked again.
    let bytes = built.get(path);
    if (!bytes) {
      try {
        bytes = await files.read(path, { maxBytes: published.size });
      } catch (error) {
        throw toStorageError(error, 'cannot read', path);
      }
      // Changed since the build: indexed without its body now, and in full once a reload publishes the change.
      if (bytes.byteLength !== published.size || sha256Digest(bytes) !== published.digest) return;
    }
    const body = splitFrontmatter(decodeUtf8(bytes) ?? '')?.body;
    if (body !== undefined) bodies.set(entry.uri, body);
  });
  return bodies;
}

/** A new index of every skill of `snapshot`. */
export function buildSearch(settings: SearchSettings, snapshot: CatalogSnapshot, bodies: ReadonlyMap<string, string> | undefined): CatalogSearch {
  const index = new SkillIndex();
  for (const entry of snapshot.entries) index.add(entry, bodies?.get(entry.uri));
  // A random start: a cursor from another catalog, or from before a restart, is refused as stale.
  return { index, generation: Math.floor(Math.random() * 2 ** 30), rerank: settings.rerank, text: settings.text };
}

/** Bring `search` up to date with `snapshot`, the catalog `report` describes the change to. */
export function updateSearch(search: CatalogSearch, report: ReloadReport, snapshot: CatalogSnapshot, bodies: ReadonlyMap<string, string> | undefined): void {
  if (!report.listChanged) return;
  for (const uri of report.removed) search.index.remove(uri);
  const byUri = new Map(snapshot.entries.map((e) => [e.uri, e]));
  for (const uri of [...report.added, ...report.changed]) {
    const entry = byUri.get(uri);
    if (entry) search.index.add(entry, bodies?.get(uri));
  }
  search.generation = (search.generation + 1) % 2 ** 30;
}
