import { markRepeated } from '../warnings/repeated.js';
import { catalogChannel, type CatalogBuildMessage } from '../telemetry/channels.js';
import { traced } from '../telemetry/trace.js';
import {
  SkillNotFoundError,
  StorageError,
  changedFile,
  directoryNotFound,
  entryChanged,
  fileNotFound,
  internalError,
  invalidParams,
  skillNotFound,
} from '../errors.js';
import { parseUri } from '../uri/canonical.js';
import { describeError } from '../text/error-text.js';
import type {
  CacheHint,
  CatalogOptions,
  DirectoryChild,
  DirectoryPage,
  ListSkillsPage,
  ListSkillsParams,
  ReloadReport,
  SkillEntry,
  SkillFileContent,
  SkillFiles,
  SkillResourceListing,
  SkillSearchOptions,
  SkillSearchPage,
  SkillSource,
  SkillWarning,
} from '../types.js';
import { buildSnapshot, type BuildOptions } from './build.js';
import { DEFAULT_CACHE_BYTES, RETAINED_SHARE, normalizeCatalogOptions, type NormalizedCatalogOptions } from './options.js';
import { RetainedBytes } from './retained.js';
import { BytesCache } from './cache.js';
import { encodedCost, markVerified } from '../bytes/verified.js';
import { sha256Digest } from '../bytes/digest.js';
import { decodeCursor, page } from './paging.js';
import { itemUri, type CatalogSnapshot, type DirectoryItem, type FileRecord } from './snapshot.js';
import { mimeTypeFor } from './mime.js';
import { DIRECTORY_MIME } from '../protocol/constants.js';
import { diffEntries } from './diff.js';
import { storageCalls } from './storage-calls.js';
import { brand, isBranded } from '../brand.js';
import { buildSearch, skillBodies, updateSearch, type CatalogSearch } from './search.js';
import { SkillSearchError } from '../search/errors.js';
import { searchIndex } from '../search/search.js';

/** Catalogs built by this copy of core: their entries were validated here, so handlers may trust them (a brand alone proves no such thing). */
const builtHere = new WeakSet<object>();

/** True for a catalog this copy of core built. */
export const isCatalogBuiltHere = (source: unknown): boolean => typeof source === 'object' && source !== null && builtHere.has(source);

/** What core's own modules may read of a catalog beyond its public API (set in the class's static block). */
export interface CatalogInternals {
  snapshot: CatalogSnapshot;
  pageSize: number;
  /** As `#pathOf`: the storage path a URI names, '' outside the catalog's prefix; throws for a malformed URI. */
  pathOf(uri: string, what: 'skill' | 'file' | 'directory'): string;
  /**
   * As `read`, for a client that names the digest it holds: the current bytes when that is the
   * published digest, else the bytes the file had under it before a reload, while kept.
   * Not found when no file is served at `uri` now; the entry-changed error when those bytes are gone.
   */
  readDigest(uri: string, digest: string): Promise<SkillFileContent>;
}

let internalsOf: (catalog: SkillCatalog) => CatalogInternals;

/** A catalog's current snapshot and paging, for the skills service's visibility rule (catalog/visible.ts). */
export const catalogInternals = (catalog: SkillCatalog): CatalogInternals => internalsOf(catalog);

/**
 * Skills loaded from a `SkillFiles` storage: validated, hashed, indexed and frozen.
 * Serves `skills/list`, `skills/get`, `resources/read` and `resources/directory/read` from memory,
 * reading file bodies from storage only on `resources/read`.
 *
 * @example
 * ```ts
 * import { SkillCatalog } from '@skillmount/core';
 * import { fsStorage } from '@skillmount/storage-fs';
 *
 * const catalog = await SkillCatalog.load(fsStorage('./skills'), { strict: true });
 * for (const entry of catalog.entries) console.log(entry.uri, entry.frontmatter.description);
 * const stop = catalog.watch(); // reload on every change the storage reports
 * const skill = await catalog.get('skill://refunds/SKILL.md');
 * stop();
 * ```
 * @throws The class has no public constructor: {@link SkillCatalog.load} builds a catalog and
 * says what it throws.
 */
