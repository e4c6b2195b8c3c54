import { size, type CorpusSize } from './corpus.js';
import type { UsersCorpus } from './users-corpus.js';

export type Mode = 'smoke' | 'quick' | 'default';

/** What one run measures, by size. */
export interface Plan {
  mode: Mode;
  /** Timed runs per case (the median is printed) for a corpus of this many files. */
  runsFor(files: number): number;
  /** A case whose single run takes longer than this many ms drops to 3 runs. */
  longRunMs: number;
  /** Catalog builds from a folder. */
  build: CorpusSize[];
  /** Catalog builds from S3 and from PostgreSQL, when a size differs (see `quick`). */
  buildS3: CorpusSize[];
  buildPostgres: CorpusSize[];
  /** The wide corpora among the builds (many skills of 2 files): charted apart from the others. */
  wide: CorpusSize[];
  /** Fresh processes per side for each cold start (one build size, one storage); 1 once a single load takes over `longRunMs`. */
  coldRuns: number;
  /** Reloads (one of the build sizes). */
  reload: CorpusSize;
  reloadS3: CorpusSize;
  /** Timed reloads per side and kind of reload. */
  reloadRuns: number;
  /** Memory of a loaded catalog, one child process per implementation and size; the last size gets the full table. */
  memory: CorpusSize[];
  /** Fresh processes per side for the memory case (medians). */
  memoryRuns: number;
  /** The corpus served over HTTP. */
  http: CorpusSize;
  /** Timed runs per server over HTTP. */
  httpRuns: number;
  /** Requests in flight of the verified-read sweep on the folder (1 and 8 among them: the main table's columns). */
  httpInFlight: number[];
  /** New servers timed per side in the per-request setup case. */
  attachRuns: number;
  /** The corpus the `skillmount serve` replicas share (on PostgreSQL, then S3). */
  replicas: CorpusSize;
  /** Timed read passes per replica count, and publishes timed until every replica follows. */
  replicaPasses: number;
  replicaPublishes: number;
  /** Tenant counts of the many-tenants case, each tenant holding `tenantSize`. */
  tenants: number[];
  tenantSize: CorpusSize;
  /** One catalog with `visible()` against a tenant per user: the users and their skills, and timed passes per side. */
  visible: { corpus: UsersCorpus; runs: number };
  /** One untimed run of each side before a build case is timed (corpora up to 5 000 files: larger runs warm up on their own). */
  warmUp: boolean;
}

const SMALL = size(100, 5, 2);
const MEDIUM = size(1000, 10, 4);
const LARGE = size(2000, 20, 8);
/** Many small skills: beside the sizes above, it tells a cost per skill from a cost per file. */
const WIDE = size(10_000, 2, 1);
const TENANT = size(5, 3, 1);
/** 1000 users, each seeing 5 skills of 3 files of 1 KiB (3 of their own, 2 shared): per user, the tenant corpus above. */
const USERS: UsersCorpus = { users: 1000, ownSkills: 3, sharedSkills: 2, filesPerSkill: 3, kib: 1 };
const QUICK_HTTP = size(50, 4, 2);
const QUICK_WIDE = size(1000, 2, 1);

export function planFor(mode: Mode): Plan {
  if (mode === 'smoke') {
    const tiny = size(10, 3, 1);
    const tinyWide = size(20, 2, 1);
    return {
      mode,
      runsFor: () => 1,
      longRunMs: Infinity,
      // A second folder corpus of another shape, so the per-skill and per-file fit runs too.
      build: [tiny, tinyWide],
      buildS3: [tiny],
      buildPostgres: [tiny],
      wide: [tinyWide],
      coldRuns: 1,
      reload: tiny,
      reloadS3: tiny,
      reloadRuns: 1,
      memory: [tiny],
      memoryRuns: 1,
      http: tiny,
      httpRuns: 1,
      httpInFlight: [1, 8],
      attachRuns: 100,
      replicas: tiny,
      replicaPasses: 1,
      replicaPublishes: 1,
      tenants: [10],
      tenantSize: TENANT,
      visible: { corpus: { ...USERS, users: 20 }, runs: 1 },
      warmUp: false,
    };
  }
  if (mode === 'quick') {
    // Under two minutes on a quiet 2-core machine, set-up included: builds and cold starts at the
    // small size only (the SDK v2 reads the loopback S3 server at about 2.5 ms a file) and a wide
    // folder corpus of 1000 skills of 2 files for the per-skill fit, one timed run of each reload
    // and HTTP server (three of the servers on PostgreSQL; 1, 4, 8 and 16 in flight on the
    // folder), memory at the small size,
    // fewer new servers in the per-request setup case, the replicas on the HTTP corpus, 10 and 100
    // tenants, one timed pass of each side of the visibility case. The default run measures all of it properly.
    return {
      mode,
      runsFor: (files) => (files > 5_000 ? 1 : 3),
      longRunMs: 8_000,
      build: [SMALL, QUICK_WIDE],
      buildS3: [SMALL],
      buildPostgres: [SMALL],
      wide: [QUICK_WIDE],
      coldRuns: 1,
      reload: SMALL,
      reloadS3: SMALL,
      reloadRuns: 1,
      memory: [SMALL],
      memoryRuns: 1,
      http: QUICK_HTTP,
      httpRuns: 1,
      httpInFlight: [1, 4, 8, 16],
      attachRuns: 500,
      replicas: QUICK_HTTP,
      replicaPasses: 1,
      replicaPublishes: 1,
      tenants: [10, 100],
      tenantSize: TENANT,
      visible: { corpus: USERS, runs: 1 },
      warmUp: false,
    };
  }
  return {
    mode,
    runsFor: () => 5,
    longRunMs: 15_000,
    // The wide corpus on every storage. On S3 the SDK v2 reads its 20,000 files one at a time: at
    // the 0.8 ms a file it took on the other corpora, about 16 s a build, so 3 runs and one cold
    // start, about a minute in all; worth it for the per-skill cost there.
    build: [SMALL, MEDIUM, LARGE, WIDE],
    buildS3: [SMALL, MEDIUM, LARGE, WIDE],
    buildPostgres: [SMALL, MEDIUM, LARGE, WIDE],
    wide: [WIDE],
    coldRuns: 3,
    reload: LARGE,
    reloadS3: MEDIUM,
    reloadRuns: 5,
    // Peak RSS against files for the chart; the target is set at the largest.
    memory: [SMALL, MEDIUM, LARGE],
    memoryRuns: 3,
    http: size(100, 10, 4),
    httpRuns: 5,
    // The agent of the bench client keeps at most 16 sockets: more in flight would queue in it.
    httpInFlight: [1, 2, 4, 8, 16],
    attachRuns: 2000,
    replicas: MEDIUM,
    replicaPasses: 3,
    replicaPublishes: 3,
    tenants: [10, 100, 1000],
    tenantSize: TENANT,
    visible: { corpus: USERS, runs: 5 },
    warmUp: true,
  };
}

export function parseMode(argv: readonly string[]): Mode {
  if (argv.includes('--smoke')) return 'smoke';
  if (argv.includes('--quick')) return 'quick';
  return 'default';
}
