import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { consoleWarning } from '../catalog/options.js';
import { contextOfRequest, runWithSkillContext } from '../context/store.js';
import { attach, type AttachOptions } from '../server/attach.js';
import type { SkillSource, SkillWarning } from '../types.js';
import { VERSION } from '../version.js';
import { isModernRequest } from '../modern/envelope.js';
import { createModernPath } from '../modern/path.js';
import { discardBody, readBody } from './body.js';
import { bodyTooLarge, createRequestGuard } from './guard.js';
import { hideInternalErrors } from './internal-errors.js';
import { sendError, sendRefusal } from './reply.js';
import type { HttpRefusal, RequestGuardOptions } from './types.js';

export { sendError } from './reply.js';

export interface SkillsEndpointOptions extends RequestGuardOptions {
  source: SkillSource;
  /** Builds the app's own MCP server; skills are attached to each one. Default: an empty McpServer. */
  server?: () => McpServer | Server | Promise<McpServer | Server>;
  /**
   * `false` (default): stateless, a fresh server per POST; GET and DELETE answer 405.
   * `true`: MCP sessions (`Mcp-Session-Id`), which also carry `notifications/resources/list_changed`.
   */
  sessions?: boolean;
  /** Session mode: close a session idle for this long. Default 15 minutes. */
  sessionIdleMs?: number;
  /** Session mode: refuse new sessions beyond this many. Default 1000. */
  maxSessions?: number;
  /** Passed to `attach`. Its `onWarning` also receives the internal errors hidden from clients. */
  attach?: AttachOptions;
  /**
   * Prefixes option errors (`allowedHosts`, `bodyLimit`), so an adapter's mistakes name the
   * adapter. Default `'skillmount'`.
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
  /** Close every open session, and end every `subscriptions/listen` stream with its closing result. */
  close(): Promise<void>;
}

// A server per stateless request would otherwise build (and compile for) its own Ajv instance.
let sharedValidator: AjvJsonSchemaValidator | undefined;
const defaultServer = () => new McpServer({ name: 'skillmount', version: VERSION }, { jsonSchemaValidator: (sharedValidator ??= new AjvJsonSchemaValidator()) });

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer | Server;
  lastSeen: number;
}

