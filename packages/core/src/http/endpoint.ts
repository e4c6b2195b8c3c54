import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { consoleWarning } from '../warnings/console.js';
import { contextOfRequest, runWithSkillContext } from '../context/store.js';
import { answersAsAttached, followListChanges, serviceOptions, surfaceOptions, type AttachOptions } from '../server/attach.js';
import { SkillHandlers } from '../server/handlers.js';
import { publicService } from '../server/service.js';
import { warningSink } from '../warnings/sink.js';
import type { InstructionsOption, SkillSource, SkillsService, SkillWarning } from '../types.js';
import { VERSION } from '../version.js';
import { isModernRequest } from '../modern/envelope.js';
import { createModernPath } from '../modern/path.js';
import { batchRefusal } from './batch.js';
import { closeAfterAnswer, discardBody, isJsonContentType, readBody } from './body.js';
import { DirectAnswers } from './direct.js';
import { ResponseBudget } from './budget.js';
import { bodyNotJson, bodyTooLarge, bodyTooSlow, createRequestGuard } from './guard.js';
import { hideInternalErrorsOn } from '../sdk/internal-errors.js';
import { equipServer } from './equip.js';
import { sendError, sendRefusal } from './reply.js';
import { ServerPool } from './server-pool.js';
import { SessionTable } from './sessions.js';
import { stateful, stateless } from './streamable.js';
import type { HttpRefusal, RequestGuard, RequestGuardOptions } from './types.js';
import { JsonRpcErrorCode } from '../protocol/error-codes.js';
import { METHOD_SKILLS_LIST } from '../protocol/constants.js';
import { OptionError } from '../option-error.js';
import { HEALTH_STOPPING, healthOf, type SkillsHealth } from '../health/readiness.js';
import { describeValue } from '../option-checks.js';
import { wellKnownHandle, type WellKnownHandle, type WellKnownParts } from './well-known.js';

export { sendError } from './reply.js';

export interface SkillsEndpointOptions extends RequestGuardOptions {
  source: SkillSource;
  /**
   * Builds the app's own MCP server; skills are attached to each one. It runs for every request
   * that needs a server, skills requests included (so checks the app makes in it hold for them):
   * per POST when stateless, per session with `sessions`, per request on 2026-07-28. A skills
   * request is then answered from the source without a transport, unless the server answers
   * that method with a handler of the app's own (its `resources/read` with `attach.resources:
   * 'manual'`, or one it set after attach), which then answers it. Default: an empty McpServer,
   * which is never asked: skills requests are answered from the source.
   */
  server?: () => McpServer | Server | Promise<McpServer | Server>;
  /**
   * `false` (default): stateless, a server per POST that is not a skills request (the default
   * server is reused, one POST at a time, closed between them; `server` is called for each of
   * those POSTs); GET and DELETE answer 405.
   * `true`: MCP sessions (`Mcp-Session-Id`), which also carry `notifications/resources/list_changed`.
   */
  sessions?: boolean;
  /** Session mode: close a session idle for this long. Default 15 minutes. */
  sessionIdleMs?: number;
  /**
   * Session mode: sessions open at once. At the cap a new session replaces the least recently
   * used idle one (no request in flight, no open GET stream) of the client holding the most
   * sessions, never one of a client holding fewer than the newcomer would; only when none is
   * idle is it refused (503). Default 1000.
   */
  maxSessions?: number;
  /**
   * Session mode: sessions one client holds at once — the authenticated client (`auth.clientId`)
   * when the request carries auth info, else the client's address (see `setClientAddress` in
   * `@skillmount/core/adapter`; without it, the connection's). At the cap a new session of that
   * client replaces its least recently used idle one; only when all of them are busy is it
   * refused (429). Default 100.
   */
  maxSessionsPerClient?: number;
  /** Protocol 2026-07-28: `subscriptions/listen` streams open at once, across all clients; more are refused. Default 1024. */
  maxListenStreams?: number;
  /** Protocol 2026-07-28: `subscriptions/listen` streams one client (as for `maxSessionsPerClient`) holds at once. Default 32. */
  maxListenStreamsPerClient?: number;
  /** Protocol 2026-07-28: a `subscriptions/listen` stream ends with its closing result after this many milliseconds. Default 1 hour. */
  listenLifetimeMs?: number;
  /**
   * Whether the server's `instructions` name the skills each client may see (both eras: the
   * `initialize` answer, `server/discover`), after the app's own. `'auto'` (default): for clients
   * that did not declare the Skills extension; `true`: always; `false`: never; `{ maxBytes, intro }`:
   * as `'auto'`, with the section's budget (default 2048 UTF-8 bytes) and first sentence. Given
   * here, it overrides `attach.instructions`.
   */
  instructions?: InstructionsOption;
  /** Passed to `attach`. Its `onWarning` also receives the internal errors hidden from clients. */
  attach?: AttachOptions;
  /** Add the `read_skill` tool to every server (see `AttachOptions.tools`). Default `false`. */
  tools?: boolean;
  /** Serve each visible skill as an MCP prompt on every server (see `AttachOptions.prompts`). Default `false`. */
  prompts?: boolean;
  /** Add the `search_skills` tool to every server (see `AttachOptions.search`). Default `false`. */
  search?: boolean;
  /**
   * Publish the skills each request may see at `/.well-known/agent-skills/index.json`, for the
   * `skills` installer (`npx skills add <site>`): `handleWellKnown` (and `handle`) answer GET and
   * HEAD under that prefix. As public as `context` and `visible` make it. Each request builds the
   * `server`, whose checks hold; a server that answers `resources/read` or `skills/list` with a
   * handler of its own gets nothing published (the one 404, warning `well-known-not-served`).
   * Default `false`.
   */
  wellKnown?: boolean;
  /**
   * Prefixes option errors (`allowedHosts`, `allowedOrigins`, `bodyLimit`, `bodyTimeout`), so an adapter's
   * mistakes name the adapter. Default `'skillmount'`.
   */
  packageName?: string;
}

