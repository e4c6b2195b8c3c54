/**
 * The 2026-07-28 side of the endpoint: one self-contained request per POST, no session. The
 * endpoint routes here what `isModernRequest` recognises, after its Host and body-limit checks.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { contextFromExtra } from '../context/store.js';
import { clientOf, runAsModern, setOrigin } from '../context/origin.js';
import { DEFAULT_CACHE_HINT } from '../protocol/constants.js';
import type { SkillHandlers } from '../server/handlers.js';
import { clientKey } from '../context/client-key.js';
import { clientSafe } from '../sdk/internal-errors.js';
import { answersAsAttached } from '../server/attach.js';
import type { SkillSource, SkillWarning } from '../types.js';
import { AppBridge, type BridgeCall } from './bridge.js';
import { dispatch, type DispatchTools } from './dispatch.js';
import { checkModernRequest, isNotification, type ModernRequest } from './envelope.js';
import { type ListenLimits, Listeners } from './listen.js';
import { CACHEABLE_METHODS, META_SERVER_INFO, METHOD_LISTEN, METHOD_NOT_FOUND, ModernError } from './protocol.js';
import { ModernReply, resultMessage, type JsonRpcError } from './reply.js';
import { JsonRpcErrorCode } from '../protocol/error-codes.js';
import { METHOD_SKILLS_LIST } from '../protocol/constants.js';
import { withSection } from '../server/instructions.js';
import { wantsSection } from '../server/instructions-option.js';
import { sectionOrNothing } from '../server/instructions-section.js';

export interface ModernPathOptions {
  source: SkillSource;
  /** The endpoint's skills service, which answers the skills methods. */
  service: SkillHandlers;
  /** The app's server factory with skills attached: the same servers the legacy path uses. */
  buildServer: () => Promise<McpServer | Server>;
  /**
   * Whether `buildServer` runs the app's own factory. Then a skills request builds a server too
   * (the factory's checks run), and goes to it when it answers the method with its own handler.
   */
  appServers: boolean;
  /** Called with each server and the in-process transport it is about to be connected to. */
  beforeConnect?: (server: McpServer | Server, transport: Transport) => void;
  warn: (warning: SkillWarning) => void;
  /** `subscriptions/listen` caps and lifetime; unset ones take their defaults. */
  listen?: Partial<ListenLimits>;
  /** Whether the skills are served as prompts too: listeners may then follow `promptsListChanged`. */
  prompts?: boolean;
  /**
   * Runs one answer's work under the endpoint's bound on response bytes in flight (`subject`: a
   * URI or the method); `size` measures what the work produced.
   */
  count(subject: string, work: () => Promise<string>, size: (answer: string) => number): Promise<string>;
}

export interface ModernPath {
  handle(req: IncomingMessage & { auth?: unknown }, res: ServerResponse, body: unknown): Promise<void>;
  /** End every `subscriptions/listen` stream with its closing result. */
  close(): void;
}

/** Log levels in order of severity (RFC 5424, as MCP names them). */
const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

