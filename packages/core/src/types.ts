/**
 * Public types of @skillmount/core. Everything a user names in their own code is declared here.
 */
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { TrustedKey } from './trust/keys.js';
import type { SkillSignatureResult } from './trust/verify.js';

// ---------------------------------------------------------------------------
// Storage: the contract is documented once, with the storage kit that storages build on.

export type { ListAllOptions, SkillFileEntry, SkillFileKind, SkillFileListing, SkillFileReadOptions, SkillFiles } from './storage-kit/types.js';

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
  /**
   * Annotations under a reverse-domain prefix. A catalog with the `trust` option puts the state of
   * the skill's signature under `io.github.skillmount/signature` ({@link SkillSignatureMeta}).
   */
  _meta?: Record<string, unknown>;
}

/**
 * What a catalog with the `trust` option found of a served skill's signature, in its entry's
 * `_meta["io.github.skillmount/signature"]`: the verifier's result (`verified` with the trusted
 * key's name, `unsigned`, `invalid` with a code and detail, or `untrusted-key` with the key's hint).
 * A host that needs proof verifies the signature itself (`verifySkillListing`): this says what the
 * server checked, not that it is true.
 */
export type SkillSignatureMeta = SkillSignatureResult;

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

/** What the source published for a file, to check its bytes against before they are sent. */
export type PublishedFile = { size: number; digest: string } | 'dynamic';

/** The bytes of one file, with what the source published for it (what a `SkillCatalog` returns). */
export interface SkillFileContent {
  uri: string;
  bytes: Uint8Array;
  mimeType?: string;
  /**
   * What the entry published for this file. When given, every read is checked against it
   * and refused (`-32603`) if the bytes differ. `'dynamic'` skips the check.
   */
  published?: PublishedFile;
}

/** A file as text: sent as its UTF-8 encoding, which is what `published` is checked against. */
export interface SkillFileText {
  text: string;
  /** Default: the URI that was read. */
  uri?: string;
  mimeType?: string;
  published?: PublishedFile;
}

/** A file as bytes, without the `uri` a `SkillFileContent` carries (the URI that was read). */
export interface SkillFileBytes {
  bytes: Uint8Array;
  uri?: string;
  mimeType?: string;
  published?: PublishedFile;
}

/**
 * What `SkillSource.read` may return for a file it serves: the bytes themselves, `{ bytes }`
 * (a `SkillFileContent` is one) or `{ text }` (the SDK v2's `SkillReadResult` is either of these).
 */
export type SkillReadResult = Uint8Array | SkillFileBytes | SkillFileText;

/**
 * Per-request visibility: whether the request with `ctx` may see the skill `entry`. Asked on every
 * method of every surface (`skills/list`, `skills/get`, `resources/read` and
 * `resources/directory/read` of the skill's files, `resources/list`); a hidden skill gets exactly
 * the answer of one that does not exist. `true` shows the skill; anything else hides it.
 */
export type SkillVisibility<C extends SkillContext = SkillContext> = (entry: SkillEntry, ctx: C) => boolean | Promise<boolean>;

/**
 * Anything that can answer the skills methods. `SkillCatalog` is one; apps may write their own
 * for generated, per-user or `"dynamic"` skills. For a URI it does not serve, a method returns
 * `undefined` (or `null`), or throws `SkillNotFoundError`: the client gets `-32602` with
 * `data: { uri }`, the same answer a catalog gives. Whatever else a source returns that breaks
 * this contract is refused with `-32603` and reported through `onWarning`; see "Writing a
 * SkillSource" in the README.
 */
