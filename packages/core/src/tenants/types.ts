/**
 * Public types of per-tenant catalogs: one skill catalog per tenant key, chosen per request.
 */
import type { CatalogOptions, ReloadReport, SkillContext, SkillFiles, SkillSource, SkillWarning } from '../types.js';

/**
 * Which tenant a request belongs to, from its context (`ctx.tenant` set by an adapter's
 * `context(request)` option, `ctx.auth`, a header). `undefined` means no tenant: the request sees
 * no skills. A key that is not a plain single segment is refused the same way (see `tenantKeyProblem`).
 */
export type TenantKeyFunction = (ctx: SkillContext) => string | undefined | Promise<string | undefined>;

interface TenantCatalogsCommon {
  key: TenantKeyFunction;
  /**
   * Tenants kept in memory at most; the least recently used one is evicted first. Default 100.
   * A tenant whose storage holds nothing (no skill, no warning) is never kept, so it takes no place.
   */
  max?: number;
  /** Evict a tenant not used for this many milliseconds. Default 10 minutes; `Infinity` for never. */
  idleMs?: number;
  /**
   * Refused tenant keys (once per key), failed loads, and the warnings of every tenant's catalog
   * (their message starts with `tenant <key>:`). Default: `catalog.onWarning`, else `console.warn`.
   */
  onWarning?: (warning: SkillWarning) => void;
}

/** Each tenant's skills come from its own storage; a `SkillCatalog` is loaded from it. */
export interface TenantStorageOptions extends TenantCatalogsCommon {
  /** The storage of one tenant, e.g. `key => fsStorage(path.join(root, key))`. Called once per load. */
  storage: (key: string) => SkillFiles | Promise<SkillFiles>;
  load?: never;
  /**
   * Options for every tenant's catalog (`SkillCatalog.load`); its `baseUri` is the tenant source's
   * too, so every tenant serves under it. Unlike a single catalog, the default
   * `cacheHint.cacheScope` is `'private'`: results differ per tenant and must not be shared by caches.
   */
  catalog?: CatalogOptions;
  /** Reload a tenant's catalog whenever its storage reports a change (storages with `watch()`). Default false. */
  watch?: boolean;
  /** Close a tenant's storage (`storage.close()`) when its catalog is evicted or fails to load. Default true. */
  closeStorage?: boolean;
}

/** Each tenant's skills come from a `SkillSource` the app builds (a catalog with its own options, generated entries, …). */
export interface TenantLoadOptions extends TenantCatalogsCommon {
  /**
   * Build the source of one tenant. When evicted, its `close()` is called if it has one. To reload,
   * its `reload()` is called if it has one; otherwise `load(key)` runs again and replaces it.
   */
  load: (key: string) => Promise<ClosableSkillSource>;
  storage?: never;
  catalog?: never;
  watch?: never;
  closeStorage?: never;
}

export type TenantCatalogsOptions = TenantStorageOptions | TenantLoadOptions;

/** A `SkillSource` that may hold resources to free, and may know how to reload itself. */
export type ClosableSkillSource = SkillSource & {
  close?(): void | Promise<void>;
  reload?(): Promise<ReloadReport>;
};

/**
 * A `SkillSource` that answers each request from the catalog of the request's tenant. Attach it
 * like any source (or pass it as an adapter's `source` option).
 */
export interface TenantSource extends SkillSource {
  /**
   * Run `use` with the source serving the context's tenant (an empty catalog for no tenant), kept
   * in memory until `use` settles. A request is answered from that one source: its result and the
   * result's cache hint (`ttlMs`, `cacheScope`) both come from it. Rejects with `-32603` when the
   * tenant's source cannot be loaded, or after `close()`.
   */
  resolve<T>(ctx: SkillContext, use: (source: SkillSource) => T | Promise<T>): Promise<T>;
  /** The tenant key of a context, after the checks; `undefined` for no tenant (or a refused key). */
  keyOf(ctx: SkillContext): Promise<string | undefined>;
  /** The source serving `key` (a `SkillCatalog` with the `storage` option), loading it when it is not in memory. */
  sourceFor(key: string): Promise<SkillSource>;
  /** Tenants in memory (loaded or loading), least recently used first. */
  readonly loaded: readonly string[];
  /**
   * Reload one tenant's catalog from its storage, all or nothing (on failure the old one keeps
   * serving and the promise rejects). Resolves `undefined` when that tenant is not in memory: its
   * next request loads it fresh.
   */
  reload(key: string): Promise<ReloadReport | undefined>;
  /**
   * Reload every tenant in memory. Resolves to each tenant's report; when any fails, rejects with
   * an `AggregateError` of the failures after trying them all (those keep their old catalog).
   */
  reload(): Promise<Map<string, ReloadReport>>;
  /** Drop one tenant from memory now (freed once its requests in flight finish). */
  evict(key: string): Promise<void>;
  /**
   * Sessions hear only their own tenant's changes: the tenant is taken from `ctx` when given, else
   * from the context of the request that connects the server (the fields of an adapter's
   * `context(request)` option). A server whose tenant cannot be told that way hears nothing.
   */
  onListChanged(listener: () => void, ctx?: SkillContext): () => void;
  /** Evict every tenant, free what they hold and stop the idle timer. Later calls get `-32603`. */
  close(): Promise<void>;
}
