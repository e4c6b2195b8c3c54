import type { HiddenReport } from '../text/visible.js';
import type { SkillSignatureResult } from '../trust/verify.js';
import type { SkillEntry, SkillResource, SkillResourceListing, SkillWarning } from '../types.js';

/**
 * What a catalog keeps of a SKILL.md: its parsed frontmatter (and, when the file holds invisible
 * or direction-changing characters, where: see text/visible.ts), or why it could not be parsed.
 * `frontmatterDigest` is the digest of its frontmatter block as a signature covers it
 * (trust/subjects.ts), so a signature check tells a changed frontmatter from a changed body
 * without reading the file again.
 */
export type ParsedSkillMd =
  | { ok: true; frontmatter: Record<string, unknown>; portability: string[]; hidden?: HiddenReport; frontmatterDigest: string }
  | { ok: false; code: 'frontmatter' | 'limit'; error: string };

/**
 * One file as a catalog knows it: made when the file is read (or vouched for, or found unchanged)
 * and then shared by the file index, the folder listings, every entry that lists the file and the
 * next reload.
 */
export interface FileRecord {
  /** Storage path, relative, `/`-separated. */
  path: string;
  /** What entries publish for it (frozen once published): the same object in every entry that lists the file. */
  resource: SkillResource;
  /** The storage's change token when it was read: the next reload reuses the record while it holds. */
  token?: string;
}

/** A folder inside a served skill, as a child of its parent folder. */
export interface FolderRecord {
  uri: string;
  name: string;
}

/** A child of a folder: a file (its record) or a subfolder. */
export type DirectoryItem = FileRecord | FolderRecord;

/** The URI of a folder's child. */
export const itemUri = (item: DirectoryItem): string => ('resource' in item ? item.resource.uri : item.uri);

/** A whole-tree listing, less the files a snapshot holds records of. */
export interface ListedState {
  /** Items in the listing. */
  count: number;
  /** Kind of every other item (folders, unsupported entries, files outside any skill), by path. */
  others: ReadonlyMap<string, string>;
}

/**
 * What a snapshot keeps only so that the next reload can skip work; nothing here is served. (Each
 * file's change token stays on its `FileRecord`: a second map of one entry per file would cost
 * more memory than the field.)
 */
export interface ReloadMemory {
  /** Parsed frontmatter of every SKILL.md read, by storage path: reused while its record is. */
  skillMds: ReadonlyMap<string, ParsedSkillMd>;
  /** Records of files read for skills that were skipped (so not in `files`), by storage path. */
  unserved: ReadonlyMap<string, FileRecord>;
  /** The storage's tree token read before the listing this snapshot was built from (see `SkillFiles.treeToken`). */
  treeToken?: string;
  /** What the walk saw (see `fingerprintOf`); a reload whose walk matches it keeps this snapshot. */
  fingerprint?: string;
  /** For a storage that lists in one call (`listAll`): what else its listing held, so a reload can compare listings directly. */
  listed?: ListedState;
  /** With the `trust` option: each skill's signature result. */
  signatures?: SignatureMemory;
}

/**
 * With the `trust` option: each skill's last signature result, by SKILL.md path, and what it was
 * computed from (the skill digest and the signature's digest), so a reload verifies only what changed.
 */
export type SignatureMemory = ReadonlyMap<string, { from: string; result: SkillSignatureResult }>;

/** An immutable, fully validated catalog state. A reload builds a new one and swaps it in. */
export interface CatalogSnapshot {
  /** Sorted by URI, deep-frozen: exactly what clients receive. */
  entries: readonly SkillEntry[];
  /**
   * By storage path (of the SKILL.md, the file, the folder): a URI is looked up by its decoded
   * segments, less the catalog's prefix, joined with `/`, so every spelling of it finds the same.
   */
  skills: ReadonlyMap<string, SkillEntry>;
  /**
   * The entries by frontmatter name, each list in list order: what the read tool and the prompts
   * look a name up in (catalog/names.ts) instead of walking every page.
   */
  names: ReadonlyMap<string, readonly SkillEntry[]>;
  files: ReadonlyMap<string, FileRecord>;
  /**
   * Children of every directory inside a served skill, sorted by URI: the file records themselves,
   * so a catalog holds one object per file (the `DirectoryChild` of a page is made when asked for).
   */
  directories: ReadonlyMap<string, readonly DirectoryItem[]>;
  resourceListing: readonly SkillResourceListing[];
  warnings: readonly SkillWarning[];
  /** Number of file bodies read from storage to build this snapshot. */
  bodiesRead: number;
  /** Kept for the next reload only. */
  reload: ReloadMemory;
}