export interface SkillSource<C extends SkillContext = SkillContext> {
  /** One page; an entry that breaks the structural rules is dropped from it with a warning (the whole page fails under `strict`). */
  list(params: ListSkillsParams, ctx: C): Promise<ListSkillsPage>;
  /** The entry whose SKILL.md is at `uri`, listed or not; `undefined` when none is served. */
  get(uri: string, ctx: C): Promise<SkillEntry | undefined | null>;
  /** A file's content; `undefined` when no such file is served. */
  read(uri: string, ctx: C): Promise<SkillReadResult | undefined | null>;
  /** Direct children of a folder; `undefined` when no such folder is served. Having it declares `directoryRead`. */
  readDirectory?(uri: string, params: ListSkillsParams, ctx: C): Promise<DirectoryPage | undefined | null>;
  /** SKILL.md files to add to `resources/list`. */
  listResources?(ctx: C): Promise<SkillResourceListing[]>;
  /** Cache hints for results; default `{ ttlMs: 0, cacheScope: 'private' }`. */
  cacheHint?(ctx: C): CacheHint;
  /**
   * Whether the request may see a skill (see `SkillVisibility`): asked on every method, together
   * with the `visible` option of `attach` or an adapter when both are given.
   */
  visible?(entry: SkillEntry, ctx: C): boolean | Promise<boolean>;
  /**
   * The skills that match `query`, best first, one page (`limit`, `cursor`): what the `search_skills`
   * tool and `SkillsService.search` answer. `options.visible` says which skills the request may
   * see (the `visible` rules); rank only those, so a page and its cursor tell nothing of the others.
   * Throw a `SkillProtocolError` with code -32602 for a query or cursor it refuses. Without it, the
   * skills service ranks the source's listed skills itself, as `searchEntries` does.
   */
  search?(query: string, options: SkillSearchOptions, ctx: C): SkillSearchPage | Promise<SkillSearchPage>;
  /** Servers that want `notifications/resources/list_changed` subscribe here. */
  /**
   * `ctx` is the context of the request that connected the server (its session's opening
   * request), so a per-tenant source can tell each session only about its own tenant.
   */
  onListChanged?(listener: () => void, ctx?: C): () => void;
  /** Where `attach` reports entries and reads it refused. Default: `console.warn`. */
  warn?(warning: SkillWarning): void;
  /**
   * Every URI the source serves starts with this (`SkillCatalog` gives its `baseUri` option).
   * `attach` serves `resources/read` for URIs under it and registers its template there. Default `skill://`.
   */
  readonly baseUri?: string;
}

// ---------------------------------------------------------------------------
// The skills service: the skills methods as plain functions

/** `resultType` and the cache fields every skills result carries (the answering source's cache hint). */
export interface SkillsResultEnvelope extends CacheHint {
  resultType: 'complete';
  /** Results are JSON-RPC results: other fields may be added. */
  [field: string]: unknown;
}

export interface ListSkillsResult extends SkillsResultEnvelope {
  skills: SkillEntry[];
  nextCursor?: string;
}

export interface GetSkillResult extends SkillsResultEnvelope {
  skill: SkillEntry;
}

/** One file, verified against its published digest: UTF-8 text as `text`, anything else as base64 `blob`. */
export type SkillFileContents = { uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; blob: string };

export interface ReadSkillFileResult extends SkillsResultEnvelope {
  contents: SkillFileContents[];
}

export interface ReadDirectoryResult extends SkillsResultEnvelope {
  resources: DirectoryChild[];
  nextCursor?: string;
}

/**
 * The per-request fields a service call runs with, as an MCP request handler receives them (the
 * SDK's `RequestHandlerExtra` fits): auth, headers, session and the signal that cancels it. The
 * app's own fields come from the adapter's `context` option (or `runWithSkillContext`) as for
 * every skills request.
 */
export interface SkillsCallExtra {
  authInfo?: unknown;
  requestInfo?: { headers?: Record<string, string | string[] | undefined> };
  sessionId?: string;
  signal?: AbortSignal;
}

/**
 * The skills methods of an endpoint as plain functions, for another surface over the same skills
 * (a tool that reads a skill, a prompt, a page): each answers exactly what the MCP method answers
 * for the same request, through the same visibility rule, digest checks and response budget, and
 * stops when `extra.signal` aborts (rejecting with its reason). Errors are the MCP method's
 * (`SkillNotFoundError` for what is not served or hidden, `SkillProtocolError` otherwise).
 */
