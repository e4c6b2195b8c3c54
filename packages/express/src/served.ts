import { SkillCatalog, SkillProtocolError, type ReloadReport, type SkillSource, type SkillWarning } from '@skillmount/core';
import { deferredSource, JsonRpcErrorCode, type SkillsOrigin as Served } from '@skillmount/core/adapter';

/** The skills a router serves, and their lifecycle: loading, reloading, watching, closing. */
export interface ServedSkills {
  /** The latest load; resolves to what is served. */
  readonly ready: Promise<SkillSource>;
  /** What is served, once loaded. */
  readonly loaded: SkillSource | undefined;
  /** The catalog, once loaded; undefined for a custom source. */
  readonly catalog: SkillCatalog | undefined;
  /** A source to attach before the load has finished: every call waits for it. */
  readonly pending: SkillSource;
  reload(): Promise<ReloadReport>;
  /** Stop watching; with `storage`, also close the catalog loaded here and the storage itself. */
  close(): Promise<void>;
}

export function serveSkills(served: Served, watch: boolean, warn: (warning: SkillWarning) => void): ServedSkills {
  switch (served.kind) {
    case 'storage':
      return loadFromStorage(served, watch, warn);
    case 'catalog': {
      const { catalog } = served;
      const stopWatching = watch ? catalog.watch() : undefined;
      const ready = Promise.resolve<SkillSource>(catalog);
      return { ready, loaded: catalog, catalog, pending: catalog, reload: () => catalog.reload(), close: async () => stopWatching?.() };
    }
    case 'source': {
      const { source } = served;
      // A SkillCatalog given as `source` is still a catalog (branded, so one from another copy of core is too), as on Fastify.
      const catalog = source instanceof SkillCatalog ? source : undefined;
      return {
        ready: Promise.resolve(source),
        loaded: source,
        catalog,
        pending: source,
        reload: () =>
          catalog
            ? catalog.reload()
            : Promise.reject(new Error('@skillmount/express: reload() needs a catalog, and this router serves a custom SkillSource; reload it yourself')),
        close: async () => undefined,
      };
    }
  }
}

function loadFromStorage(served: Extract<Served, { kind: 'storage' }>, watch: boolean, warn: (warning: SkillWarning) => void): ServedSkills {
  let catalog: SkillCatalog | undefined;
  let closed = false;
  // Servers attached before the load subscribe here; the loaded catalog's changes are passed on.
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of [...listeners]) listener();
  };

  const load = (): Promise<SkillCatalog> => {
    // The catalog is the router's: its warnings go where the router's go.
    const loading = SkillCatalog.load(served.storage, { ...served.catalogOptions, onWarning: warn }).then(
      (loaded) => {
        catalog = loaded;
        if (closed) {
          loaded.close();
          return loaded;
        }
        loaded.onListChanged(notify);
        if (watch) loaded.watch();
        return loaded;
      },
      (error: unknown) => {
        if (closed) throw error; // the storage was closed under it: nothing to report
        const path = (error as { path?: unknown })?.path;
        warn({ code: 'load-failed', message: `skills catalog failed to load: ${describe(error)}`, ...(typeof path === 'string' ? { path } : {}) });
        throw error;
      },
    );
    // Whoever cares awaits `ready`; a failure nobody awaits must not crash the process as an unhandled rejection.
    loading.catch(() => undefined);
    return loading;
  };
  let current = load();

  const waitForCatalog = async (): Promise<SkillCatalog> => {
    try {
      return await current;
    } catch {
      throw new SkillProtocolError(JsonRpcErrorCode.InternalError, 'skills catalog failed to load');
    }
  };

  // Answered through the catalog once loaded, as the catalog itself: its entries stay checked, and its cache hint is used.
  const pending = deferredSource({
    source: waitForCatalog,
    onListChanged: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    warn: (warning) => (catalog ? catalog.warn(warning) : warn(warning)),
    ...(served.catalogOptions.baseUri !== undefined ? { baseUri: served.catalogOptions.baseUri } : {}),
  });

  return {
    get ready() {
      return current;
    },
    get loaded() {
      return catalog;
    },
    get catalog() {
      return catalog;
    },
    pending,
    async reload() {
      if (closed) throw new Error('@skillmount/express: reload() was called after close()');
      const attempt = current;
      let loaded: SkillCatalog;
      try {
        loaded = await attempt;
      } catch {
        // The first load failed (storage down at start-up, say): load again rather than stay broken.
        if (current === attempt) current = load();
        const fresh = await current;
        const added = fresh.entries.map((entry) => entry.uri);
        if (added.length > 0) notify();
        return { added, removed: [], changed: [], listChanged: added.length > 0 };
      }
      return loaded.reload();
    },
    async close() {
      closed = true;
      listeners.clear();
      catalog?.close();
      // Given as `storage`, it is the router's: a pool or client it holds would keep the process alive.
      await served.storage.close?.();
    },
  };
}

export function describe(error: unknown): string {
  if (error instanceof Error) return error.cause instanceof Error ? `${error.message} (cause: ${error.cause.message})` : error.message;
  return String(error);
}