/** A framework-neutral Streamable HTTP MCP endpoint that serves skills; the adapters wrap it. */
export interface SkillsEndpoint {
  /**
   * Handle one HTTP request. `body` is the parsed JSON body when the framework already read it;
   * `undefined` lets the endpoint read it (up to `bodyLimit`). The Host/Origin and body-limit
   * checks run first, on every request.
   */
  handle(req: IncomingMessage & { auth?: unknown }, res: ServerResponse, body: unknown, context?: Record<string, unknown>): Promise<void>;
  /**
   * For apps that keep their own MCP route: answer a protocol 2026-07-28 request (with the same
   * checks as `handle`) and resolve true; resolve false for any other request, touching neither
   * `req` nor `res`, so the app's own code answers it. Without a parsed `body`, the
   * `MCP-Protocol-Version` header alone decides (every 2026-07-28 client sends it).
   */
  handleModern(req: IncomingMessage & { auth?: unknown }, res: ServerResponse, body: unknown, context?: Record<string, unknown>): Promise<boolean>;
  /**
   * With `wellKnown: true`: answer a request whose path has `/.well-known/agent-skills/` in it
   * (after any mount path) and resolve true; resolve false for any other request, or when
   * `wellKnown` is off, touching neither `req` nor `res`. Same Host/Origin checks, context and
   * response budget as `handle`.
   */
  handleWellKnown(req: IncomingMessage & { auth?: unknown }, res: ServerResponse, context?: Record<string, unknown>): Promise<boolean>;
  /**
   * The skills methods of this endpoint as plain functions, for another surface over the same
   * skills (an app's tool that reads a skill, say): the same answers as the MCP methods, through
   * the same `visible` rule and digest checks, and, called while the endpoint handles a request,
   * the same response budget.
   */
  readonly service: SkillsService;
  /**
   * Readiness, for a load balancer's or an orchestrator's probe (the app mounts it on a path of
   * its own): `ready: true` with status `ready`, or `degraded` while the catalog's last reload
   * failed (the previous catalog keeps serving); `ready: false` with status `stopping` once
   * `close()` was called. With a source other than a `SkillCatalog` (tenants, an app's own), ready
   * while served. See `SkillsHealth`.
   */
  health(): SkillsHealth;
  /** Close every open session, and end every `subscriptions/listen` stream with its closing result. */
  close(): Promise<void>;
}