export interface SkillsService {
  /** `skills/list`. */
  list(cursor?: string, extra?: SkillsCallExtra): Promise<ListSkillsResult>;
  /** `skills/get`. */
  get(uri: string, extra?: SkillsCallExtra): Promise<GetSkillResult>;
  /** `resources/read` of a skill file. */
  read(uri: string, extra?: SkillsCallExtra): Promise<ReadSkillFileResult>;
  /** `resources/directory/read`; not found when the source reads no folders. */
  readDirectory(uri: string, cursor?: string, extra?: SkillsCallExtra): Promise<ReadDirectoryResult>;
  /** The SKILL.md entries `resources/list` adds. */
  listResources(extra?: SkillsCallExtra): Promise<SkillResourceListing[]>;
  /**
   * The skills the request may see that match `query`, best first, one page at a time: what the
   * `search_skills` tool answers. A query or cursor that is refused rejects with -32602.
   */
  search(query: string, options?: { limit?: number; cursor?: string }, extra?: SkillsCallExtra): Promise<SearchSkillsResult>;
}

/** A page of `SkillsService.search`: the matching skills' entries, best first. */
export interface SearchSkillsResult extends SkillsResultEnvelope {
  skills: SkillEntry[];
  nextCursor?: string;
}

// ---------------------------------------------------------------------------
// Catalog

/**
 * Every code a `SkillWarning` can carry. What each one means and how often it is told are in
 * the core README's warning table (the registry is `packages/core/src/warnings/codes.ts`). New
 * codes may be added in a minor release: read `code` as a string and keep a default branch.
 */
export type SkillWarningCode =
  // A catalog's load or reload: skills skipped, files ignored, skills served over a limit.
  | 'frontmatter'
  | 'name-mismatch'
  | 'limit'
  | 'skill-md-case'
  | 'bad-name'
  | 'unsupported'
  | 'root-skill'
  | 'portability'
  | 'reserved-metadata'
  | 'hidden-characters'
  | 'no-skills'
  | 'missing-skill-md'
  // A catalog's load or reload with the `trust` option: skills refused (requireSignature) or reported.
  | 'signature-missing'
  | 'signature-invalid'
  | 'signature-untrusted'
  // A catalog while it serves.
  | 'read-failed'
  | 'reload-failed'
  | 'changed'
  // What a custom source or a visible() rule answered.
  | 'invalid-entry'
  | 'invalid-page'
  | 'invalid-read-result'
  | 'invalid-cache-hint'
  | 'invalid-visible'
  | 'visible-failed'
  // Requests and the MCP SDK.
  | 'internal-error'
  | 'sdk-seam-missing'
  | 'instructions-failed'
  | 'instructions-line-skipped'
  | 'tool-name-taken'
  | 'read-hook-failed'
  // Per-tenant catalogs.
  | 'tenant-key-failed'
  | 'tenant-key-refused'
  | 'tenant-load-failed'
  | 'tenant-close-failed'
  | 'watch-unsupported'
  // The Express and Fastify adapters.
  | 'load-failed'
  | 'request-failed'
  | 'modern-not-handled'
  | 'context-not-applied'
  | 'no-request-timeout'
  // /.well-known/agent-skills.
  | 'well-known-skipped'
  | 'well-known-not-served';

/**
 * Whether a server's `instructions` name its skills, for hosts that show instructions to the model
 * but do not speak the Skills extension. `'auto'` (default): for clients that did not declare the
 * extension; `true`: for every client; `false`: never. An object: as `'auto'`, with `maxBytes`
 * (the whole section's UTF-8 bytes, 512 to 65536, default 2048) and `intro` (replaces the first
 * sentence; one line, at most 300 UTF-8 bytes).
 */
export type InstructionsOption = 'auto' | boolean | { maxBytes?: number; intro?: string };

/**
 * How a file came to be read: `resources/read` (the Skills extension's way, on either era), the
 * `read_skill` tool, `prompts/get` of a skill's prompt, or `well-known` (a download of the skill's
 * archive from `/.well-known/agent-skills/`, by the `skills` installer).
 */
export type SkillReadVia = 'resources/read' | 'read_skill' | 'prompts/get' | 'well-known';

/** The client of an MCP request, as it named itself (`clientInfo`), each field cut to 256 characters. */
export interface SkillClientInfo {
  name: string;
  version: string;
}

/**
 * A file of a skill answered to a client: what `onSkillLoad` (SKILL.md) and `onFileRead` (every
 * other file) hear, once per read that went out, after its bytes matched what was published. A
 * refused read (hidden, missing, changed, over the response budget, cancelled) is not one;
 * neither are listings and `skills/get`. Holds no file content.
 */
