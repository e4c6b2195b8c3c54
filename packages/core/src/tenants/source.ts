import { createHash } from 'node:crypto';
import { SkillCatalog, describe } from '../catalog/catalog.js';
import { diffEntries } from '../catalog/diff.js';
import { contextFromExtra } from '../context/store.js';
import { SkillProtocolError, StorageError, directoryNotFound, internalError } from '../errors.js';
import { memoryStorage } from '../storage/memory.js';
import { DEFAULT_CACHE_HINT } from '../protocol/constants.js';
import type { CacheHint, CatalogOptions, ReloadReport, SkillContext, SkillEntry, SkillFiles, SkillSource, SkillWarning } from '../types.js';
import { TenantCache } from './cache.js';
import { showKey, tenantKeyProblem } from './key.js';
import { TenantListeners } from './listeners.js';
import { normalizeTenantOptions } from './options.js';
import type { ClosableSkillSource, TenantCatalogsOptions, TenantSource } from './types.js';

/** One tenant in memory: its source, and how to let go of it. */
interface Loaded {
  source: ClosableSkillSource;
  /** The storage created for it, closed with it (the `storage` option with `closeStorage`). */
  storage?: SkillFiles;
  /** Stop forwarding its list changes and watching its storage. */
  stop(): void;
  /** Its storage holds nothing: it answers the requests that loaded it and is not kept in memory. */
  empty?: true;
}

const NO_SKILLS = 'no-skills';
// Clients learn only that their own tenant failed; the cause goes to onWarning.
const LOAD_FAILED = "This tenant's skills could not be loaded; try again later";
const KEY_FAILED = 'Could not tell which tenant this request belongs to; try again later';
const CLOSED = 'The skills service is shutting down; try again later';
// Remember this many refused keys, so a client repeating one does not flood the log.
const REFUSED_REMEMBERED = 1000;

/**
 * A `SkillSource` that serves each request from its tenant's catalog. `key(ctx)` names the tenant;
 * each tenant's catalog is loaded on its first request (once, however many arrive together), kept
 * in a bounded least-recently-used cache with an idle timeout, and freed when evicted. A request
 * with no tenant, or a refused key, sees an empty catalog: every URI is unknown to it, with the
 * same `-32602` answer as a URI that exists nowhere. So does a tenant whose storage holds nothing
 * (no skill, nothing to warn about), or whose storage root does not exist (`not-found`): its
 * catalog answers the requests that loaded it and is not kept, so made-up keys never push a
 * tenant with skills out of the cache.
 *
 * ```ts
 * const skills = tenantCatalogs({
 *   key: (ctx) => ctx.tenant as string | undefined,
 *   storage: (tenant) => fsStorage(path.join('./tenants', tenant)),
 * });
 * ```
 */
