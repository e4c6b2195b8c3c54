/**
 * Loading one tenant and letting go of it: its source (a catalog from its storage, or the app's
 * own), the forwarding of its list changes and its storage watch, and what to close when it leaves.
 */
import { SkillCatalog } from '../catalog/catalog.js';
import { describeError } from '../text/error-text.js';
import { StorageError, internalError } from '../errors.js';
import { memoryStorage } from '../storage/memory.js';
import type { CatalogOptions, SkillFiles, SkillWarning, SkillWarningCode } from '../types.js';
import { tell } from '../warnings/told.js';
import { fingerprint } from './fingerprint.js';
import type { TenantListeners } from './listeners.js';
import type { NormalizedTenantOptions } from './options.js';
import type { ClosableSkillSource } from './types.js';

/** One tenant in memory: its source, and how to let go of it. */
export interface LoadedTenant {
  source: ClosableSkillSource;
  /** The storage created for it, closed with it (the `storage` option with `closeStorage`). */
  storage?: SkillFiles;
  /** Stop forwarding its list changes and watching its storage. */
  stop(): void;
  /** Its storage holds nothing: it answers the requests that loaded it and is not kept in memory. */
  empty?: true;
}

export const NO_SKILLS: SkillWarningCode = 'no-skills';
// Clients learn only that their own tenant failed; the cause goes to onWarning.
const LOAD_FAILED = "This tenant's skills could not be loaded; try again later";

type Origin = NormalizedTenantOptions['origin'];
type StorageOrigin = Extract<Origin, { kind: 'storage' }>;

export class TenantLoader {
  readonly #origin: Origin;
  readonly #warn: (warning: SkillWarning) => void;
  readonly #listeners: TenantListeners;

  constructor(origin: Origin, warn: (warning: SkillWarning) => void, listeners: TenantListeners) {
    this.#origin = origin;
    this.#warn = warn;
    this.#listeners = listeners;
  }

  /** Load `key`'s source; a failure is reported and rejects with the `-32603` its requests get. */
  async load(key: string): Promise<LoadedTenant> {
    const origin = this.#origin;
    let storage: SkillFiles | undefined;
    try {
      if (origin.kind === 'load') return this.#adopt(key, await loadSource(origin.load, key));
      storage = await origin.storage(key);
      return await this.#loadCatalog(origin, key, storage);
    } catch (error) {
      if (origin.kind === 'storage' && origin.closeStorage) await closeQuietly(storage);
      const path = (error as { path?: unknown })?.path;
      this.#warn({
        code: 'tenant-load-failed',
        tenant: key,
        message: `tenant ${key}: skills could not be loaded (its requests get -32603 and the next one tries again): ${describeError(error)}`,
        ...(typeof path === 'string' ? { path } : {}),
      });
      throw Object.assign(internalError(LOAD_FAILED), { cause: error });
    }
  }

  /** Free what a tenant held once it left memory, remembering what its listeners saw. */
  async free(key: string, loaded: LoadedTenant): Promise<void> {
    this.#listeners.remember(key, () => fingerprint(loaded.source));
    loaded.stop();
    try {
      await loaded.source.close?.();
    } finally {
      await loaded.storage?.close?.();
    }
  }

  async #loadCatalog(origin: StorageOrigin, key: string, storage: SkillFiles): Promise<LoadedTenant> {
    const catalogWarn = origin.catalog.onWarning ?? this.#warn;
    const catalog = await loadOrEmpty(storage, {
      ...origin.catalog,
      // A tenant with no skills is normal here (a made-up key, say): not a warning per tenant.
      onWarning: (w: SkillWarning) => {
        if (w.code !== NO_SKILLS) catalogWarn({ ...w, tenant: key, message: `tenant ${key}: ${w.message}` });
      },
    });
    if (!holdsNothing(catalog)) return this.#adopt(key, catalog, storage);
    // Any key a client makes up lands here: it is neither watched nor kept, so it costs one
    // listing and never takes the place of a tenant that has skills.
    this.#listeners.reloaded(key, () => fingerprint(catalog));
    return { source: catalog, ...(origin.closeStorage ? { storage } : {}), stop() {}, empty: true };
  }

  /** Keep a loaded source: forward its list changes to its tenant's listeners, and watch its storage if asked. */
  #adopt(key: string, source: ClosableSkillSource, storage?: SkillFiles): LoadedTenant {
    const origin = this.#origin;
    const unsubscribe = typeof source.onListChanged === 'function' ? source.onListChanged(() => this.#listeners.notify(key)) : undefined;
    const unwatch = origin.kind === 'storage' && origin.watch ? this.#watch(source as SkillCatalog) : undefined;
    this.#listeners.reloaded(key, () => fingerprint(source));
    return {
      source,
      ...(origin.kind === 'storage' && origin.closeStorage ? { storage } : {}),
      stop() {
        unsubscribe?.();
        unwatch?.();
      },
    };
  }

  #watch(catalog: SkillCatalog): (() => void) | undefined {
    try {
      return catalog.watch();
    } catch (error) {
      // Told once per loader (warnings/codes.ts): every tenant's storage is the same kind.
      tell(this, this.#warn, { code: 'watch-unsupported', message: `tenant catalogs are not watched: ${describeError(error)}` });
      return undefined;
    }
  }
}

async function loadSource(load: (key: string) => Promise<ClosableSkillSource>, key: string): Promise<ClosableSkillSource> {
  const source = await load(key);
  if (!source || typeof source.list !== 'function' || typeof source.get !== 'function' || typeof source.read !== 'function') {
    throw new TypeError(
      `skillmount: tenantCatalogs(): load(${JSON.stringify(key)}) must resolve to a SkillSource (list, get and read), ` +
        `got ${source === null ? 'null' : typeof source}`,
    );
  }
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

async function closeQuietly(storage: SkillFiles | undefined): Promise<void> {
  try {
    await storage?.close?.();
  } catch {
    // The load failure is what gets reported; a storage that also fails to close adds nothing.
  }
}