export interface SkillReadEvent {
  /**
   * The skill's name: its folder's name, which the Agent Skills spec makes its frontmatter name.
   * For `onFileRead`, the nearest skill holding the file when the source is a `SkillCatalog`
   * (a tenant's included); undefined for another source, whose skills are not known without asking it.
   */
  skill: string | undefined;
  /** The file's URI, `skill://acme/refunds/SKILL.md`. For `well-known`, the skill's SKILL.md URI. */
  uri: string;
  /** The bytes answered: the file's size; for `well-known`, the archive's or the single file's size. */
  bytes: number;
  via: SkillReadVia;
  /**
   * The protocol era the request came in: `2026-07-28`, or `2025-11-25` for it and every earlier
   * version (the SDK v1's). Undefined for `well-known` (plain HTTP) and for reads through a
   * `SkillsService` the app calls itself.
   */
  era: '2025-11-25' | '2026-07-28' | undefined;
  /**
   * The client, as it named itself: on 2026-07-28 from the request's `_meta`; on 2025-11-25 from
   * the session's `initialize`. Undefined when the request does not say (a stateless 2025-11-25
   * request, whose `initialize` went to another server; a `well-known` download). Claimed by the
   * client, not proven: count by it, do not trust it.
   */
  client: SkillClientInfo | undefined;
  /** The request's context, as the source saw it (`auth`, `headers`, the app's fields). */
  ctx: SkillContext;
}

/**
 * Hooks told of each answered read, for usage analytics. Each is called after the answer is
 * settled and never delays or fails it: a hook that throws or rejects is reported once
 * (`read-hook-failed`) and called again for later reads. Off (and free) unless given.
 */
export interface SkillReadHooks {
  /** A skill's SKILL.md was answered: one call per read, whichever way (`via`) it came. */
  onSkillLoad?: (event: SkillReadEvent) => void | Promise<void>;
  /** Any other file of a skill was answered (`via` is never `well-known`: an archive is one load). */
  onFileRead?: (event: SkillReadEvent) => void | Promise<void>;
}

export interface SkillWarning {
  /** A stable machine-readable code, e.g. `frontmatter`, `name-mismatch`, `unsupported`: one of `SkillWarningCode`. */
  code: SkillWarningCode;
  message: string;
  /** Storage path the warning is about, when there is one. */
  path?: string;
  /** Skill or file URI the warning is about, when there is one. */
  uri?: string;
  /** A `limit` warning about a whole skill: how many files it has, SKILL.md and nested folders included. */
  files?: number;
  /** A `limit` warning about a whole skill: the sum of its file sizes, in bytes. */
  bytes?: number;
  /** A `limit` warning about a whole skill: the one limit it is over, `{ files: 512 }` or `{ bytes: 16777216 }`. */
  limit?: Partial<SkillLimits>;
  /**
   * Set on a reload's warning that the catalog's previous load told too (same code, subject and
   * message): nothing changed about it. The console, the Fastify and Express loggers and
   * `skillmount serve` skip these; an `onWarning` of the app's gets them to decide.
   */
  repeated?: true;
  /** A warning of one tenant's catalog (`tenantCatalogs`): the tenant's key, as in the message's `tenant <key>:` prefix. */
  tenant?: string;
}

export interface SkillLimits {
  /** Files per skill, SKILL.md included. Default 512. */
  files: number;
  /** Sum of file sizes per skill, in bytes. Default 16 MiB. */
  bytes: number;
}

// --- Search ------------------------------------------------------------------

/** What a search asks for besides its query. */
export interface SkillSearchOptions {
  /** Results on the page: 1 to 50, default 10. */
  limit?: number;
  /** A `nextCursor` from an earlier page of the same query, passed back exactly as received. */
  cursor?: string;
  /**
   * The request's visibility rule: a skill it refuses is searched as if the catalog did not hold
   * it (ranking statistics included), so results never tell that it exists.
   */
  visible?: (entry: SkillEntry) => boolean;
}

/** One page of results, best first (scores are not given: they would change with skills the caller cannot see). */
export interface SkillSearchPage {
  skills: SkillEntry[];
  /** Present when more results follow: pass it back as `cursor` with the same query. */
  nextCursor?: string;
}

/** A skill the lexical ranking found, with its score (higher is better), as a rerank hook receives it. */
export interface SkillSearchCandidate {
  entry: SkillEntry;
  score: number;
}