// A server per stateless request would otherwise build (and compile for) its own Ajv instance.
let sharedValidator: AjvJsonSchemaValidator | undefined;
const defaultServer = () => {
  sharedValidator ??= new AjvJsonSchemaValidator();
  return new McpServer({ name: 'skillmount', version: VERSION }, { jsonSchemaValidator: sharedValidator });
};

/**
 * A framework-neutral Streamable HTTP endpoint serving `options.source` over MCP: hand it each
 * request (`endpoint.handle(req, res, body)`); the Fastify and Express adapters wrap it.
 *
 * Every request goes through four stages, each one named function here:
 * 1. `admit`: the Host/Origin rules and the declared size, then the body when the framework has
 *    not read it (bounded in size and time);
 * 2. `classify`: which protocol era answers it (`isModernRequest`), or a refusal that comes first
 *    (a 2025-11-25 POST that is not JSON, a batch);
 * 3. `route`: in the request's context and under the response budget, to the 2026-07-28 path
 *    (modern/path.ts) or to a 2025-11-25 one (`stateless` or `stateful`, http/streamable.ts), each
 *    of which sends a skills request the app's server would answer with the handlers `attach`
 *    installed (`answersAsAttached`) to the skills service, and everything else to the SDK;
 * 4. frame: the path writes the answer the way its era does (an SSE event or JSON).
 *
 * @example
 * ```ts
 * import http from 'node:http';
 * import { SkillCatalog, createSkillsEndpoint } from '@skillmount/core';
 * import { fsStorage } from '@skillmount/storage-fs';
 *
 * const catalog = await SkillCatalog.load(fsStorage('./skills'));
 * const endpoint = createSkillsEndpoint({ source: catalog, sessions: true });
 * http.createServer((req, res) => void endpoint.handle(req, res, undefined)).listen(3000, '127.0.0.1');
 * ```
 * @throws {@link OptionError} when an option is invalid (a limit that is not a positive integer, an
 * `allowedHosts` or `allowedOrigins` entry that is not a host or origin, an attach option…).
 */