export class SkillCatalog implements SkillSource {
  readonly #files: SkillFiles;
  /** `#files` with every call bounded by `timeoutMs`. */
  readonly #timed: SkillFiles;
  readonly #options: NormalizedCatalogOptions;
  /** Decoded segments every served URI starts with: the base URI's, then the prefix. */
  readonly #uriPrefix: readonly string[];
  #snapshot: CatalogSnapshot;
  #loadedAt = new Date();
  #reloadFailedAt: Date | undefined;
  #running: Promise<ReloadReport> | undefined;
  #queued: Promise<ReloadReport> | undefined;
  readonly #listeners = new Set<() => void>();
  #unwatchStorage: (() => void) | undefined;
  /** One token per live `watch()`; `close()` empties it, so stop functions from before it do nothing. */
  readonly #watches = new Set<object>();
  /** Verified bytes by digest; undefined when `cacheBytes` is 0. */
  readonly #cache: BytesCache | undefined;
  /** Storage reads in flight for the cache, by digest: concurrent reads of one file share one. */
  readonly #fetching = new Map<string, Promise<Uint8Array | undefined>>();
  /** Earlier generations' bytes, after a reload; undefined when `retainMs` or the cache is 0. */
  readonly #retained: RetainedBytes | undefined;
  #sweep: ReturnType<typeof setTimeout> | undefined;
  /** The search index, when the `search` option is on. */
  readonly #search: CatalogSearch | undefined;

  private constructor(files: SkillFiles, options: NormalizedCatalogOptions, snapshot: CatalogSnapshot, search: CatalogSearch | undefined) {
    this.#files = files;
    this.#timed = storageCalls(files, options.timeoutMs);
    this.#options = options;
    this.#uriPrefix = [...options.base.segments, ...options.prefix];
    this.#snapshot = snapshot;
    const cacheBytes = options.cacheBytes ?? (files.inMemory === true ? 0 : DEFAULT_CACHE_BYTES);
    this.#cache = cacheBytes > 0 ? new BytesCache(cacheBytes) : undefined;
    this.#retained = cacheBytes > 0 && options.retainMs > 0 ? new RetainedBytes(options.retainMs, Math.floor(cacheBytes / RETAINED_SHARE)) : undefined;
    this.#search = search;
    builtHere.add(this);
  }

  /** True for a catalog from any copy of `@skillmount/core` (its ESM and CJS builds load separately). */
  static [Symbol.hasInstance](value: unknown): boolean {
    return isBranded(this, value);
  }
  static {
    brand(this, '@skillmount/core/SkillCatalog');
    internalsOf = (catalog) => ({
      snapshot: catalog.#snapshot,
      pageSize: catalog.#options.pageSize,
      pathOf: (uri, what) => catalog.#pathOf(uri, what),
      readDigest: (uri, digest) => catalog.#readDigest(uri, digest),
    });
  }

  /**
   * Walk `files`, read and hash every skill file, and build the catalog.
   *
   * @example
   * ```ts
   * import { SkillCatalog } from '@skillmount/core';
   * import { fsStorage } from '@skillmount/storage-fs';
   *
   * const catalog = await SkillCatalog.load(fsStorage('./skills'), { pageSize: 50 });
   * ```
   * @throws TypeError when `files` is not a storage (it has no `list` and `read`).
   * @throws {@link OptionError} when an option is invalid.
   * @throws {@link StorageError} (the promise rejects) when the storage cannot be listed or a skill file cannot be read.
   * @throws {@link CatalogError} (the promise rejects) under `strict`, when a skill is invalid (its SKILL.md front matter, name or limits).
   */
  static async load(files: SkillFiles, options: CatalogOptions = {}): Promise<SkillCatalog> {
    if (!files || typeof files.list !== 'function' || typeof files.read !== 'function') {
      throw new TypeError('skillmount: SkillCatalog.load(files) needs a storage with list(dir) and read(path), e.g. fsStorage("./skills")');
    }
    const normalized = normalizeCatalogOptions(options);
    const timed = storageCalls(files, normalized.timeoutMs);
    const { search } = normalized;
    // With bodies indexed, the build hands over the SKILL.md bytes it read: none is read twice.
    const skillMdBytes = search?.text ? new Map<string, Uint8Array>() : undefined;
    const build = () => buildSnapshot(timed, buildOptions(normalized, skillMdBytes));
    const snapshot = await (catalogChannel.hasSubscribers
      ? traceBuild('load', build, (built) => ({ skills: built.entries.length, bodiesRead: built.bodiesRead }))
      : build());
    const bodies = skillMdBytes ? await skillBodies(timed, snapshot, undefined, normalized.concurrency, skillMdBytes) : undefined;
    snapshot.warnings.forEach(normalized.onWarning);
    return new SkillCatalog(files, normalized, snapshot, search && buildSearch(search, snapshot, bodies));
  }

