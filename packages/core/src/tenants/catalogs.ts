/**
 * `TenantCatalogs`: the `SkillSource` that answers each request from its tenant's source. Each
 * request resolves its tenant once (`resolve`); the request handlers take the result and its
 * cache hint from the source it resolved to.
 */
import { describeError } from '../text/error-text.js';
import { contextFromExtra } from '../context/store.js';
import { directoryNotFound, internalError } from '../errors.js';
import { markRouted } from '../routing/routed-source.js';
import { tenantCacheChannel, tenantChannel, type TenantCacheMessage } from '../telemetry/channels.js';
import { traced } from '../telemetry/trace.js';
import type { ListSkillsParams, ReloadReport, SkillContext, SkillSource, SkillWarning } from '../types.js';
import { TenantCache } from './cache.js';
import { showKey, tenantKeyProblem } from './key.js';
import { TenantListeners } from './listeners.js';
import { TenantLoader, type LoadedTenant } from './loader.js';
import { NoTenantCatalog } from './no-tenant.js';
import type { NormalizedTenantOptions } from './options.js';
import { reloadEvery, reloadTenant } from './reload.js';
import { TenantKeys } from './request-key.js';
import type { ClosableSkillSource, TenantSource } from './types.js';

const CLOSED = 'The skills service is shutting down; try again later';

export class TenantCatalogs implements TenantSource {
  readonly #warn: (warning: SkillWarning) => void;
  readonly #keys: TenantKeys;
  readonly #listeners = new TenantListeners();
  readonly #noTenant: NoTenantCatalog;
  readonly #cache: TenantCache<LoadedTenant>;
  /** Every tenant's catalog serves under the same base (its `catalog.baseUri`); attach registers it once. */
  readonly baseUri?: string;

  constructor(options: NormalizedTenantOptions) {
    if (options.emptyCatalog.baseUri !== undefined) this.baseUri = options.emptyCatalog.baseUri;
    this.#warn = options.onWarning;
    this.#keys = new TenantKeys(options.key, options.onWarning);
    this.#noTenant = new NoTenantCatalog(options.emptyCatalog);
    const loader = new TenantLoader(options.origin, options.onWarning, this.#listeners);
    // Counted only for a subscriber: the count walks the cache.
    const publish = (message: Omit<TenantCacheMessage, 'cached'>) => {
      if (tenantCacheChannel.hasSubscribers) tenantCacheChannel.publish({ ...message, cached: this.#cache.admitted });
    };
    this.#cache = new TenantCache<LoadedTenant>(
      {
        load: (key) => (tenantChannel.hasSubscribers ? traced(tenantChannel, { tenant: key }, () => loader.load(key)) : loader.load(key)),
        admit: (_key, loaded) => loaded.empty !== true,
        free: (key, loaded) => loader.free(key, loaded),
        freeFailed: (key, error) =>
          this.#warn({ code: 'tenant-close-failed', tenant: key, message: `tenant ${key}: closing its evicted catalog failed: ${describeError(error)}` }),
        kept: (tenant) => publish({ change: 'kept', tenant }),
        left: (tenant, reason) => publish({ change: 'evicted', tenant, reason }),
      },
      options.max,
      options.idleMs,
    );
    markRouted(this);
  }

  /** Run `use` with the source of the context's tenant (the empty catalog for none), kept in memory until `use` settles. */
  async resolve<T>(ctx: SkillContext, use: (source: SkillSource) => T | Promise<T>): Promise<T> {
    if (this.#cache.closed) throw internalError(CLOSED);
    const key = await this.#keys.of(ctx);
    if (key === undefined) return use(await this.#noTenant.get());
    if (this.#cache.closed) throw internalError(CLOSED); // closed while the key was being resolved
    return this.#cache.use(key, (loaded) => use(loaded.source));
  }

  list(params: ListSkillsParams, ctx: SkillContext) {
    return this.resolve(ctx, (s) => s.list(params, ctx));
  }

  get(uri: string, ctx: SkillContext) {
    return this.resolve(ctx, (s) => s.get(uri, ctx));
  }

  read(uri: string, ctx: SkillContext) {
    return this.resolve(ctx, (s) => s.read(uri, ctx));
  }

  readDirectory(uri: string, params: ListSkillsParams, ctx: SkillContext) {
    return this.resolve(ctx, (s) => {
      // The same answer a catalog gives for a folder it does not have.
      if (typeof s.readDirectory !== 'function') throw directoryNotFound(uri);
      return s.readDirectory(uri, params, ctx);
    });
  }

  listResources(ctx: SkillContext) {
    return this.resolve(ctx, async (s) => (await s.listResources?.(ctx)) ?? []);
  }

  onListChanged(listener: () => void, ctx?: SkillContext): () => void {
    // Without an explicit context: the one the app set around the request that is connecting this server.
    const context = ctx ?? contextFromExtra(undefined);
    let stopped = false;
    let remove: (() => void) | undefined;
    this.#keys.of(context, true).then(
      (key) => {
        if (key !== undefined && !stopped) remove = this.#listeners.add(key, listener);
      },
      () => undefined, // such a server hears nothing
    );
    return () => {
      stopped = true;
      remove?.();
    };
  }

  warn(warning: SkillWarning): void {
    this.#warn(warning);
  }

  keyOf(ctx: SkillContext): Promise<string | undefined> {
    return this.#keys.of(ctx);
  }

  async sourceFor(key: string): Promise<SkillSource> {
    const problem = tenantKeyProblem(key);
    if (problem) throw new TypeError(`skillmount: tenant key ${showKey(key)} is not a plain single segment: ${problem}`);
    if (this.#cache.closed) throw new Error('skillmount: sourceFor() was called after close()');
    return this.#cache.use(key, (loaded): ClosableSkillSource => loaded.source);
  }

  get loaded(): readonly string[] {
    return this.#cache.keys;
  }

  reload(key: string): Promise<ReloadReport | undefined>;
  reload(): Promise<Map<string, ReloadReport>>;
  reload(key?: string): Promise<ReloadReport | undefined | Map<string, ReloadReport>> {
    const one = (k: string) => reloadTenant(this.#cache, this.#listeners, k);
    return key !== undefined ? one(key) : reloadEvery(this.#cache.keys, one);
  }

  async evict(key: string): Promise<void> {
    this.#cache.evict(key);
  }

  async close(): Promise<void> {
    await this.#cache.close();
    await this.#noTenant.close();
  }
}