export function createSkillsEndpoint(options: SkillsEndpointOptions): SkillsEndpoint {
  const guard = createRequestGuard(options, options.packageName);
  const buildServer = options.server ?? defaultServer;
  const sessions = new SessionTable({
    idleMs: options.sessionIdleMs ?? 15 * 60_000,
    max: options.maxSessions ?? 1000,
    maxPerClient: options.maxSessionsPerClient ?? 100,
  });
  const budget = new ResponseBudget();
  const source = options.source;
  const attachOptions = withSurfaces(options);
  const warn: (warning: SkillWarning) => void = warningSink(source, options.attach?.onWarning, consoleWarning);
  // The one skills service: the servers' handlers, the direct answers and the 2026-07-28 path all answer through it.
  const service = new SkillHandlers(source, warn, { ...serviceOptions(options.attach ?? {}, options.instructions), count: budget.count.bind(budget) });
  // Bodies the endpoint did not read itself (a content type it leaves to the transport to refuse) are bounded there.
  const transportLimits = { maxRequestBodySize: guard.bodyLimit };
  /** Servers on which hideInternalErrors could not take hold: their transports hide errors instead. */
  const unhidden = new WeakSet<McpServer | Server>();
  const newServer = async () => {
    const server = await buildServer();
    if (!equipServer(server, { source, attach: attachOptions, service, budget, warn }).errorsHidden) unhidden.add(server);
    return server;
  };
  const beforeConnect = (server: McpServer | Server, transport: Transport) => {
    if (unhidden.has(server)) hideInternalErrorsOn(transport, warn);
  };
  /** Connect with the endpoint's own connect, then follow list changes on that connection. */
  const connect = async (server: McpServer | Server, transport: Transport) => {
    beforeConnect(server, transport);
    await server.connect(transport);
    followListChanges(server, source, transport);
  };
  // Protocol 2026-07-28: the same source and the same app servers, one self-contained request per POST.
  const modern = createModernPath({
    source,
    service,
    buildServer: newServer,
    beforeConnect,
    warn,
    appServers: options.server !== undefined,
    count: (subject, work, size) => budget.count(subject, work, size),
    listen: { max: options.maxListenStreams, maxPerClient: options.maxListenStreamsPerClient, lifetimeMs: options.listenLifetimeMs },
    prompts: attachOptions.prompts === true,
  });
  // Stateless, the endpoint's own servers are reused one POST at a time; an app's servers are built per POST (they may keep state).
  const pool = options.sessions || options.server ? undefined : new ServerPool(newServer);
  // Skills requests of 2025-11-25 answered from the source, as the 2026-07-28 path answers them.
  const direct = new DirectAnswers({
    service,
    directoryRead: typeof source.readDirectory === 'function',
    warn,
    count: (subject, work, size) => budget.count(subject, work, size),
  });
  // /.well-known/agent-skills: one more caller of the same service, under the same checks and budget.
  const wellKnown = wellKnownRoute(options, { service, source, warn, guard, budget }, options.server ? newServer : undefined);
  const era2025 = { newServer, connect, sessions, transportLimits, direct, ...(pool ? { pool } : {}) };

  /** Route a classified request to the path that answers (and frames) it, in the request's context and under the budget. */
  const route = async (
    classified: Classified,
    req: IncomingMessage & { auth?: unknown },
    res: ServerResponse,
    body: unknown,
    context: Record<string, unknown>,
  ) => {
    if (classified.kind === 'refused') {
      sendRefusal(res, classified.refusal);
      if (classified.discardBody) discardBody(req);
      return;
    }
    const run =
      classified.kind === '2026-07-28'
        ? () => modern.handle(req, res, body)
        : () => (options.sessions ? stateful(era2025, req, res, body) : stateless(era2025, req, res, body));
    await runWithSkillContext(contextOfRequest(req, context), () => budget.run(req.socket, run));
  };

  /** Answer one request; when that throws, answer 500 (or end a started stream) and rethrow for the adapter to report. */
  const handle: SkillsEndpoint['handle'] = async (req, res, body, context = {}) => {
    try {
      if (await wellKnown(req, res, context)) return;
      const admitted = await admit(guard, req, res, body);
      if (admitted) await route(classify(req, admitted.body), req, res, admitted.body, context);
    } catch (error) {
      if (!res.headersSent) sendError(res, 500, JsonRpcErrorCode.InternalError, 'Internal error: the server could not handle this request; try again later');
      else res.end();
      throw error;
    }
  };

  let closing = false;
  return {
    handle,
    service: publicService(service),
    async handleModern(req, res, body, context) {
      if (!isModernRequest(req, body)) return false;
      await handle(req, res, body, context);
      return true;
    },
    handleWellKnown: (req, res, context = {}) => wellKnown(req, res, context),
    health: () => (closing ? HEALTH_STOPPING : healthOf(source)),
    async close() {
      closing = true;
      modern.close();
      pool?.close();
      await sessions.closeAll();
    },
  };
}

/** `attach` as the endpoint's servers get it: with `tools`, `prompts` and `search`, checked. */
function withSurfaces(options: SkillsEndpointOptions): AttachOptions {
  const surfaces = surfaceOptions(options, options.packageName);
  return {
    ...options.attach,
    ...(surfaces.tools ? { tools: true } : {}),
    ...(surfaces.prompts ? { prompts: true } : {}),
    ...(surfaces.search ? { search: true } : {}),
  };
}

/**
 * The checks every request passes first (Host/Origin, declared size), then the body when the
 * framework has not read it: the parsed body, or undefined once the request has been answered.
 */
async function admit(guard: RequestGuard, req: IncomingMessage, res: ServerResponse, body: unknown): Promise<{ body: unknown } | undefined> {
  const refusal = guard.check(req);
  if (refusal) {
    sendRefusal(res, refusal);
    discardBody(req);
    return undefined;
  }
  if (req.method !== 'POST' || body !== undefined || !isJsonContentType(req)) return { body };
  const read = await readMessage(req, guard.bodyLimit, guard.bodyTimeout);
  if (!('refused' in read)) return read;
  sendRefusal(res, read.refused);
  if (read.refused.status === 408) closeAfterAnswer(req, res);
  return undefined;
}