/**
 * An app's own ranker, combined with the lexical one: it receives the lexical best
 * (`SEARCH_LIMITS.rerankDepth` at most, best first, visible skills only) and returns them in the
 * order to serve, each with a new score (higher first; ties by URI). Candidates it leaves out are
 * dropped; candidates it adds are ignored. It must be synchronous and depend only on the query
 * and each candidate (an embedding's similarity, a popularity count), never on the rest of the
 * catalog, so a request's results stay those of a catalog holding only what it may see.
 */
export type SkillSearchRerank = (candidates: readonly SkillSearchCandidate[], query: string) => readonly SkillSearchCandidate[];

/** The catalog's `search` option as an object. */
export interface SkillSearchSettings {
  /**
   * Index each SKILL.md's body too (its first 16 KiB of text), not only the frontmatter. Costs one
   * storage read per new or changed SKILL.md at load and reload, and the memory of its words.
   */
  text?: boolean;
  /** Reorder the lexical results with an app's own ranker: see {@link SkillSearchRerank}. */
  rerank?: SkillSearchRerank;
}

export interface CatalogOptions {
  /**
   * Where skill paths are placed: `skill://` (default) serves `skill://<skill>/SKILL.md`; a base
   * such as `github://acme/skills/` serves `github://acme/skills/<skill>/SKILL.md`. An absolute
   * `scheme://` URI in canonical form, no query or fragment; a trailing `/` is optional. As in the
   * SDK v2 (`baseUri` of a skill source). `prefix` comes after it.
   */
  baseUri?: string;
  /** Organisational prefix, e.g. `acme` or `acme/billing`, placed before every skill path (after `baseUri`). */
  prefix?: string;
  /** Skills per `skills/list` page: a positive integer or `Infinity`. Default 100. */
  pageSize?: number;
  /**
   * Per-skill limits (default 512 files, 16 MiB; `Infinity` for none). A skill over a limit is
   * served with a `limit` warning, as the SDK v2 does (hosts may refuse it); under `strict` the load fails.
   */
  limits?: Partial<SkillLimits>;
  /** Throw one `CatalogError` listing every problem (skipped skills, skills over the limits) instead of warnings. */
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
  /**
   * How long, after each reload, the bytes a file had before it stay readable by a
   * `resources/read` that names their digest (`_meta["io.github.skillmount/digest"]`, as
   * `SkillsClient` sends the entry it holds), in milliseconds. Only bytes the byte cache held when
   * the reload ran can be kept (the storage has changed by then), within a quarter of
   * `cacheBytes` per catalog, oldest dropped first. A read naming bytes no longer kept gets
   * `-32602` with `data.reason: 'entry-changed'`. Default 60000, or `cacheHint.ttlMs` when longer;
   * at least `cacheHint.ttlMs` when set; 0 keeps nothing.
   */
  retainMs?: number;
  /**
   * Keep a search index beside the catalog, for `catalog.search(query)`: built at load,
   * updated on reload for the skills that changed. `true` indexes each skill's name, description
   * and `metadata.version` (nothing read beyond what a load reads); `{ text: true }` adds each
   * SKILL.md's body. Off by default: no index, no memory.
   */
  search?: boolean | SkillSearchSettings;
  /**
   * Check each skill's signature (`skill.oms.sig`, docs/reference/trust.md) against these public
   * keys at every load and reload. With `requireSignature`, a skill whose signature is missing,
   * invalid or made by a key not in `keys` is not served at all (a `signature-missing`,
   * `signature-invalid` or `signature-untrusted` warning says which and why); without it, every
   * skill is served and an invalid or untrusted signature is warned about. Either way each served
   * entry carries the result in `_meta["io.github.skillmount/signature"]`. Off by default.
   */
  trust?: SkillTrustOptions;
}

/** The catalog's `trust` option. */
export interface SkillTrustOptions {
  /**
   * The public keys whose signatures are accepted (SPKI PEM, ECDSA P-256: the `.pub` file
   * `skillmount keygen` writes), each with the name results report for its signer. Removing a
   * key revokes it: skills it signed are then `untrusted-key`.
   */
  keys: readonly TrustedKey[];
  /** Serve only skills whose signature verifies with one of `keys`. Default false: check and report. */
  requireSignature?: boolean;
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
