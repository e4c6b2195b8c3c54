/** The benchmark's command line: the mode, the cases to run, and where to write the results. */
import type { Mode } from './plan.js';

/** Every case of a run, in the order a run measures them. */
export const CASES = ['build', 'cold-start', 'reload', 'memory', 'http', 'modern', 'attach', 'replicas', 'tenants', 'visible'] as const;
export type CaseName = (typeof CASES)[number];

export interface BenchArgs {
  mode: Mode;
  /** The cases asked for with `--only` (every case when none was). */
  cases: ReadonlySet<CaseName>;
  /** True when `--only` narrowed the run. */
  narrowed: boolean;
  /** `--out FILE`: the printed tables are also written there. */
  out?: string;
  /** `--charts DIR`: the SVG charts are written there. */
  charts?: string;
  help: boolean;
}

export const USAGE = `Usage: pnpm bench -- [--quick | --smoke] [--only CASE[,CASE…]]… [--out FILE] [--charts DIR]
       node --import tsx bench/run.ts [the same options]

Measures skillmount against the official SDK v2 (@modelcontextprotocol/server) in one run and
prints Markdown tables.

  (no mode)        every case at every size (about 35 minutes on 2 cores)
  --quick          the small sizes, fewer runs (under two minutes); its Ratios section is the
                   figure to compare from one change, machine or load to the next
  --smoke          the smallest size, one run of each case: checks that it all works
  --only CASE      run only this case; repeat it, or give several separated by commas
                   cases: ${CASES.join(', ')}
  --out FILE       also write the printed tables to FILE (BENCHMARKS.md holds a default run)
  --charts DIR     write SVG charts of the run's figures to DIR (bench/charts holds the committed
                   ones): build time against files per storage, reads/s against requests in
                   flight, peak RSS against files; a chart whose case did not run is not written
  --help           print this text

Needs built packages (pnpm bench builds first when a package's sources are newer than its dist)
and PostgreSQL (DATABASE_URL, else an embedded one is started) for the cases that use it; the
loopback S3-protocol server is started when a case needs it.`;

/** Thrown for a command line the benchmark cannot run: the message says what was wrong and what to do. */
export class ArgsError extends Error {}

const flagValue = (argv: readonly string[], i: number, flag: string): string => {
  const value = argv[i + 1];
  if (value === undefined || value.startsWith('--')) throw new ArgsError(`bench: ${flag} needs a value; see --help`);
  return value;
};

/** The run `argv` asks for (`--` from `pnpm bench -- …` is skipped). Throws ArgsError on an unknown option or case. */
export function parseArgs(argv: readonly string[]): BenchArgs {
  let mode: Mode = 'default';
  const only: CaseName[] = [];
  let out: string | undefined;
  let charts: string | undefined;
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') continue;
    if (arg === '--help' || arg === '-h') help = true;
    else if (arg === '--quick' || arg === '--smoke') {
      const asked = arg === '--quick' ? 'quick' : 'smoke';
      if (mode !== 'default' && mode !== asked) throw new ArgsError('bench: --quick and --smoke are two different runs; give one of them');
      mode = asked;
    } else if (arg === '--only') only.push(...caseNames(flagValue(argv, i++, '--only')));
    else if (arg.startsWith('--only=')) only.push(...caseNames(arg.slice('--only='.length)));
    else if (arg === '--out') out = flagValue(argv, i++, '--out');
    else if (arg === '--charts') charts = flagValue(argv, i++, '--charts');
    else throw new ArgsError(`bench: unknown option "${arg}"; see --help for the options`);
  }
  return { mode, cases: new Set(only.length > 0 ? only : CASES), narrowed: only.length > 0, out, charts, help };
}

function caseNames(list: string): CaseName[] {
  const names = list
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length === 0) throw new ArgsError(`bench: --only needs a case name; the cases are: ${CASES.join(', ')}`);
  for (const name of names)
    if (!(CASES as readonly string[]).includes(name)) throw new ArgsError(`bench: --only: unknown case "${name}"; the cases are: ${CASES.join(', ')}`);
  return names as CaseName[];
}