/** The `/.well-known/agent-skills/` route: with `wellKnown: true` it answers under that prefix, else it takes nothing. */
function wellKnownRoute(
  options: SkillsEndpointOptions,
  parts: Omit<WellKnownParts, 'stepsAside'>,
  newServer?: () => Promise<McpServer | Server>,
): WellKnownHandle {
  if (options.wellKnown !== undefined && typeof options.wellKnown !== 'boolean') {
    throw new OptionError('invalid-type', 'wellKnown', `must be true or false, got ${describeValue(options.wellKnown)}`, options.packageName);
  }
  if (options.wellKnown !== true) return async () => false;
  return wellKnownHandle({ ...parts, ...(newServer ? { stepsAside: (tell) => appAnswersItself(newServer, tell) } : {}) });
}

/**
 * Build the app's server for a /.well-known request, as an MCP request would (so its factory's
 * checks run, and a factory that throws refuses it), and tell whether it answers `resources/read`
 * or `skills/list` with a handler of its own: that handler decides what a client may read, and
 * this surface, which is not an MCP request, cannot ask it.
 */
async function appAnswersItself(newServer: () => Promise<McpServer | Server>, tell: (warning: SkillWarning) => void): Promise<boolean> {
  const server = await newServer();
  try {
    const own = WELL_KNOWN_METHODS.filter((method) => !answersAsAttached(server, method));
    if (own.length === 0) return false;
    tell({
      code: 'well-known-not-served',
      message:
        `/.well-known/agent-skills answers 404: the server from your factory answers ${own.join(' and ')} with its own handler, ` +
        'which decides what a client may read and cannot be asked outside MCP; gate skills with visible instead, or turn wellKnown off',
    });
    return true;
  } finally {
    await server.close();
  }
}

/** The skills methods whose answers /.well-known publishes. */
const WELL_KNOWN_METHODS = ['resources/read', METHOD_SKILLS_LIST];

/**
 * What an admitted request is: a 2026-07-28 request (that path refuses batches and other methods
 * itself: 2026-07-28 has none), a 2025-11-25 one, or one refused before either era sees it.
 */
type Classified = { kind: '2026-07-28' } | { kind: '2025-11-25' } | { kind: 'refused'; refusal: HttpRefusal; discardBody: boolean };

/** Which era answers an admitted request, or why it is refused first. */
function classify(req: IncomingMessage, body: unknown): Classified {
  if (isModernRequest(req, body)) return { kind: '2026-07-28' };
  // Refused here, not left to the transport: older SDK releases (1.29 among them) take any content type
  // that contains "application/json" (application/jsonx, text/html; a=application/json).
  if (req.method === 'POST' && body === undefined && !isJsonContentType(req)) {
    return {
      kind: 'refused',
      refusal: { status: 415, code: JsonRpcErrorCode.ServerError, message: 'Unsupported Media Type: Content-Type must be application/json' },
      discardBody: true,
    };
  }
  const batch = batchRefusal(body, req);
  return batch ? { kind: 'refused', refusal: batch, discardBody: false } : { kind: '2025-11-25' };
}

/** The parsed JSON body, or the HTTP answer for one that is too large, too slow or not JSON. */
async function readMessage(req: IncomingMessage, limit: number, timeoutMs: number): Promise<{ body: unknown } | { refused: HttpRefusal }> {
  let bytes: Awaited<ReturnType<typeof readBody>>;
  try {
    bytes = await readBody(req, limit, timeoutMs);
  } catch {
    return { refused: { status: 400, code: JsonRpcErrorCode.ParseError, message: 'Parse error: the request body ended before it was complete' } };
  }
  if (bytes === 'too-large') return { refused: bodyTooLarge(limit) };
  if (bytes === 'too-slow') return { refused: bodyTooSlow(timeoutMs) };
  try {
    return { body: JSON.parse(bytes.toString('utf8')) };
  } catch {
    return { refused: bodyNotJson() };
  }
}
