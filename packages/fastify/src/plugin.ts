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
import { contextOfRequest } from '@skillmount/core/adapter';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { requestContext } from './context.js';
import { NAME, normalizeOptions, type SkillsOrigin } from './options.js';
import { mountEndpoint } from './route.js';
import type { SkillsDecoration, SkillsPluginOptions } from './types.js';

const NO_ENTRIES: readonly SkillEntry[] = Object.freeze([]);

const skills: FastifyPluginAsync<SkillsPluginOptions> = async (app, rawOptions) => {
  const options = normalizeOptions(rawOptions);
  if (app.hasDecorator('skills')) {
    throw new Error(`${NAME}: app.skills is already defined; register the plugin once per Fastify context`);
  }
  const { source, catalog, owned } = await resolveSource(options.origin);

  let stopWatching: (() => void) | undefined;
  if (options.watch) {
    try {
      stopWatching = catalog!.watch();
    } catch (error) {
      if (owned) catalog!.close();
      throw new Error(`${NAME}: could not watch the storage for changes: ${(error as Error).message}`, { cause: error });
    }
  }

  // With storage, the catalog already reports to onWarning; otherwise attach does.
  const attachOptions: AttachOptions = options.onWarning && options.origin.kind !== 'storage' ? { onWarning: options.onWarning } : {};
  let endpoint: SkillsEndpoint | undefined;
  const endpointOf = () =>
    (endpoint ??= createSkillsEndpoint({
      source,
      server: options.server,
      sessions: options.sessions,
      sessionIdleMs: options.sessionIdleMs,
      maxSessions: options.maxSessions,
      maxSessionsPerClient: options.maxSessionsPerClient,
      attach: attachOptions,
      allowedHosts: options.allowedHosts,
      bodyLimit: options.guard.bodyLimit,
      bodyTimeout: options.guard.bodyTimeout,
      packageName: NAME,
    }));
  const decoration: SkillsDecoration = {
    source,
    catalog,
    get entries() {
      return catalog?.entries ?? NO_ENTRIES;
    },
    async reload() {
      if (!catalog) {
        throw new Error(`${NAME}: app.skills.reload() needs a catalog, but this app serves a custom source (the "source" option); refresh that source yourself`);
      }
      return catalog.reload();
    },
    attach: (server) => attach(server, source, attachOptions),
    async run(request, fn) {
      return runWithSkillContext(contextOfRequest(request.raw, await requestContext(request, options.context)), fn);
    },
    async handleModern(request, reply) {
      if (!isModernRequest(request.raw, request.body)) return false;
      const fields = await requestContext(request, options.context);
      reply.hijack();
      return endpointOf().handleModern(request.raw, reply.raw, request.body, fields);
    },
  };
  app.decorate('skills', decoration);

  if (options.path !== false) {
    mountEndpoint(app, options.path, endpointOf(), options);
    if (app.server.requestTimeout === 0) {
      app.log.warn(
        `${NAME}: this Fastify server has no requestTimeout, so a client may hold a connection open by sending its headers slowly; set Fastify({ requestTimeout: 30000 }) (the MCP route's bodies are timed by the bodyTimeout option)`,
      );
    }
  }

  // preClose runs before Fastify waits for open connections: session streams must end first.
  app.addHook('preClose', async () => {
    await endpoint?.close();
  });
  // Never close what the app passed in; a catalog loaded here stops watching but leaves its storage open.
  app.addHook('onClose', async () => {
    if (owned) catalog!.close();
    else stopWatching?.();
  });
};

async function resolveSource(origin: SkillsOrigin): Promise<{ source: SkillSource; catalog: SkillCatalog | undefined; owned: boolean }> {
  switch (origin.kind) {
    case 'storage': {
      // The catalog options were checked at registration, named for this package.
      const catalog = await SkillCatalog.load(origin.storage, origin.catalogOptions);
      return { source: catalog, catalog, owned: true };
    }
    case 'catalog':
      return { source: origin.catalog, catalog: origin.catalog, owned: false };
    case 'source':
      // Branded: a catalog from another copy of core (ESM beside CJS) is recognised too.
      return { source: origin.source, catalog: origin.source instanceof SkillCatalog ? origin.source : undefined, owned: false };
  }
}

/** Serves Agent Skills over MCP from a Fastify 5 app: `await app.register(skillsPlugin, { storage })`. */
export const skillsPlugin: FastifyPluginAsync<SkillsPluginOptions> = fp(skills, { fastify: '5.x', name: NAME });
