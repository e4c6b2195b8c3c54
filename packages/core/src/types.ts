/**
 * Public types of @skillmount/core. Everything a user names in their own code is declared here.
 */
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';

// ---------------------------------------------------------------------------
// Storage

/** What a storage reports for one directory entry. */
export type SkillFileKind = 'file' | 'directory' | 'unsupported';

export interface SkillFileEntry {
  /** One path segment: never empty, never contains `/`. */
  name: string;
  kind: SkillFileKind;
  /**
   * Optional cheap change token (size + mtime, an ETag, a stored hash). When a storage reports
   * tokens, a reload re-reads only the files whose token changed.
   */
  token?: string;
  /**
   * Optional, files only: the size and `sha256:<hex>` digest of the content, vouched for by the
   * storage (for example computed by the database from the stored bytes). A catalog then skips
   * reading the body at load time (SKILL.md is still read for its frontmatter); every read is
   * still checked against them before it is served.
   */
  size?: number;
  digest?: string;
  /**
   * Optional, files only: the exact bytes, when the storage had them at hand while listing (a
   * SKILL.md read in the same pass or query). A catalog uses them as it would a `read`: hashed,
   * checked, and not kept.
   */
  content?: Uint8Array;
}

/** One entry of a whole-tree listing: a path relative to the root, `/`-separated. */
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
   * The change token the caller holds for a file from an earlier listing, or undefined. A storage
   * may leave out `size`, `digest` and `content` of a file whose token is the same: the caller
   * already has them.
   */
  known?(path: string): string | undefined;
}

/** What a catalog tells `read` about the file it expects. */
export interface SkillFileReadOptions {
  /**
   * The largest file the caller accepts, in bytes: the size the file was listed or published with.
   * A storage reads at most `maxBytes + 1` bytes and throws a `StorageError` naming the path, the
   * limit and the size it saw, with `code: 'too-large'`, when the file is larger (it was replaced
   * since it was listed), so a giant replacement is never read whole. A storage may ignore it: the caller still checks the
   * size and digest of what it gets.
   */
  maxBytes?: number;
}

/**
 * The two-method storage interface. Paths are relative, `/`-separated, with `''` as the root.
 * `list` returns the direct children of a directory; `read` returns a file's exact bytes.
 */
export interface SkillFiles {
  list(dir: string): Promise<SkillFileEntry[]>;
  read(path: string, options?: SkillFileReadOptions): Promise<Uint8Array>;
  /**
   * Optional: every entry below the root in one call (an S3 prefix listed flat, one SQL query).
   * When present, a catalog load calls it once instead of `list` per folder. Folders implied by
   * file paths may be left out.
   */
  listAll?(options?: ListAllOptions): Promise<SkillFileListing[]>;
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
  /** Optional: subscribe to changes; returns a function that stops watching. */
  watch?(onChange: () => void): () => void;
  /** Optional: release what the storage owns (connections, watchers). */
  close?(): Promise<void>;
}

// ---------------------------------------------------------------------------
// Wire data (SEP-2640)

export interface SkillFrontmatter {
  name: string;
  description: string;
  [field: string]: unknown;
}

export interface SkillResource {
  uri: string;
  /** `sha256:` followed by 64 lowercase hex digits. */
  digest: string;
  size: number;
}

/** A skill entry exactly as it travels in `skills/list` and `skills/get`. */
export interface SkillEntry {
  uri: string;
  frontmatter: SkillFrontmatter;
  resources: SkillResource[] | 'dynamic';
}

export type CacheScope = 'public' | 'private';

/** Freshness hints sent with every result (`ttlMs`, `cacheScope`). */
export interface CacheHint {
  ttlMs: number;
  cacheScope: CacheScope;
}

/** One child in a `resources/directory/read` result. */
export interface DirectoryChild {
  uri: string;
  name: string;
  mimeType: string;
  size?: number;
}

/** One SKILL.md as listed in `resources/list`. */
export interface SkillResourceListing {
  uri: string;
  name: string;
  description?: string;
  mimeType: string;
  size?: number;
}

// ---------------------------------------------------------------------------
// Sources

/**
 * Per-request context, built from the MCP request and what the HTTP adapter adds.
 * `auth` and `headers` come from the transport; every other key is the app's own,
 * from the adapter's `context(request)` option.
 */
export interface SkillContext {
  /** The SDK's `AuthInfo`, as the app's auth middleware put it on `req.auth`. */
  auth?: AuthInfo;
  /** Request headers, lower-cased. Empty outside HTTP. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** MCP session id on a session (stateful) endpoint. */
  sessionId?: string;
  /** Aborted when the request is cancelled or its connection closes. */
  signal?: AbortSignal;
  [key: string]: unknown;
}

