import type { DirectoryChild, SkillEntry, SkillResourceListing, SkillWarning } from '../types.js';
import type { FrontmatterResult } from '../skillmd/parse.js';

/** One servable file. */
export interface FileRecord {
  /** Storage path, relative, `/`-separated. */
  path: string;
  uri: string;
  size: number;
  digest: string;
  mimeType: string;
  token?: string;
}

/** What a storage file looked like at load time, for reuse by the next reload. */
export interface ReadRecord {
  size: number;
  digest: string;
  token?: string;
  /** Set for SKILL.md files. */
  frontmatter?: FrontmatterResult;
}

/** An immutable, fully validated catalog state. A reload builds a new one and swaps it in. */
export interface CatalogSnapshot {
  /** Sorted by URI, deep-frozen: exactly what clients receive. */
  entries: readonly SkillEntry[];
  /** By URI key (decoded segments joined with `/`). */
  skills: ReadonlyMap<string, SkillEntry>;
  files: ReadonlyMap<string, FileRecord>;
  /** Children of every directory inside a served skill, sorted by name. */
  directories: ReadonlyMap<string, readonly DirectoryChild[]>;
  resourceListing: readonly SkillResourceListing[];
  /** By storage path. */
  reads: ReadonlyMap<string, ReadRecord>;
  warnings: readonly SkillWarning[];
  /** Number of file bodies read from storage to build this snapshot. */
  bodiesRead: number;
}
