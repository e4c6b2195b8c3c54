import express, { type NextFunction, type Request, type Response } from 'express';
import {
  attach,
  consoleWarning,
  createSkillsEndpoint,
  isModernRequest,
  runWithSkillContext,
  type AttachOptions,
  type SkillsEndpoint,
  type SkillsEndpointOptions,
  type SkillSource,
  type SkillWarning,
} from '@skillmount/core';
import {
  checkAdapterOptions,
  checkServerSurfaces,
  contextFields,
  contextOfRequest,
  discardBody,
  sendError,
  JsonRpcErrorCode,
  setClientAddress,
  type CheckedAdapterOptions,
} from '@skillmount/core/adapter';
import { parsedBody } from './body.js';
import { shortcutEndpoint } from './endpoint-shortcut.js';
import { describe, serveSkills, type ServedSkills } from './served.js';
import { watchForMissedModern } from './modern-missed.js';
import { mountWellKnown } from './well-known.js';
import type { SkillsMiddlewareOptions, SkillsRouter } from './types.js';

import { checkLogger, loggerWarnings } from './logger.js';
import { routerHealth } from './health.js';

const NAME = '@skillmount/express';
const ENDPOINT_METHODS = new Set(['GET', 'POST', 'DELETE']);

/**
 * An Express router serving an MCP Streamable HTTP endpoint with Agent Skills at its mount path:
 * `app.use('/mcp', skillsMiddleware({ storage: fsStorage('./skills') }))`. Options are checked
 * here, at once; with `storage` the catalog loads in the background and early requests wait for it.
 *
 * @example
 * ```ts
 * import express from 'express';
 * import { skillsMiddleware } from '@skillmount/express';
 * import { fsStorage } from '@skillmount/storage-fs';
 *
 * const skills = skillsMiddleware({ storage: fsStorage('./skills') });
 * const app = express();
 * app.use('/mcp', skills);
 * await skills.ready; // fail at start-up if the skills cannot be loaded
 * app.listen(3000, '127.0.0.1');
 * ```
 * @throws {@link @skillmount/core!OptionError | OptionError} when an option is invalid. A catalog that fails to load is not thrown here:
 * `ready` rejects with its {@link @skillmount/core!StorageError | StorageError} or
 * {@link @skillmount/core!CatalogError | CatalogError}, and requests get an internal error.
 */
export function skillsMiddleware(options: SkillsMiddlewareOptions): SkillsRouter {
  // Every option is shared with the other adapters; core checks them, naming this package.
  const checked = checkAdapterOptions<Request>(options, NAME);
  // Every warning of the router, its catalog and its endpoint: to onWarning or the app's logger,
  // else the console (Express has no logger of its own).
  const logger = checkLogger(options.logger, options.onWarning);
  const warn = checked.onWarning ?? (logger ? loggerWarnings(logger) : consoleWarning);
  const skills = serveSkills(checked.origin, checked.watch, warn);
  const attachOptions = attachOptionsOf(checked, warn);
  const ready = readyWithSurfaces(skills, checked, attachOptions, warn);
  let endpoint: SkillsEndpoint | undefined;
  let closing: Promise<void> | undefined;

  const contextOf = (req: Request) => contextFields(checked.context, req, NAME);

  // Created once the source is loaded, so a catalog is served as itself.
  const endpointFor = (source: SkillSource) => (endpoint ??= createSkillsEndpoint(endpointOptions(checked, source, attachOptions)));

  const handle = async (req: Request, res: Response, next: NextFunction) => {
    // First, before waiting for the catalog or running the app's context function.
    const refusal = checked.guard.check(req);
    if (refusal) {
      sendError(res, refusal.status, refusal.code, refusal.message, refusal.headers);
      discardBody(req);
      return;
    }
    // Once loaded, the source is taken as it is: no wait on every request.
    let source = ready.loaded();
    if (source === undefined) {
      try {
        source = await ready();
      } catch {
        // The cause was reported through onWarning when the load failed; clients learn only that it did.
        return sendError(res, 500, JsonRpcErrorCode.InternalError, 'skills catalog failed to load');
      }
    }
    if (closing) return sendError(res, 503, JsonRpcErrorCode.ServerError, 'Service unavailable: this skills endpoint is closed');
    let context: Record<string, unknown> = {};
    if (checked.context) {
      try {
        context = await contextOf(req);
      } catch (error) {
        return next(error); // the app's own failure (auth, say): its error handlers decide the answer
      }
    }
    const body = parsedBody(req);
    // The transport hands req.url to handlers as requestInfo.url; inside a router it lacks the mount path.
    req.url = req.originalUrl;
    // Per-client shares count Express's address, which honours the app's trust proxy setting.
    setClientAddress(req, req.ip);
    try {
      await endpointFor(source).handle(req, res, body, context);
    } catch (error) {
      // The endpoint has already answered 500 with a JSON-RPC error.
      warn({ code: 'request-failed', message: `${NAME}: MCP request failed: ${describe(error)}` });
    }
  };

  const router = express.Router() as SkillsRouter;
  mountWellKnown(router, { enabled: checked.wellKnown, skills, closed: () => closing !== undefined, contextOf, endpointFor, warn });
  const serve = (req: Request, res: Response, next: NextFunction) => {
    handle(req, res, next).catch(next); // Express 4 does not catch a rejected handler itself
  };
  router.all('/', (req, res, next) => {
    // The methods of MCP's Streamable HTTP; any other (OPTIONS, PUT, HEAD) is the app's to answer, as on Fastify's route.
    if (!ENDPOINT_METHODS.has(req.method)) return next();
    serve(req, res, next);
  });
  shortcutEndpoint(router, ENDPOINT_METHODS, serve);

  Object.defineProperties(router, {
    ready: { get: () => ready(), enumerable: true },
    catalog: { get: () => skills.catalog, enumerable: true },
    entries: { get: () => skills.catalog?.entries ?? [], enumerable: true },
  });
  const run = runIn(contextOf);
  const handleModern = async (req: Request, res: Response): Promise<boolean> => {
    const body = parsedBody(req);
    if (!isModernRequest(req, body)) return false;
    let source: SkillSource;
    try {
      source = await ready();
    } catch {
      sendError(res, 500, JsonRpcErrorCode.InternalError, 'skills catalog failed to load');
      return true;
    }
    if (closing) {
      sendError(res, 503, JsonRpcErrorCode.ServerError, 'Service unavailable: this skills endpoint is closed');
      return true;
    }
    const context = await contextOf(req);
    setClientAddress(req, req.ip);
    return endpointFor(source).handleModern(req, res, body, context);
  };
  const contextNotApplied = contextNotAppliedOnce(warn);
  // A 2026-07-28 request that reaches an attached server's transport skipped handleModern: reported once.
  const watchModern = watchForMissedModern(warn);
  const readiness = routerHealth(skills, () => closing !== undefined);
  readiness.follow();
  const members: Pick<SkillsRouter, 'reload' | 'attach' | 'run' | 'close' | 'handleModern' | 'health'> = {
    handleModern,
    reload: () => {
      const reloading = skills.reload();
      readiness.follow();
      return reloading;
    },
    health: () => readiness.health(),
    attach: (server) => {
      watchModern(server);
      return attach(server, skills.loaded ?? skills.pending, checked.context ? { ...attachOptions, onContextMissing: contextNotApplied } : attachOptions);
    },
    run,
    close: () =>
      (closing ??= (async () => {
        await endpoint?.close();
        await skills.close();
      })()),
  };
  return Object.assign(router, members);
}

