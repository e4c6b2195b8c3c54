import type { SkillFiles } from '@skillmount/core';
import type { CorpusFile, CorpusSize } from '../corpus.js';
import type { StorageSpec } from '../http/types.js';

/** One corpus held in one kind of storage. */
export interface SeededStore {
  /** `folder`, `S3` or `PostgreSQL`. */
  readonly kind: string;
  readonly size: CorpusSize;
  readonly files: readonly CorpusFile[];
  /** A fresh adapter over the corpus: the one both catalogs are handed. */
  adapter(): SkillFiles;
  /** True when the adapter's listing reads the files it lists digests for (a folder hashes them). */
  readonly listingReadsBodies?: boolean;
  /** Where the folder is, for the folder store (`loadSkills(dir)` on the SDK v2 side). */
  readonly dir?: string;
  /** How a child process (a server over HTTP, a cold start) opens the same corpus. */
  readonly served?: StorageSpec;
  /** How the `skillmount` command line names it (S3 and PostgreSQL): for `serve` and `publish`. */
  readonly cli?: CliLocation;
  /** Rewrite these files with the bytes of `version`. */
  rewrite(files: readonly CorpusFile[], version: number): Promise<void>;
  /**
   * Resolves once what was written last is old enough for the storage to trust its change tokens
   * (a folder reads again any file changed less than 3 s before a listing); absent when it trusts them at once.
   */
  settled?(): Promise<void>;
  /** Release the adapter's resources (a client, a pool); no-op for a folder. */
  release(adapter: SkillFiles): Promise<void>;
  /** Delete the corpus. */
  remove(): Promise<void>;
}

/** A location for `skillmount serve` / `publish`, the options it needs and the environment to run them in. */
export interface CliLocation {
  location: string;
  args: readonly string[];
  env: Readonly<Record<string, string>>;
}

/** A store kind that can hold corpora: started once per run, then seeded per size. */
export interface StoreKind {
  readonly kind: string;
  /** PostgreSQL: the server the corpora's table is on (for cases that make tables of their own). */
  readonly connectionString?: string;
  seed(size: CorpusSize, files: readonly CorpusFile[]): Promise<SeededStore>;
  stop(): Promise<void>;
}
