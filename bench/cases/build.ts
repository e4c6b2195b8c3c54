/** Catalog build: ours (`SkillCatalog.load`) against the SDK v2's, on the same storage. */
import { SkillsExtension } from '@modelcontextprotocol/server/ext/skills';
import { loadSkills } from '@modelcontextprotocol/server/ext/skills/node';
import { SkillCatalog } from '@skillmount/core';
import { fileCount } from '../corpus.js';
import { counting } from '../counting.js';
import type { SeededStore } from '../stores/store.js';
import { alternate, medians } from './compare.js';

export interface BuildResult {
  store: string;
  size: string;
  files: number;
  runs: number;
  ours: number;
  theirs: number;
  /** Bodies our build took from storage, read or hashed while listing (the SDK v2 reads every file). */
  bodiesRead: number;
}

const quiet = { onWarning: () => {} };

interface Comparable {
  uri: string;
  resources: readonly { uri: string; digest: string; size: number }[] | 'dynamic';
}

/** Both builders must publish the same skills with the same files, digests and sizes, or the figures mean nothing. */
function sameCatalog(ours: readonly Comparable[], theirs: readonly Comparable[], where: string): void {
  const flat = (entries: readonly Comparable[]) =>
    entries
      .map(
        (e) =>
          `${e.uri} ${
            Array.isArray(e.resources)
              ? [...e.resources]
                  .map((r) => `${r.uri}=${r.digest}:${r.size}`)
                  .sort()
                  .join(',')
              : e.resources
          }`,
      )
      .sort()
      .join('\n');
  if (flat(ours) !== flat(theirs)) throw new Error(`bench: ${where}: the two catalogs differ`);
}

export async function buildCase(store: SeededStore, runs: number, longRunMs: number, warmUp: boolean): Promise<BuildResult> {
  let bodiesRead = 0;
  let lastOurs: readonly Comparable[] = [];
  let lastTheirs: readonly Comparable[] = [];
  const ours = async () => {
    const files = store.adapter();
    try {
      const counted = counting(files, store.listingReadsBodies === true);
      const catalog = await SkillCatalog.load(counted.files, quiet);
      if (catalog.entries.length !== store.size.skills) throw new Error(`bench: ${store.kind}: ${catalog.entries.length} skills, not ${store.size.skills}`);
      bodiesRead = counted.bodies();
      lastOurs = catalog.entries;
    } finally {
      await store.release(files);
    }
  };
  const theirs = async () => {
    const files = store.adapter();
    try {
      const catalog = store.dir !== undefined ? await loadSkills(store.dir, quiet) : await SkillsExtension.load(files, quiet);
      if (catalog.entries.length !== store.size.skills)
        throw new Error(`bench: ${store.kind}: the SDK v2 built ${catalog.entries.length} skills, not ${store.size.skills}`);
      lastTheirs = catalog.entries as readonly Comparable[];
    } finally {
      await store.release(files);
    }
  };
  const pair = await alternate(runs, longRunMs, warmUp, ours, theirs);
  sameCatalog(lastOurs, lastTheirs, `${store.kind} ${store.size.label}`);
  const m = medians(pair);
  return { store: store.kind, size: store.size.label, files: fileCount(store.size), runs: pair.runs, ours: m.ours, theirs: m.theirs, bodiesRead };
}
