/** Memory of a loaded catalog, ours and the SDK v2's, each measured in its own fresh process. */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { TYPESCRIPT_IMPORT } from '../../scripts/typescript-import.mjs';
import { count, mib, table } from '../format.js';
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
  const { stdout } = await run(process.execPath, ['--expose-gc', ...TYPESCRIPT_IMPORT, CHILD, which, dir], { maxBuffer: 1 << 20 });
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

const figures = (side: MemorySide) => [side.peakRssGrowth, side.rssGrowth, side.heapRetained];
const shares = (ours: MemorySide, theirs: MemorySide) => figures(ours).map((v, i) => `${((v / figures(theirs)[i]!) * 100).toFixed(0)}%`);

/** The printed section: every figure at the largest size, then peak RSS growth at each size. */
export function memorySection(results: readonly MemoryResult[]): string[] {
  const m = results.at(-1)!;
  const lines = [
    '## Memory of a loaded catalog',
    '',
    `${m.size} from a folder (${count(m.files)} files), each side loaded in its own fresh process (\`--expose-gc\`)${m.runs > 1 ? `, median of ${m.runs} processes per side` : ''}. ` +
      "Growth is over the process's RSS after its imports and a full GC, just before the load. Peak: the highest RSS sampled every 2 ms during the load, or the process's `maxRSS` (`process.resourceUsage()`) after the load when the load raised it and it is higher; worker threads are part of the process, so their memory counts. " +
      'Heap retained is measured after the load and a full GC, with the catalog held.',
    '',
    table(
      ['', 'peak RSS growth', 'RSS growth after GC', 'heap retained'],
      [
        ['ours', ...figures(m.ours).map(mib)],
        ['ours, `workerThreads: false`', ...figures(m.oursInline).map(mib)],
        ['SDK v2', ...figures(m.theirs).map(mib)],
        ['ours / SDK v2', ...shares(m.ours, m.theirs)],
        ['ours (`workerThreads: false`) / SDK v2', ...shares(m.oursInline, m.theirs)],
      ],
    ),
    '',
  ];
  if (results.length < 2) return lines;
  const percent = (ours: number, theirs: number) => `${((ours / theirs) * 100).toFixed(0)}%`;
  lines.push(
    'Peak RSS growth during the load, by corpus size (measured the same way):',
    '',
    table(
      ['corpus', 'files', 'ours', 'ours, `workerThreads: false`', 'SDK v2', 'ours / SDK v2', 'ours (`workerThreads: false`) / SDK v2'],
      results.map((r) => [
        r.size,
        count(r.files),
        mib(r.ours.peakRssGrowth),
        mib(r.oursInline.peakRssGrowth),
        mib(r.theirs.peakRssGrowth),
        percent(r.ours.peakRssGrowth, r.theirs.peakRssGrowth),
        percent(r.oursInline.peakRssGrowth, r.theirs.peakRssGrowth),
      ]),
    ),
    '',
  );
  return lines;
}