export function createModernPath(options: ModernPathOptions): ModernPath {
  const { source, warn } = options;
  const handlers = options.service;
  const bridge = new AppBridge(options.buildServer, options.beforeConnect);
  const listeners = new Listeners(source, options.listen, options.prompts === true);

  const handle = async (req: IncomingMessage & { auth?: unknown }, res: ServerResponse, body: unknown) => {
    const reply = new ModernReply(res);
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      return reply.error(
        null,
        { code: JsonRpcErrorCode.ServerError, message: 'Method not allowed: protocol 2026-07-28 takes POST only (no GET stream, no sessions to DELETE)' },
        405,
      );
    }
    if (body === undefined) {
      return reply.error(null, { code: JsonRpcErrorCode.ServerError, message: 'Unsupported Media Type: Content-Type must be application/json' }, 415);
    }
    if (isNotification(body)) {
      // Nothing to answer: cancelling a request is closing its response stream on this protocol.
      res.writeHead(202).end();
      return;
    }
    let request: ModernRequest;
    try {
      request = checkModernRequest(req, body);
    } catch (error) {
      const e = error as ModernError;
      return reply.error(idOf(body), { code: e.code, message: e.message, ...(e.data !== undefined ? { data: e.data } : {}) }, e.status);
    }
    const aborted = new AbortController();
    const onClose = () => {
      if (!res.writableFinished) aborted.abort();
    };
    res.on('close', onClose);
    const origin = { era: '2026-07-28', client: clientOf(request.clientInfo) } as const;
    const meta = (request.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
    const ctx = setOrigin(contextFromExtra({ authInfo: req.auth, requestInfo: { headers: req.headers }, signal: aborted.signal }), {
      ...origin,
      request: { method: request.method, id: request.id as string | number | undefined, meta },
    });
    try {
      const identity = await bridge.identity();
      if (request.method === METHOD_LISTEN) {
        listeners.open(res, request.id, request.params, ctx, identity.serverInfo, clientKey(req));
        return;
      }
      const tools: DispatchTools = {
        handlers,
        directoryRead: typeof source.readDirectory === 'function',
        identity: () => bridge.identity(),
        instructions: async (r, ctx, own) => {
          if (!wantsSection(handlers.instructions, r.clientCapabilities)) return own;
          // Each page through the one service, or the app's own skills/list when its server answers that method itself.
          const list = async (cursor: string | undefined) =>
            (await tools.appAnswer({ ...r, method: METHOD_SKILLS_LIST, params: cursor === undefined ? {} : { cursor } })) ?? handlers.list(cursor, ctx);
          return withSection(own, await sectionOrNothing(handlers.instructions, list, warn, aborted.signal));
        },
        bridge: (r) => callApp(r, req, reply, aborted.signal),
        appAnswer: async (r) => {
          if (!options.appServers) return undefined;
          const server = await options.buildServer();
          return answersAsAttached(server, r.method) ? undefined : callApp(r, req, reply, aborted.signal, server);
        },
      };
      // Serialised inside the count, so the budget measures the very bytes that are sent.
      // Inside the request's origin: the app's server answering in process reports this era to the read hooks.
      const answer = async () =>
        resultMessage(request.id, finish(request.method, await runAsModern(origin, () => dispatch(request, ctx, tools)), identity.serverInfo));
      reply.send(await options.count(subjectOf(request), answer, (text) => text.length));
    } catch (error) {
      const { status, ...answer } = asError(error, request.method, warn);
      reply.error(request.id, answer, status);
    } finally {
      res.off('close', onClose);
    }
  };

  /** Run the request through the app's handlers; progress and asked-for logs go out on this answer. */
  const callApp = async (
    request: ModernRequest,
    req: IncomingMessage & { auth?: unknown },
    reply: ModernReply,
    signal: AbortSignal,
    server?: McpServer | Server,
  ) => {
    const threshold = request.logLevel === undefined ? -1 : LOG_LEVELS.indexOf(request.logLevel);
    const call: BridgeCall = {
      method: request.method,
      params: request.params,
      clientCapabilities: request.clientCapabilities,
      ...(request.clientInfo ? { clientInfo: request.clientInfo } : {}),
      transportInfo: {
        requestInfo: { headers: req.headers, ...(req.url ? { url: new URL(req.url, `http://${req.headers.host ?? 'localhost'}`) } : {}) },
        ...(req.auth !== undefined ? { authInfo: req.auth as never } : {}),
      },
      signal,
      onNotification: (message) => {
        if (message.method === 'notifications/progress') return reply.notify({ jsonrpc: '2.0', ...message });
        if (message.method === 'notifications/message' && threshold >= 0) {
          const level = LOG_LEVELS.indexOf(String((message.params as { level?: unknown } | undefined)?.level));
          if (level >= threshold) reply.notify({ jsonrpc: '2.0', ...message });
        }
        // Anything else (list_changed and the like) belongs on subscriptions/listen, not on a request's answer.
      },
    };
    const outcome = await bridge.call(call, server);
    if ('error' in outcome) {
      const status = outcome.error.code === METHOD_NOT_FOUND ? 404 : 200;
      throw new ModernError(status, outcome.error.code, outcome.error.message, outcome.error.data);
    }
    return outcome.result;
  };

  return { handle, close: () => listeners.closeAll() };
}

/** Add what every 2026-07-28 result carries: `resultType`, the server's identity and, where required, cache fields. */
function finish(method: string, result: Record<string, unknown>, serverInfo: unknown): Record<string, unknown> {
  const meta = typeof result._meta === 'object' && result._meta !== null ? (result._meta as Record<string, unknown>) : {};
  const cache =
    CACHEABLE_METHODS.has(method) && result.ttlMs === undefined ? { ttlMs: DEFAULT_CACHE_HINT.ttlMs, cacheScope: DEFAULT_CACHE_HINT.cacheScope } : {};
  return { ...result, resultType: result.resultType ?? 'complete', ...cache, _meta: { ...meta, [META_SERVER_INFO]: serverInfo } };
}

function asError(error: unknown, method: string, warn: (warning: SkillWarning) => void): JsonRpcError & { status: number } {
  if (error instanceof ModernError)
    return { status: error.status, code: error.code, message: error.message, ...(error.data !== undefined ? { data: error.data } : {}) };
  const safe = clientSafe(error, method, warn) as { code: number; message: string; data?: unknown };
  return { status: 200, code: safe.code, message: safe.message, ...(safe.data !== undefined ? { data: safe.data } : {}) };
}

/** What a budget refusal names: a read's URI, else the method. */
function subjectOf({ method, params }: ModernRequest): string {
  return method === 'resources/read' && typeof params.uri === 'string' ? params.uri : method;
}

function idOf(body: unknown): string | number | null {
  const id = (body as { id?: unknown } | null)?.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}