export function tenantCatalogs(options: TenantCatalogsOptions): TenantSource {
  const opts = normalizeTenantOptions(options);
  const { origin } = opts;
  const warn = opts.onWarning;
  const listeners = new TenantListeners();
  // Which source answered a context, so the result envelope carries that source's cache hint.
  const answeredBy = new WeakMap<SkillContext, SkillSource>();
  const refused = new Set<string>();
  let emptyCatalog: Promise<SkillCatalog> | undefined;
  let watchWarned = false;

  const adopt = (key: string, source: ClosableSkillSource, storage?: SkillFiles): Loaded => {
    const unsubscribe = typeof source.onListChanged === 'function' ? source.onListChanged(() => listeners.notify(key)) : undefined;
    let unwatch: (() => void) | undefined;
    if (origin.kind === 'storage' && origin.watch) {
      try {
        unwatch = (source as SkillCatalog).watch();
      } catch (error) {
        if (!watchWarned) warn({ code: 'watch-unsupported', message: `tenant catalogs are not watched: ${describe(error)}` });
        watchWarned = true;
      }
    }
    listeners.reloaded(key, () => fingerprint(source));
    return {
      source,
      ...(origin.kind === 'storage' && origin.closeStorage ? { storage } : {}),
      stop() {
        unsubscribe?.();
        unwatch?.();
      },
    };
  };

  const load = async (key: string): Promise<Loaded> => {
    let storage: SkillFiles | undefined;
    try {
      if (origin.kind === 'load') {
        const source = await origin.load(key);
        if (!source || typeof source.list !== 'function' || typeof source.get !== 'function' || typeof source.read !== 'function') {
          throw new TypeError(`skillmount: tenantCatalogs(): load(${JSON.stringify(key)}) must resolve to a SkillSource (list, get and read), got ${source === null ? 'null' : typeof source}`);
        }
        return adopt(key, source);
      }
      storage = await origin.storage(key);
      const catalogWarn = origin.catalog.onWarning ?? warn;
      const catalogOptions = {
        ...origin.catalog,
        // A tenant with no skills is normal here (a made-up key, say): not a warning per tenant.
        onWarning: (w: SkillWarning) => {
          if (w.code !== NO_SKILLS) catalogWarn({ ...w, message: `tenant ${key}: ${w.message}` });
        },
      };
      const catalog = await loadOrEmpty(storage, catalogOptions);
      if (holdsNothing(catalog)) {
        // Any key a client makes up lands here: it is neither watched nor kept, so it costs one
        // listing and never takes the place of a tenant that has skills.
        listeners.reloaded(key, () => fingerprint(catalog));
        return { source: catalog, ...(origin.closeStorage ? { storage } : {}), stop() {}, empty: true };
      }
      return adopt(key, catalog, storage);
    } catch (error) {
      if (origin.kind === 'storage' && origin.closeStorage) await closeQuietly(storage);
      const path = (error as { path?: unknown })?.path;
      warn({
        code: 'tenant-load-failed',
        message: `tenant ${key}: skills could not be loaded (its requests get -32603 and the next one tries again): ${describe(error)}`,
        ...(typeof path === 'string' ? { path } : {}),
      });
      throw Object.assign(internalError(LOAD_FAILED), { cause: error });
    }
  };

  const free = async (key: string, loaded: Loaded): Promise<void> => {
    listeners.remember(key, () => fingerprint(loaded.source));
    loaded.stop();
    try {
      await loaded.source.close?.();
    } finally {
      await loaded.storage?.close?.();
    }
  };

  const cache = new TenantCache<Loaded>(
    {
      load,
      admit: (_key, loaded) => loaded.empty !== true,
      free,
      freeFailed: (key, error) => warn({ code: 'tenant-close-failed', message: `tenant ${key}: closing its evicted catalog failed: ${describe(error)}` }),
    },
    opts.max,
    opts.idleMs,
  );

  const refuse = (raw: unknown, problem: string) => {
    const id = typeof raw === 'string' ? raw : `<${raw === null ? 'null' : typeof raw}>`;
    if (refused.has(id)) return;
    if (refused.size >= REFUSED_REMEMBERED) refused.clear();
    refused.add(id);
    warn({ code: 'tenant-key-refused', message: `tenant key ${showKey(raw)} refused (${problem}): its requests are served as having no tenant and see no skills` });
  };

  /** `quiet`: a throw is not reported (a server subscribing, whose context may lack what a request has). */
  const keyOf = async (ctx: SkillContext, quiet = false): Promise<string | undefined> => {
    let raw: unknown;
    try {
      raw = await opts.key(ctx);
    } catch (error) {
      if (error instanceof SkillProtocolError || quiet) throw error; // the app chose the answer
      warn({ code: 'tenant-key-failed', message: `the tenant key function threw (the request gets -32603): ${describe(error)}` });
      throw Object.assign(internalError(KEY_FAILED), { cause: error });
    }
    if (raw === undefined || raw === null) return undefined;
    const problem = tenantKeyProblem(raw);
    if (problem) {
      refuse(raw, problem);
      return undefined;
    }
    return raw as string;
  };

  const empty = () => {
    const onWarning = opts.emptyCatalog.onWarning;
    return (emptyCatalog ??= SkillCatalog.load(memoryStorage({}), {
      ...opts.emptyCatalog,
      onWarning: (w) => {
        if (w.code !== NO_SKILLS) onWarning?.(w);
      },
    }));
  };

  /** Run `fn` with the source of the context's tenant, kept in memory until `fn` settles. */
  const withSource = async <T>(ctx: SkillContext, fn: (source: ClosableSkillSource) => T | Promise<T>): Promise<T> => {
    if (cache.closed) throw internalError(CLOSED);
    const key = await keyOf(ctx);
    if (key === undefined) {
      const source = await empty();
      answeredBy.set(ctx, source);
      return fn(source);
    }
    if (cache.closed) throw internalError(CLOSED); // closed while the key was being resolved
    return cache.use(key, (loaded) => {
      answeredBy.set(ctx, loaded.source);
      return fn(loaded.source);
    });
  };

  const reloadOne = async (key: string): Promise<ReloadReport | undefined> => {
    let replace = false;
    const report = await cache.ifLoaded(key, (loaded) => {
      if (typeof loaded.source.reload === 'function') return loaded.source.reload();
      replace = true;
      return undefined;
    });
    if (!replace) return report;
    // A source that cannot reload itself is built again and swapped in.
    const { before, after } = await cache.replace(key);
    const beforeEntries = entriesOf(before?.source);
    const afterEntries = entriesOf(after.source);
    const replaced = beforeEntries && afterEntries ? diffEntries(beforeEntries, afterEntries) : { added: [], removed: [], changed: [], listChanged: true };
    if (replaced.listChanged) listeners.notify(key);
    return replaced;
  };

  async function reload(key: string): Promise<ReloadReport | undefined>;
  async function reload(): Promise<Map<string, ReloadReport>>;
  async function reload(key?: string): Promise<ReloadReport | undefined | Map<string, ReloadReport>> {
    if (key !== undefined) return reloadOne(key);
    const keys = cache.keys;
    const settled = await Promise.allSettled(keys.map((k) => reloadOne(k)));
    const reports = new Map<string, ReloadReport>();
    const failures: unknown[] = [];
    const failed: string[] = [];
    settled.forEach((result, i) => {
      if (result.status === 'fulfilled') {
        if (result.value) reports.set(keys[i]!, result.value);
      } else {
        failures.push(result.reason);
        failed.push(keys[i]!);
      }
    });
    if (failures.length > 0) {
      throw new AggregateError(failures, `skillmount: reloading ${failed.length} of ${keys.length} tenants failed (${failed.join(', ')}); they keep serving their previous catalog`);
    }
    return reports;
  }

  const source: TenantSource = {
    // Every tenant's catalog serves under the same base (its `catalog.baseUri`); attach registers it once.
    ...(opts.emptyCatalog.baseUri !== undefined ? { baseUri: opts.emptyCatalog.baseUri } : {}),
    list: (params, ctx) => withSource(ctx, (s) => s.list(params, ctx)),
    get: (uri, ctx) => withSource(ctx, (s) => s.get(uri, ctx)),
    read: (uri, ctx) => withSource(ctx, (s) => s.read(uri, ctx)),
    readDirectory: (uri, params, ctx) =>
      withSource(ctx, (s) => {
        // The same answer a catalog gives for a folder it does not have.
        if (typeof s.readDirectory !== 'function') throw directoryNotFound(uri);
        return s.readDirectory(uri, params, ctx);
      }),
    listResources: (ctx) => withSource(ctx, async (s) => (await s.listResources?.(ctx)) ?? []),
    cacheHint(ctx): CacheHint {
      const answered = answeredBy.get(ctx);
      return answered?.cacheHint?.(ctx) ?? fallbackHint(opts.emptyCatalog.cacheHint);
    },
    onListChanged(listener, ctx) {
      // Without an explicit context: the one the app set around the request that is connecting this server.
      const context = ctx ?? contextFromExtra(undefined);
      let stopped = false;
      let remove: (() => void) | undefined;
      keyOf(context, true).then(
        (key) => {
          if (key !== undefined && !stopped) remove = listeners.add(key, listener);
        },
        () => undefined, // such a server hears nothing
      );
      return () => {
        stopped = true;
        remove?.();
      };
    },
    warn: (warning: SkillWarning) => warn(warning),
    keyOf: (ctx) => keyOf(ctx),
    async sourceFor(key) {
      const problem = tenantKeyProblem(key);
      if (problem) throw new TypeError(`skillmount: tenant key ${showKey(key)} is not a plain single segment: ${problem}`);
      if (cache.closed) throw new Error('skillmount: sourceFor() was called after close()');
      return cache.use(key, (loaded) => loaded.source);
    },
    get loaded() {
      return cache.keys;
    },
    reload,
    async evict(key) {
      cache.evict(key);
    },
    async close() {
      await cache.close();
      (await emptyCatalog?.catch(() => undefined))?.close();
    },
  };
  return source;
}