export interface ListSkillsParams {
  cursor?: string;
}

export interface ListSkillsPage {
  skills: SkillEntry[];
  nextCursor?: string;
}

export interface DirectoryPage {
  resources: DirectoryChild[];
  nextCursor?: string;
}

/** The bytes of one file, with what the source published for it. */
export interface SkillFileContent {
  uri: string;
  bytes: Uint8Array;
  mimeType?: string;
  /**
   * What the entry published for this file. When given, every read is checked against it
   * and refused (`-32603`) if the bytes differ. `'dynamic'` skips the check.
   */
  published?: { size: number; digest: string } | 'dynamic';
}

/**
 * Anything that can answer the skills methods. `SkillCatalog` is one; apps may write their own
 * for generated, per-user or `"dynamic"` skills. Throw `SkillNotFoundError` for unknown URIs.
 */
export interface SkillSource<C extends SkillContext = SkillContext> {
  list(params: ListSkillsParams, ctx: C): Promise<ListSkillsPage>;
  get(uri: string, ctx: C): Promise<SkillEntry>;
  read(uri: string, ctx: C): Promise<SkillFileContent>;
  readDirectory?(uri: string, params: ListSkillsParams, ctx: C): Promise<DirectoryPage>;
  /** SKILL.md files to add to `resources/list`. */
  listResources?(ctx: C): Promise<SkillResourceListing[]>;
  /** Cache hints for results; default `{ ttlMs: 0, cacheScope: 'private' }`. */
  cacheHint?(ctx: C): CacheHint;
  /** Servers that want `notifications/resources/list_changed` subscribe here. */
  /**
   * `ctx` is the context of the request that connected the server (its session's opening
   * request), so a per-tenant source can tell each session only about its own tenant.
   */
  onListChanged?(listener: () => void, ctx?: C): () => void;
  /** Where `attach` reports entries and reads it refused. Default: `console.warn`. */
  warn?(warning: SkillWarning): void;
}

// ---------------------------------------------------------------------------
// Catalog

export interface SkillWarning {
  /** A stable machine-readable code, e.g. `frontmatter`, `name-mismatch`, `unsupported`. */
  code: string;
  message: string;
  /** Storage path the warning is about, when there is one. */
  path?: string;
  /** Skill or file URI the warning is about, when there is one. */
  uri?: string;
}

export interface SkillLimits {
  /** Files per skill, SKILL.md included. Default 512. */
  files: number;
  /** Sum of file sizes per skill, in bytes. Default 16 MiB. */
  bytes: number;
}

export interface CatalogOptions {
  /** Organisational prefix, e.g. `acme` or `acme/billing`, placed before every skill path. */
  prefix?: string;
  /** Skills per `skills/list` page: a positive integer or `Infinity`. Default 100. */
  pageSize?: number;
  /** Per-skill limits; a skill over a limit is skipped with a warning. */
  limits?: Partial<SkillLimits>;
  /** Throw one `CatalogError` listing every problem instead of skipping with warnings. */
  strict?: boolean;
  /** Called for every skipped skill, ignored file and refused read. Default: `console.warn`. */
  onWarning?: (warning: SkillWarning) => void;
  /** `ttlMs` and `cacheScope` sent with results. Default `{ ttlMs: 0, cacheScope: 'private' }`. */
  cacheHint?: Partial<CacheHint>;
  /** Storage reads in flight during a load. Default 32. */
  concurrency?: number;
  /**
   * Longest wait for one storage call (list, read) before it fails: a load or reload then fails
   * and keeps the old catalog, a `resources/read` gets `-32603`. Default 30000; `Infinity` for none.
   */
  timeoutMs?: number;
  /**
   * Bytes of verified file content kept in memory, by digest, so hot `resources/read` calls do not
   * go back to storage. Bytes are checked against the published size and digest once, when they
   * enter the cache, and encoded for the wire then (the cache counts both); reads of a cached
   * file share those bytes, with no copy per request, so treat bytes from `read()` as read-only.
   * A file larger than an eighth of the cache is never kept. A file changed in storage
   * without a `reload()` is then still served as published while it is cached, and refused once
   * it is not. Default 64 MiB (67108864); 0 (off) for storages that hold their bytes in memory
   * already (`inMemory`, as `memoryStorage`).
   */
  cacheBytes?: number;
}

export interface ReloadReport {
  /** SKILL.md URIs of skills that appeared. */
  added: string[];
  /** SKILL.md URIs of skills that are gone. */
  removed: string[];
  /** SKILL.md URIs of skills whose entry changed (files, digests or frontmatter). */
  changed: string[];
  /** True when any of the above is non-empty; `list_changed` was then sent. */
  listChanged: boolean;
}
