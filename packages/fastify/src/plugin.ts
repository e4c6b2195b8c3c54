import {
  attach,
  createSkillsEndpoint,
  isModernRequest,
  runWithSkillContext,
  SkillCatalog,
  type AttachOptions,
  type SkillEntry,
  type SkillSource,
  type SkillsEndpoint,
} from '@skillmount/core';
import { checkServerSurfaces, contextOfRequest, HEALTH_STOPPING, healthOf, setClientAddress } from '@skillmount/core/adapter';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { requestContext } from './context.js';
import { keepHookHeaders } from './hook-headers.js';
import { NAME, normalizeOptions, type SkillsOrigin } from './options.js';
import { mountEndpoint } from './route.js';
import { mountWellKnown } from './well-known.js';
import { refuseRoutesOnEndpoint } from './route-conflict.js';
import { watchForMissedModern } from './modern-missed.js';
import type { SkillsDecoration, SkillsPluginOptions } from './types.js';
import { contextNotAppliedOnce, noRequestTimeout, pluginWarnings, type Warn } from './warnings.js';

const NO_ENTRIES: readonly SkillEntry[] = Object.freeze([]);

const skills: FastifyPluginAsync<SkillsPluginOptions> = async (app, rawOptions) => {
  const options = normalizeOptions(rawOptions);
  if (app.hasDecorator('skills')) {
    throw new Error(`${NAME}: app.skills is already defined; register the plugin once per Fastify context`);
  }
  const warn = pluginWarnings(app, options.onWarning);
  const { source, catalog, owned } = await resolveSource(options.origin, warn);
  // The `storage` option hands the storage to the plugin: it closes with the app (a pool or client
  // it created would otherwise keep the process alive). A catalog or source passed in stays the app's.
  const release = async () => {
    if (!owned) return;
    catalog!.close();
    if (options.origin.kind === 'storage') await options.origin.storage.close?.();
  };

  let stopWatching: (() => void) | undefined;
  if (options.watch) {
    try {
      stopWatching = catalog!.watch();
    } catch (error) {
      await release();
      throw new Error(`${NAME}: could not watch the storage for changes: ${(error as Error).message}`, { cause: error });
    }
  }

  // Every warning of the endpoint and of attached servers goes where the plugin's own go.
  const attachOptions: AttachOptions = {
    onWarning: warn,
    ...options.reads,
    ...(options.strict !== undefined ? { strict: options.strict } : {}),
    ...(options.visible !== undefined ? { visible: options.visible } : {}),
    // Also for app.skills.attach(server): the skills named in that server's instructions.
    ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
    ...(options.tools ? { tools: true } : {}),
    ...(options.prompts ? { prompts: true } : {}),
    ...(options.search ? { search: true } : {}),
  };
  try {
    // A tool name the app's server already uses fails the registration, not a request.
    await checkServerSurfaces(options.server, source, attachOptions);
  } catch (error) {
    stopWatching?.();
    await release();
    throw error;
  }
  let endpoint: SkillsEndpoint | undefined;
  const endpointOf = () =>
    (endpoint ??= createSkillsEndpoint({
      source,
      server: options.server,
      sessions: options.sessions,
      sessionIdleMs: options.sessionIdleMs,
      maxSessions: options.maxSessions,
      maxSessionsPerClient: options.maxSessionsPerClient,
      maxListenStreams: options.maxListenStreams,
      maxListenStreamsPerClient: options.maxListenStreamsPerClient,
      listenLifetimeMs: options.listenLifetimeMs,
      wellKnown: options.wellKnown,
      attach: attachOptions,
      allowedHosts: options.allowedHosts,
      allowedOrigins: options.allowedOrigins,
      bodyLimit: options.guard.bodyLimit,
      bodyTimeout: options.guard.bodyTimeout,
      packageName: NAME,
    }));
  // With path: false, a 2026-07-28 request the app's route answers without handleModern is reported once.
  const modernWatch = options.path === false ? watchForMissedModern(app, warn) : undefined;
  // On the app's own route the context option applies only inside app.skills.run: say once when it was left out.
  const contextNotApplied = contextNotAppliedOnce(warn);
  let stopping = false;
  const decoration: SkillsDecoration = {
    source,
    catalog,
    get entries() {
      return catalog?.entries ?? NO_ENTRIES;
    },
    async reload() {
      if (!catalog) {
        throw new Error(
          `${NAME}: app.skills.reload() needs a catalog, ` + `but this app serves a custom source (the "source" option); refresh that source yourself`,
        );
      }
      return catalog.reload();
    },
    attach: (server) => attach(server, source, options.context ? { ...attachOptions, onContextMissing: contextNotApplied } : attachOptions),
    health: () => (stopping ? HEALTH_STOPPING : healthOf(source)),
    async run(request, fn) {
      return runWithSkillContext(contextOfRequest(request.raw, await requestContext(request, options.context)), fn);
    },
    async handleModern(request, reply) {
      if (!isModernRequest(request.raw, request.body)) return false;
      modernWatch?.answered(request);
      const fields = await requestContext(request, options.context);
      keepHookHeaders(reply);
      reply.hijack();
      setClientAddress(request.raw, request.ip);
      return endpointOf().handleModern(request.raw, reply.raw, request.body, fields);
    },
  };
  app.decorate('skills', decoration);

  if (options.path !== false) {
    refuseRoutesOnEndpoint(app);
    mountEndpoint(app, options.path, endpointOf(), options, warn);
    if (app.server.requestTimeout === 0) warn(noRequestTimeout());
  }

  if (options.wellKnown) mountWellKnown(app, endpointOf, options, warn);

  // preClose runs before Fastify waits for open connections: session streams must end first.
  app.addHook('preClose', async () => {
    stopping = true;
    await endpoint?.close();
  });
  // Never close a catalog or source the app passed in: only stop watching it.
  app.addHook('onClose', async () => {
    if (owned) await release();
    else stopWatching?.();
  });
};

