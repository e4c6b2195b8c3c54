/**
 * The storage contract: what a catalog asks of a storage, and what it relies on. `list` and
 * `read` are all a storage must have; every other member is optional and feature-detected. The
 * rules for paths and for which files a catalog reads are in `paths.ts` and `skill-folders.ts`.
 */

/** What a storage reports for one directory entry. */
export type SkillFileKind = 'file' | 'directory' | 'unsupported';

/**
 * One child of a folder, as `list` returns it. `unsupported` is anything that is neither a
 * regular file nor a folder, or whose name cannot be a relative path (a symlink, a special file,
 * an S3 key with `//`): a catalog never reads it, and warns about it inside a skill.
 */
export interface SkillFileEntry {
  /** One path segment: never empty, never `.` or `..`, never contains `/`. */
  name: string;
  kind: SkillFileKind;
  /**
   * Optional, files: a cheap change token (size + mtime, an ETag, a stored hash), opaque to the
   * caller. It must change whenever the file's bytes change, even to other bytes of the same
   * size; the same token means the same bytes. With tokens, a reload reads only the files whose
   * token changed. `list` and `listAll` of one storage give the same token for the same file.
   */
  token?: string;
  /**
   * Optional, files: the size and the `sha256:<64 lowercase hex>` digest of the bytes `read`
   * returns, vouched for by the storage (computed by the database from the stored bytes, recorded
   * in a manifest). A size alone bounds the catalog's read of the file (`maxBytes`); a digest comes
   * with its size, and then a catalog skips reading the body at load time (a SKILL.md is still
   * read, or taken from `content`, for its frontmatter). Every read is still checked against them
   * before it is served, so a wrong digest makes the file unservable, never served wrong.
   */
  size?: number;
  digest?: string;
  /**
   * Optional, files: the exact bytes `read` would return, when the storage had them at hand while
   * listing (a SKILL.md read in the same pass or query). A catalog uses them as it would a
   * `read`: hashed, checked, and not kept.
   */
  content?: Uint8Array;
}

/**
 * One entry of a whole-tree listing (`listAll`): a path relative to the root, `/`-separated, and
 * the same optional `token`, `size`, `digest` and `content` as a `SkillFileEntry`, with the same
 * rules.
 */
export interface SkillFileListing {
  path: string;
  kind: SkillFileKind;
  token?: string;
  size?: number;
  digest?: string;
  content?: Uint8Array;
}

/** What a catalog tells `listAll` when it lists again for a reload. */
export interface ListAllOptions {
  /**
   * The change token the caller holds for a file from an earlier listing, or undefined. For a
   * file whose listed token equals `known(path)`, a storage may leave out `size`, `digest` and
   * `content`: the caller already has them. Every other file is listed as it would be without
   * `known`. Every file is listed either way, with its token when it has one.
   */
  known?(path: string): string | undefined;
}

/** What a catalog tells `read` about the file it expects. */
export interface SkillFileReadOptions {
  /**
   * The largest file the caller accepts, in bytes: the size the file was listed or published with.
   * A storage reads at most `maxBytes + 1` bytes and throws a `StorageError` naming the path, the
   * limit and the size it saw, with `code: 'too-large'`, when the file is larger (it was replaced
   * since it was listed), so a giant replacement is never read whole. A storage may ignore it: the
   * caller still checks the size and digest of what it gets.
   */
  maxBytes?: number;
}

/**
 * The storage interface. Paths are relative to the storage root, `/`-separated, with `''` as the
 * root; a path with an empty, `.` or `..` segment, a backslash or NUL is refused with a
 * `StorageError` (see `plainPathProblem`), never resolved. Failures throw a `StorageError` that
 * names the path (see `storageError`).
 *
 * - `list(dir)`: the direct children of folder `dir`. A folder that does not exist throws.
 * - `read(path)`: the file's exact bytes. A file that does not exist throws.
 *
 * The rest is optional; a catalog uses what is there:
 *
 * - `listAll()`: the whole tree in one call, instead of `list` per folder.
 * - `listAllBatches()`: the same listing in batches as they are found, so a first load holds less.
 * - `treeToken()`: tells a reload that nothing changed, before any listing.
 * - per-entry `token`, `size` + `digest`, `content`: spare a reload, a body read, a round trip.
 * - `inMemory`, `watch`, `close`: see each.
 */
export interface SkillFiles {
  list(dir: string): Promise<SkillFileEntry[]>;
  read(path: string, options?: SkillFileReadOptions): Promise<Uint8Array>;
  /**
   * Optional: every entry below the root in one call (an S3 prefix listed flat, one SQL query, a
   * folder walked in worker threads). When present, a catalog load calls it once instead of
   * `list` per folder, so it must agree with `list` and `read`: the same files with the same
   * kinds, and any `size`, `digest` or `content` given is that of the bytes `read` returns. It
   * may leave out folders that file paths imply, and anything below a hidden folder (a name
   * starting with ".", which a catalog never serves). See `ListAllOptions.known` for what a reload
   * may leave out.
   */
  listAll?(options?: ListAllOptions): Promise<SkillFileListing[]>;
  /**
   * Optional: the listing `listAll` gives, in batches as the storage finds them (a folder walked in
   * worker threads, pages of a flat listing). The items of every batch, in order, are exactly what
   * `listAll` would return, by the same rules. A first load takes it in place of `listAll` and
   * builds its tree as the batches arrive, instead of holding the whole listing beside it; a reload
   * calls `listAll` (it compares listings whole), or collects the batches when there is no
   * `listAll`. A load builds nothing until the last batch: a failure (the iteration throws, a
   * `StorageError` naming the path) fails the load whole, and the catalog then stops iterating.
   */
  listAllBatches?(options?: ListAllOptions): AsyncIterable<readonly SkillFileListing[]>;
  /**
   * Optional: a change token for the whole tree, as cheap as the storage can make it (a generation
   * counter its writes bump, a manifest's ETag, a count of watcher events). A reload asks for it
   * before it lists and, when it equals the token the previous successful build was made with,
   * keeps that build and lists nothing. So it must change after every change to what `list`,
   * `listAll` or `read` would return; the same token means nothing changed. Resolve `undefined`
   * when the storage cannot tell right now: the reload then lists as it would without it.
   */
  treeToken?(): Promise<string | undefined>;
  /**
   * Optional: true when the storage holds every file's bytes in memory already (`memoryStorage`).
   * A catalog then keeps no second copy unless `cacheBytes` asks for one.
   */
  readonly inMemory?: boolean;
  /**
   * Optional: where the files are, for messages (a folder path, an `s3://bucket/prefix` URL);
   * never a secret. The "no skills found" warning names it.
   */
  readonly label?: string;
  /**
   * Optional: what kind of storage this is, for telemetry (`fs`, `s3`, `postgres`, `memory`; a
   * short fixed word, never where the files are). Storages that give none are `custom`.
   */
  readonly kind?: string;
  /**
   * Optional: call `onChange` (with no arguments, possibly more than once per change, debounced as
   * the storage sees fit) after the stored files change, so the catalog reloads; returns a
   * function that stops watching. A storage that cannot watch throws a `StorageError` here.
   */
  watch?(onChange: () => void): () => void;
  /**
   * Optional: release what the storage owns (connections it opened, pollers, watchers); never
   * what the caller passed in (a `pg.Pool`, an `S3Client`). Safe to call more than once.
   */
  close?(): Promise<void>;
}
