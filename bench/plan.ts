import { size, type CorpusSize } from './corpus.js';

export type Mode = 'smoke' | 'quick' | 'default';

/** What one run measures, by size. */
export interface Plan {
  mode: Mode;
  /** Timed runs per case (the median is printed) for a corpus of this many files. */
  runsFor(files: number): number;
  /** A case whose single run takes longer than this many ms drops to 3 runs. */
  longRunMs: number;
  /** Catalog builds, from each storage. */
  build: CorpusSize[];
  /** Catalog builds from S3, when a size differs (see `quick`). */
  buildS3: CorpusSize[];
  /** Reloads (one of the build sizes). */
  reload: CorpusSize;
  reloadS3: CorpusSize;
  /** Memory of a loaded catalog, one child process per implementation. */
  memory: CorpusSize;
  /** Fresh processes per side for the memory case (medians). */
  memoryRuns: number;
  /** The corpus served over HTTP. */
  http: CorpusSize;
  /** One untimed run of each side before a build case is timed (corpora up to 5 000 files: larger runs warm up on their own). */
  warmUp: boolean;
}

const SMALL = size(100, 5, 2);
const MEDIUM = size(1000, 10, 4);
const LARGE = size(2000, 20, 8);

export function planFor(mode: Mode): Plan {
  if (mode === 'smoke') {
    const tiny = size(10, 3, 1);
    return {
      mode,
      runsFor: () => 1,
      longRunMs: Infinity,
      build: [tiny],
      buildS3: [tiny],
      reload: tiny,
      reloadS3: tiny,
      memory: tiny,
      memoryRuns: 1,
      http: tiny,
      warmUp: false,
    };
  }
  if (mode === 'quick') {
    // About two minutes on a quiet 2-core machine: one run at 1000×10×4 KiB (a single SDK v2 build
    // there takes 4–10 s), no warm-up runs, reloads at the small size, S3 at the small size only
    // (the SDK v2 reads the loopback S3 server at about 2.5 ms a file), a small HTTP corpus. The
    // default run measures all of it properly.
    return {
      mode,
      runsFor: (files) => (files > 5_000 ? 1 : 3),
      longRunMs: 8_000,
      build: [SMALL, MEDIUM],
      buildS3: [SMALL],
      reload: SMALL,
      reloadS3: SMALL,
      memory: MEDIUM,
      memoryRuns: 1,
      http: size(50, 4, 2),
      warmUp: false,
    };
  }
  return {
    mode,
    runsFor: () => 5,
    longRunMs: 15_000,
    build: [SMALL, MEDIUM, LARGE],
    buildS3: [SMALL, MEDIUM, LARGE],
    reload: LARGE,
    reloadS3: MEDIUM,
    memory: LARGE,
    memoryRuns: 3,
    http: size(100, 10, 4),
    warmUp: true,
  };
}

export function parseMode(argv: readonly string[]): Mode {
  if (argv.includes('--smoke')) return 'smoke';
  if (argv.includes('--quick')) return 'quick';
  return 'default';
}