async function resolveSource(origin: SkillsOrigin, warn: Warn): Promise<{ source: SkillSource; catalog: SkillCatalog | undefined; owned: boolean }> {
  switch (origin.kind) {
    case 'storage': {
      // The catalog options were checked at registration, named for this package; the catalog is the plugin's, so are its warnings.
      try {
        const catalog = await SkillCatalog.load(origin.storage, { ...origin.catalogOptions, onWarning: warn });
        return { source: catalog, catalog, owned: true };
      } catch (error) {
        // The registration fails and no onClose hook will run: let go of the storage now.
        await origin.storage.close?.().catch(() => undefined);
        throw error;
      }
    }
    case 'catalog':
      return { source: origin.catalog, catalog: origin.catalog, owned: false };
    case 'source':
      // Branded: a catalog from another copy of core (ESM beside CJS) is recognised too.
      return { source: origin.source, catalog: origin.source instanceof SkillCatalog ? origin.source : undefined, owned: false };
  }
}

/**
 * Serves Agent Skills over MCP from a Fastify 5 app: `await app.register(skillsPlugin, { storage })`.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * import { skillsPlugin } from '@skillmount/fastify';
 * import { fsStorage } from '@skillmount/storage-fs';
 *
 * const app = Fastify();
 * await app.register(skillsPlugin, { storage: fsStorage('./skills'), sessions: true });
 * await app.listen({ port: 3000, host: '127.0.0.1' });
 * console.log(`${app.skills.entries.length} skills at http://127.0.0.1:3000/mcp`);
 * ```
 * @throws {@link @skillmount/core!OptionError | OptionError} (the registration fails) when an option is invalid.
 * @throws {@link @skillmount/core!StorageError | StorageError} or, under `strict`,
 * {@link @skillmount/core!CatalogError | CatalogError} (the registration fails) when the
 * catalog cannot be loaded from `storage`.
 * @throws Error (the registration fails) when the plugin is already registered in this context, a route already
 * exists at its path, or the storage cannot be watched.
 */
export const skillsPlugin: FastifyPluginAsync<SkillsPluginOptions> = fp(skills, { fastify: '5.x', name: NAME });
