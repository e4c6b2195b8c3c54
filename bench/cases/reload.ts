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
  /** Ours reloaded with the storage's watch on (the folder's change feed needs it); the SDK v2 has none. */
  watched: boolean;
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
  watched = false,
) {
  const counted = counting(files, store.listingReadsBodies === true);
  // Files written just before are read again by each reload until their times are settled: not what is measured here.
  await store.settled?.();
  // The storage's own watch, not the catalog's: its events feed the storage, and no reload runs but the timed ones.
  const unwatch = watched ? files.watch?.(() => {}) : undefined;
  try {
    return await timeReloads(store, files, counted, await load(counted.files), runs, longRunMs, firstVersion, watched);
  } finally {
    unwatch?.();
  }
}

async function timeReloads(
  store: SeededStore,
  files: SkillFiles,
  counted: ReturnType<typeof counting>,
  catalog: Reloadable,
  runs: number,
  longRunMs: number,
  firstVersion: number,
  watched: boolean,
) {
  const unchanged: ReloadSide[] = [];
  const changed: ReloadSide[] = [];
  const slice = changedSlice(store.files);
  if (watched) await settled(files, undefined);
  for (let i = 0; i < runs; i++) {
    collect();
    counted.reset();
    const { ms, value } = await timed(() => catalog.reload());
    if (changes(value) > 0) throw new Error(`bench: ${store.kind}: a reload with nothing changed reported a change`);
    unchanged.push({ ms, bodies: counted.bodies() });
    if (ms > longRunMs) runs = Math.min(runs, 3);
  }
  for (let i = 0; i < runs; i++) {
    const before = watched ? await files.treeToken?.() : undefined;
    await store.rewrite(slice, firstVersion + i);
    if (watched) await settled(files, before);
    collect();
    counted.reset();
    const { ms, value } = await timed(() => catalog.reload());
    if (changes(value) === 0) throw new Error(`bench: ${store.kind}: a reload after rewriting ${slice.length} files reported no change`);
    changed.push({ ms, bodies: counted.bodies() });
  }
  const summary = (sides: ReloadSide[]) => ({ ms: median(sides.map((s) => s.ms)), bodies: median(sides.map((s) => s.bodies)) });
  return { unchanged: summary(unchanged), changed: summary(changed), changedFiles: slice.length, runs };
}

/**
 * Wait until the storage's tree token differs from `before` (when given) and has then held still
 * for half a second: the watcher's events for a rewrite have all arrived, so the timed reload
 * measures the reload, not the wait for events.
 */
async function settled(files: SkillFiles, before: string | undefined): Promise<void> {
  const token = () => files.treeToken?.();
  const deadline = Date.now() + 30_000;
  let last = await token();
  while (before !== undefined && last === before && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
    last = await token();
  }
  for (let stillSince = Date.now(); Date.now() - stillSince < 500 && Date.now() < deadline; ) {
    await new Promise((r) => setTimeout(r, 50));
    const now = await token();
    if (now !== last) {
      last = now;
      stillSince = Date.now();
    }
  }
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

/** With `watched`, ours reloads with the storage's watch on, and the SDK v2's figures are taken from `theirsFrom` (the same store, measured unwatched). */
export async function reloadCase(store: SeededStore, runs: number, longRunMs: number, watched = false, theirsFrom?: ReloadResult): Promise<ReloadResult> {
  const ours = await withAdapter(store, (files) => measure(store, files, (f) => SkillCatalog.load(f, quiet), runs, longRunMs, 1, watched));
  // The SDK v2's loadSkills(dir) is SkillsExtension.load(nodeSkillFiles(dir)): the same thing, counted.
  const theirs = theirsFrom
    ? { runs: theirsFrom.runs[1], unchanged: theirsFrom.unchanged.theirs, changed: theirsFrom.changed.theirs }
    : store.dir !== undefined
      ? await measure(store, nodeSkillFiles(store.dir), (f) => SkillsExtension.load(f, quiet), runs, longRunMs, 1 + runs)
      : await withAdapter(store, (files) => measure(store, files, (f) => SkillsExtension.load(f, quiet), runs, longRunMs, 1 + runs));
  return {
    store: store.kind,
    watched,
    size: store.size.label,
    runs: [ours.runs, theirs.runs],
    changedFiles: ours.changedFiles,
    unchanged: { ours: ours.unchanged, theirs: theirs.unchanged },
    changed: { ours: ours.changed, theirs: theirs.changed },
  };
}