export function createSkillsEndpoint(options: SkillsEndpointOptions): SkillsEndpoint {
  const guard = createRequestGuard({ allowedHosts: options.allowedHosts, bodyLimit: options.bodyLimit }, options.packageName);
  const buildServer = options.server ?? defaultServer;
  const sessions = new Map<string, Session>();
  const idleMs = options.sessionIdleMs ?? 15 * 60_000;
  const maxSessions = options.maxSessions ?? 1000;
  const source = options.source;
  const warn: (warning: SkillWarning) => void = options.attach?.onWarning ?? (source.warn ? (w) => source.warn!(w) : consoleWarning);
  // Bodies the endpoint did not read itself (a content type it leaves to the transport to refuse) are bounded there.
  const transportLimits = { maxRequestBodySize: guard.bodyLimit };
  let sweeper: NodeJS.Timeout | undefined;

  const newServer = async () => {
    const server = await buildServer();
    attach(server, source, options.attach);
    hideInternalErrors(server, warn);
    return server;
  };
  // Protocol 2026-07-28: the same source and the same app servers, one self-contained request per POST.
  const modern = createModernPath({ source, buildServer: newServer, warn });

  const stateless = async (req: IncomingMessage, res: ServerResponse, body: unknown) => {
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      return sendError(res, 405, -32000, 'Method not allowed: this stateless MCP endpoint takes POST only');
    }
    const server = await newServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, ...transportLimits });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const stateful = async (req: IncomingMessage, res: ServerResponse, body: unknown) => {
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const session = sessions.get(id);
      if (!session) return sendError(res, 404, -32001, 'Session not found: start a new session with an initialize request');
      session.lastSeen = Date.now();
      return session.transport.handleRequest(req, res, body);
    }
    // A body still undefined here had a content type the transport refuses without reading it.
    if (req.method !== 'POST' || (body !== undefined && !isInitializeRequest(body))) {
      return sendError(res, 400, -32000, 'Bad Request: no Mcp-Session-Id header; the first request of a session must be initialize');
    }
    if (sessions.size >= maxSessions) return sendError(res, 503, -32000, 'Too many open sessions; try again later');
    const server = await newServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      ...transportLimits,
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, { transport, server, lastSeen: Date.now() });
        sweeper ??= setInterval(sweep, Math.min(idleMs, 60_000)).unref();
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      void server.close();
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
    if (transport.sessionId === undefined) await transport.close(); // it was not an initialize request: nothing to keep
  };

  const sweep = () => {
    const now = Date.now();
    for (const [id, session] of sessions) {
      if (now - session.lastSeen > idleMs) {
        sessions.delete(id);
        void session.transport.close();
      }
    }
  };

  /** Answer a request `isModernRequest` recognised: the guard, the body (when not read yet), then the modern path. */
  const answerModern = async (req: IncomingMessage & { auth?: unknown }, res: ServerResponse, body: unknown, context: Record<string, unknown>) => {
    const refusal = guard.check(req);
    if (refusal) {
      sendRefusal(res, refusal);
      discardBody(req);
      return;
    }
    if (req.method === 'POST' && body === undefined && isJsonContentType(req)) {
      const read = await readMessage(req, guard.bodyLimit);
      if ('refused' in read) return sendRefusal(res, read.refused);
      body = read.body;
    }
    await runWithSkillContext(contextOfRequest(req, context), () => modern.handle(req, res, body));
  };

  return {
    async handleModern(req, res, body, context = {}) {
      if (!isModernRequest(req, body)) return false;
      try {
        await answerModern(req, res, body, context);
      } catch (error) {
        if (!res.headersSent) sendError(res, 500, -32603, 'Internal error: the server could not handle this request; try again later');
        else res.end();
        throw error;
      }
      return true;
    },
    async handle(req, res, body, context = {}) {
      const refusal = guard.check(req);
      if (refusal) {
        sendRefusal(res, refusal);
        discardBody(req);
        return;
      }
      try {
        if (req.method === 'POST' && body === undefined && isJsonContentType(req)) {
          const read = await readMessage(req, guard.bodyLimit);
          if ('refused' in read) return sendRefusal(res, read.refused);
          body = read.body;
        }
        if (isModernRequest(req, body)) {
          return await runWithSkillContext(contextOfRequest(req, context), () => modern.handle(req, res, body));
        }
        if (Array.isArray(body) && body.length === 0) {
          return sendError(res, 400, -32600, 'Invalid Request: the batch is empty; send a JSON-RPC message or a non-empty array of them');
        }
        await runWithSkillContext(contextOfRequest(req, context), () => (options.sessions ? stateful(req, res, body) : stateless(req, res, body)));
      } catch (error) {
        if (!res.headersSent) sendError(res, 500, -32603, 'Internal error: the server could not handle this request; try again later');
        else res.end();
        throw error;
      }
    },
    async close() {
      modern.close();
      if (sweeper) clearInterval(sweeper);
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.allSettled(open.map((s) => s.transport.close()));
    },
  };
}

/**
 * Whether the endpoint reads this POST's body itself. Only a gate: the transport still checks
 * `Content-Type` (and `Accept`) with its own rules, and refuses other types without reading.
 */
function isJsonContentType(req: IncomingMessage): boolean {
  const type = req.headers['content-type'];
  return typeof type === 'string' && type.split(';', 1)[0]!.trim().toLowerCase() === 'application/json';
}

/** The parsed JSON body, or the HTTP answer for one that is too large or not JSON. */
async function readMessage(req: IncomingMessage, limit: number): Promise<{ body: unknown } | { refused: HttpRefusal }> {
  let bytes: Buffer | undefined;
  try {
    bytes = await readBody(req, limit);
  } catch {
    return { refused: { status: 400, code: -32700, message: 'Parse error: the request body ended before it was complete' } };
  }
  if (!bytes) return { refused: bodyTooLarge(limit) };
  try {
    return { body: JSON.parse(bytes.toString('utf8')) };
  } catch {
    return { refused: { status: 400, code: -32700, message: 'Parse error: the request body is not valid JSON' } };
  }
}