/**
 * `skills.ready`, once the app's server took the tools and prompts: a tool name it already uses
 * rejects it (and requests get 500), checked once at start, not per request. `loaded()` is what
 * it resolved with, once it has.
 */
function readyWithSurfaces(skills: ServedSkills, checked: CheckedAdapterOptions<Request>, options: AttachOptions, warn: (w: SkillWarning) => void) {
  const surfaces = skills.ready.then(
    (source) => checkServerSurfaces(checked.server, source, options),
    () => undefined, // a failed load is reported by the load
  );
  surfaces.catch((error) => warn({ code: 'load-failed', message: `${NAME}: the app's server cannot take the skills' tools or prompts: ${describe(error)}` }));
  // A load that succeeded is final (a reload swaps the catalog's contents, not the catalog): kept once seen.
  let settled: SkillSource | undefined;
  const ready = async (): Promise<SkillSource> => {
    const source = await skills.ready;
    await surfaces;
    settled = source;
    return source;
  };
  return Object.assign(ready, { loaded: () => settled });
}

/** The endpoint's options: the adapter's checked options over the loaded `source`. */
function endpointOptions(checked: CheckedAdapterOptions<Request>, source: SkillSource, attach: AttachOptions): SkillsEndpointOptions {
  return {
    source,
    server: checked.server,
    sessions: checked.sessions,
    sessionIdleMs: checked.sessionIdleMs,
    maxSessions: checked.maxSessions,
    maxSessionsPerClient: checked.maxSessionsPerClient,
    maxListenStreams: checked.maxListenStreams,
    maxListenStreamsPerClient: checked.maxListenStreamsPerClient,
    listenLifetimeMs: checked.listenLifetimeMs,
    wellKnown: checked.wellKnown,
    attach,
    allowedHosts: checked.allowedHosts,
    allowedOrigins: checked.allowedOrigins,
    bodyLimit: checked.guard.bodyLimit,
    bodyTimeout: checked.guard.bodyTimeout,
    packageName: NAME,
  };
}

/** `run(req, fn)`: `fn` with the `context` option applied to `req`. */
function runIn(contextOf: (req: Request) => Promise<Record<string, unknown>>): SkillsRouter['run'] {
  return async function run<T>(req: Request, fn: () => T): Promise<Awaited<T>> {
    const context = await contextOf(req);
    return await runWithSkillContext(contextOfRequest(req as Request & { auth?: unknown }, context), fn);
  };
}

/** On the app's own route the context option applies only inside run(req, fn): say once when it was left out. */
function contextNotAppliedOnce(warn: (warning: SkillWarning) => void): () => void {
  let warned = false;
  return () => {
    if (warned) return;
    warned = true;
    const warning: SkillWarning = {
      code: 'context-not-applied',
      message:
        '@skillmount/express: a skills request on your own MCP route reached the skill source without the "context" option applied, ' +
        'so the source saw none of its fields (a per-tenant source then serves no skills). Wrap the transport call in run: ' +
        'await skills.run(req, () => transport.handleRequest(req, res, req.body)). Reported once.',
    };
    warn(warning);
  };
}

/** What `attach` takes of the router's options: the one warning sink, `strict`, `visible`, `tools`, `prompts` and `search`. */
function attachOptionsOf(checked: CheckedAdapterOptions<Request>, warn: (warning: SkillWarning) => void): AttachOptions {
  return {
    onWarning: warn,
    ...checked.reads,
    ...(checked.strict !== undefined ? { strict: checked.strict } : {}),
    ...(checked.visible !== undefined ? { visible: checked.visible } : {}),
    ...(checked.instructions !== undefined ? { instructions: checked.instructions } : {}),
    ...(checked.tools ? { tools: true } : {}),
    ...(checked.prompts ? { prompts: true } : {}),
    ...(checked.search ? { search: true } : {}),
  };
}
