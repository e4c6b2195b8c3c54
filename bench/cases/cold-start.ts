/**
 * Cold start: the first catalog load in a fresh process, ours and the SDK v2's, from the same
 * storage. Each load runs in its own child process (bench/cases/cold-start-child.mjs, plain Node)
 * that imports the packages, loads and reports; listing threads start inside the timed load.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileCount } from '../corpus.js';
import { ms, ratio, table } from '../format.js';
import { median } from '../measure.js';
import type { SeededStore } from '../stores/store.js';

export interface ColdSide {
  /** From the process's start to a loaded catalog (Node's start-up, the imports and the load). */
  fromStart: number;
  /** The imports alone. */
  imports: number;
  /** From just before the load to a loaded catalog. */
  load: number;
  /** CPU time (user + system, every thread) over the same span, ms. */
  loadCpu: number;
}
export interface ColdStartResult {
  store: string;
  size: string;
  files: number;
  runs: number;
  ours: ColdSide;
  theirs: ColdSide;
}

const CHILD = path.join(import.meta.dirname, 'cold-start-child.mjs');
const run = promisify(execFile);

/** One load in a fresh process (bench/cases/cold-start-child.mjs); `ours-inline` lists a folder without threads. */
export async function coldLoad(which: 'ours' | 'ours-inline' | 'sdk-v2', store: Pick<SeededStore, 'kind' | 'size' | 'served'>): Promise<ColdSide> {
  if (!store.served) throw new Error(`bench: the cold-start case needs a ${store.kind} store a child process can open`);
  const { stdout } = await run(process.execPath, [CHILD, which, JSON.stringify(store.served)], { maxBuffer: 1 << 20 });
  const report = JSON.parse(stdout) as { skills: number; importStart: number; loadStart: number; loaded: number; loadCpu: number };
  if (report.skills !== store.size.skills)
    throw new Error(`bench: cold start (${which}) from ${store.kind} loaded ${report.skills} skills, not ${store.size.skills}`);
  return { fromStart: report.loaded, imports: report.loadStart - report.importStart, load: report.loaded - report.loadStart, loadCpu: report.loadCpu };
}

/** `runs` fresh processes per side, alternating (1 once a single one takes over `longRunMs`); medians of each figure. */
export async function coldStartCase(store: SeededStore, runs: number, longRunMs: number): Promise<ColdStartResult> {
  const ours: ColdSide[] = [];
  const theirs: ColdSide[] = [];
  for (let i = 0; i < runs; i++) {
    ours.push(await coldLoad('ours', store));
    theirs.push(await coldLoad('sdk-v2', store));
    if (i === 0 && Math.max(ours[0]!.fromStart, theirs[0]!.fromStart) > longRunMs) runs = 1;
  }
  const mid = (sides: ColdSide[]): ColdSide => ({
    fromStart: median(sides.map((s) => s.fromStart)),
    imports: median(sides.map((s) => s.imports)),
    load: median(sides.map((s) => s.load)),
    loadCpu: median(sides.map((s) => s.loadCpu)),
  });
  return { store: store.kind, size: store.size.label, files: fileCount(store.size), runs: ours.length, ours: mid(ours), theirs: mid(theirs) };
}

/** The printed section; `warm(store, size)` is our warm build time from the build case, beside the cold one. */
export function coldStartSection(results: readonly ColdStartResult[], warm: (store: string, size: string) => number): string[] {
  return [
    '## Cold start',
    '',
    "The first load in a fresh process: a child process (plain `node`, no loader) imports the packages, opens the storage and loads the catalog, and reports the time since the process started (`performance.now()`, from its time origin) and since just before the load. Ours: `SkillCatalog.load` from `@skillmount/core/catalog` (the catalog without the MCP SDK, as the SDK v2 side imports its skills module without a server), its listing threads started inside the load for a folder. SDK v2: `loadSkills(dir)` for the folder, `SkillsExtension.load` for S3 and PostgreSQL, as in the build case. The operating system's file cache and the storage servers are warm; the process is not. Our warm build (from the build case) beside it.",
    '',
    table(
      [
        'storage',
        'corpus',
        'runs',
        'ours: from start',
        'ours: imports',
        'ours: load',
        'SDK v2: from start',
        'SDK v2: imports',
        'SDK v2: load',
        'ratio (from start)',
        'ours: warm build',
      ],
      results.map((r) => [
        r.store,
        r.size,
        String(r.runs),
        ms(r.ours.fromStart),
        ms(r.ours.imports),
        ms(r.ours.load),
        ms(r.theirs.fromStart),
        ms(r.theirs.imports),
        ms(r.theirs.load),
        ratio(r.theirs.fromStart / r.ours.fromStart),
        Number.isNaN(warm(r.store, r.size)) ? '—' : ms(warm(r.store, r.size)),
      ]),
    ),
    '',
  ];
}
