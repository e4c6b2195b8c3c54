/** Memory of a loaded catalog, ours and the SDK v2's, each measured in its own fresh process. */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { median } from '../measure.js';
import type { SeededStore } from '../stores/store.js';

export interface MemorySide {
  skills: number;
  baselineRss: number;
  peakRssGrowth: number;
  rssGrowth: number;
  heapRetained: number;
  externalRetained: number;
}
export interface MemoryResult {
  size: string;
  files: number;
  runs: number;
  ours: MemorySide;
  /** Ours with `fsStorage(dir, { workerThreads: false })`: no listing threads. */
  oursInline: MemorySide;
  theirs: MemorySide;
}

const CHILD = path.join(import.meta.dirname, 'memory-child.ts');
const run = promisify(execFile);

async function measure(which: 'ours' | 'ours-inline' | 'sdk-v2', dir: string): Promise<MemorySide> {
  const { stdout } = await run(process.execPath, ['--expose-gc', '--import', 'tsx', CHILD, which, dir], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout) as MemorySide;
}

/** Median of each figure over `repeats` fresh processes per side (RSS moves by a few MiB from one process to the next). */
export async function memoryCase(store: SeededStore, repeats: number): Promise<MemoryResult> {
  const dir = store.dir;
  if (dir === undefined) throw new Error('bench: the memory case loads a folder');
  const ours: MemorySide[] = [];
  const oursInline: MemorySide[] = [];
  const theirs: MemorySide[] = [];
  for (let i = 0; i < repeats; i++) {
    ours.push(await measure('ours', dir));
    oursInline.push(await measure('ours-inline', dir));
    theirs.push(await measure('sdk-v2', dir));
  }
  for (const side of [...ours, ...oursInline, ...theirs])
    if (side.skills !== store.size.skills) throw new Error(`bench: memory child loaded ${side.skills} skills, not ${store.size.skills}`);
  const mid = (sides: MemorySide[]): MemorySide => {
    const pick = (k: keyof MemorySide) => median(sides.map((s) => s[k]));
    return {
      skills: sides[0]!.skills,
      baselineRss: pick('baselineRss'),
      peakRssGrowth: pick('peakRssGrowth'),
      rssGrowth: pick('rssGrowth'),
      heapRetained: pick('heapRetained'),
      externalRetained: pick('externalRetained'),
    };
  };
  return { size: store.size.label, files: store.files.length, runs: repeats, ours: mid(ours), oursInline: mid(oursInline), theirs: mid(theirs) };
}