/**
 * The tenant's catalog; an empty one when its storage has nothing behind it (the root reported
 * `not-found`: a folder never created), the same as an empty S3 prefix or PostgreSQL namespace.
 * Any other storage failure is a failed load.
 */
async function loadOrEmpty(storage: SkillFiles, options: CatalogOptions): Promise<SkillCatalog> {
  try {
    return await SkillCatalog.load(storage, options);
  } catch (error) {
    if (!(error instanceof StorageError && error.code === 'not-found' && error.path === '')) throw error;
    return SkillCatalog.load(memoryStorage({}), options);
  }
}

/** No skill and nothing to warn about: a storage with nothing in it (or no skill files at all). */
function holdsNothing(catalog: SkillCatalog): boolean {
  return catalog.entries.length === 0 && catalog.warnings.every((w) => w.code === NO_SKILLS);
}

function entriesOf(source: SkillSource | undefined): readonly SkillEntry[] | undefined {
  const entries = (source as { entries?: unknown } | undefined)?.entries;
  return Array.isArray(entries) ? (entries as readonly SkillEntry[]) : undefined;
}

/** What a tenant's listeners saw, in a few bytes, for sources that expose their entries. */
function fingerprint(source: SkillSource): string | undefined {
  const entries = entriesOf(source);
  return entries ? createHash('sha256').update(JSON.stringify(entries)).digest('hex') : undefined;
}

function fallbackHint(hint: Partial<CacheHint> | undefined): CacheHint {
  return { ttlMs: hint?.ttlMs ?? DEFAULT_CACHE_HINT.ttlMs, cacheScope: hint?.cacheScope ?? 'private' };
}

async function closeQuietly(storage: SkillFiles | undefined): Promise<void> {
  try {
    await storage?.close?.();
  } catch {
    // The load failure is what gets reported; a storage that also fails to close adds nothing.
  }
}
