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
  /** How a server process opens the same corpus, for the stores served over HTTP. */
  readonly served?: StorageSpec;
  /** Rewrite these files with the bytes of `version`. */
  rewrite(files: readonly CorpusFile[], version: number): Promise<void>;
  /** Release the adapter's resources (a client, a pool); no-op for a folder. */
  release(adapter: SkillFiles): Promise<void>;
  /** Delete the corpus. */
  remove(): Promise<void>;
}

/** A store kind that can hold corpora: started once per run, then seeded per size. */
export interface StoreKind {
  readonly kind: string;
  seed(size: CorpusSize, files: readonly CorpusFile[]): Promise<SeededStore>;
  stop(): Promise<void>;
}