  /** Every served skill's entry, sorted by URI and frozen. */
  get entries(): readonly SkillEntry[] {
    return this.#snapshot.entries;
  }

  /** When the catalog now serving was built: the last load or reload that succeeded. */
  get loadedAt(): Date {
    return this.#loadedAt;
  }

  /** When a reload last failed, if one has since the last that succeeded (the catalog keeps serving meanwhile); else undefined. */
  get reloadFailedAt(): Date | undefined {
    return this.#reloadFailedAt;
  }

  /** Problems found by the last successful load or reload. */
  get warnings(): readonly SkillWarning[] {
    return this.#snapshot.warnings;
  }

  /** Where this catalog's URIs live (the `baseUri` option, canonical): `skill://` by default. */
  get baseUri(): string {
    return this.#options.base.uri;
  }

  /** The storage this catalog reads from. */
  get storage(): SkillFiles {
    return this.#files;
  }

  /**
   * How many file bodies the last successful load or reload took from storage: read, or brought
   * along by its listing (`content`). Files reused by change token are not counted, nor files
   * whose digest the storage vouched for (a folder's listing hashes them in worker threads; a
   * database computes them).
   */
  get bodiesRead(): number {
    return this.#snapshot.bodiesRead;
  }

  /**
   * Build a new catalog from storage and swap it in, all or nothing: on failure the old one keeps
   * serving and the promise rejects. Calls never overlap; a call made while one runs waits for it
   * and then reloads once more (calls made meanwhile share that second run).
   *
   * @throws {@link StorageError} or, under `strict`, {@link CatalogError} (the promise rejects), as `load`; the old catalog keeps serving.
   */
  reload(): Promise<ReloadReport> {
    if (this.#queued) return this.#queued;
    if (this.#running) {
      this.#queued = this.#running
        .catch(() => undefined)
        .then(() => {
          this.#queued = undefined;
          return this.#run();
        });
      return this.#queued;
    }
    return this.#run();
  }

  #run(): Promise<ReloadReport> {
    const reload = async () => {
      const search = this.#search;
      const skillMdBytes = search?.text ? new Map<string, Uint8Array>() : undefined;
      const next = await buildSnapshot(this.#timed, buildOptions(this.#options, skillMdBytes), this.#snapshot);
      const report = diffEntries(this.#snapshot.entries, next.entries);
      const bodies =
        skillMdBytes && report.listChanged
          ? await skillBodies(this.#timed, next, new Set([...report.added, ...report.changed]), this.#options.concurrency, skillMdBytes)
          : undefined;
      const previous = this.#snapshot;
      // Swapped together, with no await between: no search sees an index of another snapshot.
      this.#snapshot = next;
      if (search) updateSearch(search, report, next, bodies);
      if (this.#retained) this.#retain(previous, next, this.#retained);
      markRepeated(previous.warnings, next.warnings).forEach(this.#options.onWarning);
      if (report.listChanged) for (const listener of [...this.#listeners]) listener();
      return report;
    };
    const run = catalogChannel.hasSubscribers
      ? traceBuild('reload', reload, (report) => ({
          skills: this.#snapshot.entries.length,
          bodiesRead: this.#snapshot.bodiesRead,
          added: report.added.length,
          removed: report.removed.length,
          changed: report.changed.length,
        }))
      : reload();
    this.#running = run;
    const clear = () => {
      if (this.#running === run) this.#running = undefined;
    };
    run.then(
      () => {
        this.#loadedAt = new Date();
        this.#reloadFailedAt = undefined;
        clear();
      },
      () => {
        this.#reloadFailedAt = new Date();
        clear();
      },
    );
    return run;
  }

  /**
   * Reload whenever the storage reports a change (its optional `watch` hook). Failed reloads are
   * reported through `onWarning` and the old catalog keeps serving. Each caller gets its own stop
   * function; the storage is unwatched when the last one stops.
   *
   * @throws TypeError when the storage has no `watch` method.
   */
  watch(): () => void {
    if (typeof this.#files.watch !== 'function') {
      throw new TypeError('skillmount: this storage cannot be watched (it has no watch() method); call reload() yourself instead');
    }
    if (this.#watches.size === 0) {
      this.#unwatchStorage = this.#files.watch(() => {
        this.reload().catch((error: unknown) => {
          this.#options.onWarning({ code: 'reload-failed', message: `reload failed, still serving the previous catalog: ${describeError(error)}` });
        });
      });
    }
    const token = {};
    this.#watches.add(token);
    return () => {
      // Works once, and not at all once close() has ended the watch it belonged to.
      if (!this.#watches.delete(token) || this.#watches.size > 0) return;
      this.#unwatchStorage?.();
      this.#unwatchStorage = undefined;
    };
  }

  /**
   * Stop every watch and drop list-change listeners. Stop functions handed out before stay
   * harmless: a later `watch()` is not ended by them. The storage is left open: close it
   * yourself if you created it.
   */
  close(): void {
    this.#watches.clear();
    this.#unwatchStorage?.();
    this.#unwatchStorage = undefined;
    this.#listeners.clear();
    clearTimeout(this.#sweep);
    this.#sweep = undefined;
    this.#retained?.clear();
  }

  /**
   * Keep, for the retention window, the bytes of every file a reload changed that the byte cache
   * holds: a client holding the entry from before can still read what it lists. Files gone from
   * the catalog are not kept (nothing is served at their URI now).
   */
  #retain(previous: CatalogSnapshot, next: CatalogSnapshot, retained: RetainedBytes): void {
    const cache = this.#cache!;
    const now = Date.now();
    retained.sweep(now);
    for (const [path, record] of previous.files) {
      const { digest } = record.resource;
      if (next.files.get(path)?.resource.digest === digest || !next.files.has(path)) continue;
      const cached = cache.peek(digest);
      if (cached) retained.keep(path, digest, cached.bytes, cached.cost, now);
    }
    this.#scheduleSweep(retained);
  }

  /** Drop retained bytes once their window ends, so memory is not held until the next reload. */
  #scheduleSweep(retained: RetainedBytes): void {
    const next = retained.nextExpiry;
    if (next === undefined || this.#sweep !== undefined) return;
    this.#sweep = setTimeout(
      () => {
        this.#sweep = undefined;
        retained.sweep(Date.now());
        this.#scheduleSweep(retained);
      },
      Math.max(0, next - Date.now()) + 1,
    );
    this.#sweep.unref?.();
  }

  async #readDigest(uri: string, digest: string): Promise<SkillFileContent> {
    const record = this.#snapshot.files.get(this.#pathOf(uri, 'file'));
    if (!record) throw fileNotFound(uri);
    if (record.resource.digest === digest) return this.#readRecord(record);
    const bytes = this.#retained?.get(record.path, digest, Date.now());
    if (!bytes) throw entryChanged(record.resource.uri, digest);
    // Bytes the cache verified against this digest when they entered it: served without hashing again.
    const mimeType = mimeTypeFor(record.path.slice(record.path.lastIndexOf('/') + 1));
    return { uri: record.resource.uri, bytes, mimeType, published: { size: bytes.byteLength, digest } };
  }

  /**
   * The skills that best fit `query` (a few words, as a person types them), best first: ranked
   * by name, description and `metadata.version` (and SKILL.md body with `search: { text: true }`),
   * matching prefixes and typos. With `options.visible`, the results are exactly those of a
   * catalog without the skills it refuses. Needs the `search` option; reads nothing from storage.
   *
   * @example
   * ```ts
   * import { SkillCatalog, memoryStorage } from '@skillmount/core';
   *
   * const catalog = await SkillCatalog.load(
   *   memoryStorage({ 'pdf/SKILL.md': '---\nname: pdf\ndescription: Extract text and tables from PDF files\n---\n' }),
   *   { search: true },
   * );
   * const { skills, nextCursor } = catalog.search('pdf tables', { limit: 5, visible: (entry) => !entry.uri.includes('/internal/') });
   * ```
   * @throws {@link SkillSearchError} when the catalog was loaded without `search` (`-32603`), or the
   * query, limit or cursor is bad (`-32602`; the message says what was wrong and the limit).
   * @throws TypeError when `options` or `options.visible` has the wrong type.
   */
  search(query: string, options?: SkillSearchOptions): SkillSearchPage {
    if (!this.#search) throw new SkillSearchError('off', 'Search is off for this skills catalog: load it with the option { search: true }');
    return searchIndex(this.#search, query, options);
  }

  // --- SkillSource --------------------------------------------------------

  /**
   * One page of the served skills' entries, sorted by URI (`pageSize` per page).
   *
   * @throws {@link SkillProtocolError} (`-32602`, the promise rejects) when `params.cursor` is not a `nextCursor` this catalog gave.
   */
  async list(params: ListSkillsParams = {}): Promise<ListSkillsPage> {
    const after = decodeCursor(params.cursor);
    const { items, nextCursor } = page(this.#snapshot.entries, (e) => e.uri, after, this.#options.pageSize);
    return nextCursor === undefined ? { skills: items } : { skills: items, nextCursor };
  }

  /**
   * The entry of the skill whose SKILL.md is at `uri` (in any spelling of it).
   *
   * @throws {@link SkillNotFoundError} (the promise rejects) when no skill is served at `uri`.
   */
  async get(uri: string): Promise<SkillEntry> {
    const entry = this.#snapshot.skills.get(this.#pathOf(uri, 'skill'));
    if (!entry) throw skillNotFound(uri);
    return entry;
  }

  /**
   * A served file's content, read from storage (or the byte cache) and checked against its size and digest.
   *
   * @throws {@link SkillNotFoundError} (the promise rejects) when no file is served at `uri`.
   * @throws {@link SkillProtocolError} (internal error) when the storage fails, or the file changed since the catalog was loaded.
   */
  read(uri: string): Promise<SkillFileContent> {
    // Not async itself: one async step per read, as before reads could name a digest.
    let record: FileRecord | undefined;
    try {
      record = this.#snapshot.files.get(this.#pathOf(uri, 'file'));
    } catch (error) {
      return Promise.reject(error);
    }
    return record ? this.#readRecord(record) : Promise.reject(fileNotFound(uri));
  }

  async #readRecord(record: FileRecord): Promise<SkillFileContent> {
    const { uri: servedUri, size, digest } = record.resource;
    const published = { size, digest };
    const mimeType = mimeTypeFor(record.path.slice(record.path.lastIndexOf('/') + 1));
    const cache = this.#cache;
    if (cache?.admits(size)) {
      const cached = cache.get(digest) ?? (await this.#fetchVerified(record, cache));
      // The cached bytes themselves, shared by every read (no copy per request): what goes on the
      // wire is the encoding made when they were verified, which nothing can change.
      if (cached) return { uri: servedUri, bytes: cached, mimeType, published };
    }
    // Not cached, or the storage's bytes no longer match: unchecked here, as every source's bytes are (see #checkedContent in server/handlers.ts).
    return { uri: servedUri, bytes: await this.#readStorage(record), mimeType, published };
  }

  async #readStorage(record: FileRecord): Promise<Uint8Array> {
    try {
      // The published size bounds the read: a file replaced by a larger one is refused, not read whole.
      return await this.#timed.read(record.path, { maxBytes: record.resource.size });
    } catch (error) {
      if (error instanceof StorageError && error.code === 'too-large') {
        // The same refusal as bytes that fail the check: the file changed, a reload serves it.
        const changed = changedFile(record.resource.uri);
        this.#options.onWarning({ ...changed.warning, path: record.path, message: `${changed.warning.message} (${error.message})` });
        throw changed.error;
      }
      this.#options.onWarning({ code: 'read-failed', path: record.path, uri: record.resource.uri, message: `storage read failed: ${describeError(error)}` });
      throw internalError(`Could not read ${record.resource.uri} from storage; try again later`);
    }
  }

  /**
   * Read a file for the cache and keep it when it matches its published size and digest (checked
   * here, once). Undefined when it does not match: the caller then reads it again uncached, and
   * the mismatch is refused and reported where every read is checked.
   */
  #fetchVerified(record: FileRecord, cache: BytesCache): Promise<Uint8Array | undefined> {
    const { size, digest } = record.resource;
    let pending = this.#fetching.get(digest);
    if (!pending) {
      pending = this.#readStorage(record).then((bytes) => {
        if (bytes.byteLength !== size || sha256Digest(bytes) !== digest) return undefined;
        const owned = new Uint8Array(bytes); // detached from whatever buffer the storage may reuse
        const content = markVerified(owned, digest);
        cache.set(digest, owned, owned.byteLength + encodedCost(content));
        return owned;
      });
      const settled = () => this.#fetching.delete(digest);
      pending.then(settled, settled);
      this.#fetching.set(digest, pending);
    }
    return pending;
  }

  /**
   * One page of a served folder's direct children.
   *
   * @throws {@link SkillNotFoundError} (the promise rejects) when no folder is served at `uri`.
   * @throws {@link SkillProtocolError} (`-32602`) when `uri` names a file, or `params.cursor` is not a `nextCursor` this catalog gave.
   */
  async readDirectory(uri: string, params: ListSkillsParams = {}): Promise<DirectoryPage> {
    const key = this.#pathOf(uri, 'directory');
    const children = this.#snapshot.directories.get(key);
    if (!children) {
      if (this.#snapshot.files.has(key)) throw invalidParams(`${uri} is not a directory resource`, { uri });
      throw directoryNotFound(uri);
    }
    const after = decodeCursor(params.cursor);
    const { items, nextCursor } = page(children, itemUri, after, this.#options.pageSize);
    const resources = items.map(directoryChild);
    return nextCursor === undefined ? { resources } : { resources, nextCursor };
  }

  async listResources(): Promise<SkillResourceListing[]> {
    return [...this.#snapshot.resourceListing];
  }

  /**
   * The storage path a skill URI names, in any spelling (percent-encoding, scheme case), or '' when
   * it lies outside this catalog's prefix (nothing is served there). Malformed URIs are not found.
   */
  #pathOf(uri: string, what: 'skill' | 'file' | 'directory'): string {
    const { base } = this.#options;
    const parsed = parseUri(uri);
    const problem = !parsed.ok
      ? parsed.error
      : parsed.scheme !== base.scheme
        ? `not a ${base.scheme}:// URI`
        : parsed.segments[0] === ''
          ? `an empty authority (${base.scheme}:///…); a ${base.scheme}:// URI starts with a name`
          : undefined;
    if (problem !== undefined || !parsed.ok) {
      const noun = what === 'skill' ? 'No skill is served at' : what === 'file' ? 'Resource not found:' : 'No directory is served at';
      throw new SkillNotFoundError(`${noun} ${uri} (${problem})`, uri);
    }
    const prefix = this.#uriPrefix;
    const segments = parsed.segments;
    if (segments.length <= prefix.length || prefix.some((p, i) => segments[i] !== p)) return '';
    return segments.slice(prefix.length).join('/');
  }

  cacheHint(): CacheHint {
    return this.#options.cacheHint;
  }

  onListChanged(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Report a problem found while serving (for example, changed bytes refused by `attach`). */
  warn(warning: SkillWarning): void {
    this.#options.onWarning(warning);
  }
}

/** The wire form of a folder's child. */
function directoryChild(item: DirectoryItem): DirectoryChild {
  if (!('resource' in item)) return { uri: item.uri, name: item.name, mimeType: DIRECTORY_MIME };
  const name = item.path.slice(item.path.lastIndexOf('/') + 1);
  return { uri: item.resource.uri, name, mimeType: mimeTypeFor(name), size: item.resource.size };
}

function buildOptions(options: NormalizedCatalogOptions, skillMdBytes: Map<string, Uint8Array> | undefined): BuildOptions {
  return {
    prefix: [...options.base.segments, ...options.prefix],
    scheme: options.base.scheme,
    limits: options.limits,
    strict: options.strict,
    concurrency: options.concurrency,
    trust: options.trust,
    skillMdBytes,
  };
}

/** A catalog build traced on `skillmount:catalog`, its outcome summed up for subscribers. */
function traceBuild<T>(kind: 'load' | 'reload', build: () => Promise<T>, summary: (built: T) => CatalogBuildMessage['outcome']): Promise<T> {
  const message: CatalogBuildMessage = { kind };
  return traced(catalogChannel, message, build, (built) => {
    message.outcome = summary(built);
  });
}
