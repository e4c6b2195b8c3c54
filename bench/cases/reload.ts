/** Reload with nothing changed and with 1% of files rewritten: bodies read and time, ours and the SDK v2's. */
import { SkillsExtension } from '@modelcontextprotocol/server/ext/skills';
import { nodeSkillFiles } from '@modelcontextprotocol/server/ext/skills/node';
import { SkillCatalog, type SkillFiles } from '@skillmount/core';
import { changedSlice } from '../corpus.js';
import { counting } from '../counting.js';
import { collect, median, timed } from '../measure.js';
import type { SeededStore } from '../stores/store.js';

export interface ReloadSide {
  ms: number;
  bodies: number;
}
export interface ReloadResult {
  store: string;
  size: string;
  /** Runs per side: ours, the SDK v2's. */
  runs: [number, number];
  changedFiles: number;
  unchanged: { ours: ReloadSide; theirs: ReloadSide };
  changed: { ours: ReloadSide; theirs: ReloadSide };
}

const quiet = { onWarning: () => {} };

interface Reloadable {
  reload(): Promise<{ added: string[]; removed: string[]; changed: string[] }>;
}

// Not `listChanged`: the SDK v2 sets it only when a name or description changed.
const changes = (report: { added: string[]; removed: string[]; changed: string[] }) => report.added.length + report.removed.length + report.changed.length;

/**
 * Load once, then time `runs` reloads with nothing changed and `runs` after rewriting 1% of the
 * files (versions from `firstVersion`); 3 of each once a single reload takes over `longRunMs`.
 */
async function measure(
  store: SeededStore,
  files: SkillFiles,
  load: (files: SkillFiles) => Promise<Reloadable>,
  runs: number,
  longRunMs: number,
  firstVersion: number,
) {
  const counted = counting(files, store.listingReadsBodies === true);
  const catalog = await load(counted.files);
  const unchanged: ReloadSide[] = [];
  const changed: ReloadSide[] = [];
  const slice = changedSlice(store.files);
  for (let i = 0; i < runs; i++) {
    collect();
    counted.reset();
    const { ms, value } = await timed(() => catalog.reload());
    if (changes(value) > 0) throw new Error(`bench: ${store.kind}: a reload with nothing changed reported a change`);
    unchanged.push({ ms, bodies: counted.bodies() });
    if (ms > longRunMs) runs = Math.min(runs, 3);
  }
  for (let i = 0; i < runs; i++) {
    await store.rewrite(slice, firstVersion + i);
    collect();
    counted.reset();
    const { ms, value } = await timed(() => catalog.reload());
    if (changes(value) === 0) throw new Error(`bench: ${store.kind}: a reload after rewriting ${slice.length} files reported no change`);
    changed.push({ ms, bodies: counted.bodies() });
  }
  const summary = (sides: ReloadSide[]) => ({ ms: median(sides.map((s) => s.ms)), bodies: median(sides.map((s) => s.bodies)) });
  return { unchanged: summary(unchanged), changed: summary(changed), changedFiles: slice.length, runs };
}

/** Run `fn` with a fresh adapter of the store, released afterwards. */
async function withAdapter<T>(store: SeededStore, fn: (files: SkillFiles) => Promise<T>): Promise<T> {
  const files = store.adapter();
  try {
    return await fn(files);
  } finally {
    await store.release(files);
  }
}

export async function reloadCase(store: SeededStore, runs: number, longRunMs: number): Promise<ReloadResult> {
  const ours = await withAdapter(store, (files) => measure(store, files, (f) => SkillCatalog.load(f, quiet), runs, longRunMs, 1));
  // The SDK v2's loadSkills(dir) is SkillsExtension.load(nodeSkillFiles(dir)): the same thing, counted.
  const theirs =
    store.dir !== undefined
      ? await measure(store, nodeSkillFiles(store.dir), (f) => SkillsExtension.load(f, quiet), runs, longRunMs, 1 + runs)
      : await withAdapter(store, (files) => measure(store, files, (f) => SkillsExtension.load(f, quiet), runs, longRunMs, 1 + runs));
  return {
    store: store.kind,
    size: store.size.label,
    runs: [ours.runs, theirs.runs],
    changedFiles: ours.changedFiles,
    unchanged: { ours: ours.unchanged, theirs: theirs.unchanged },
    changed: { ours: ours.changed, theirs: theirs.changed },
  };
}
