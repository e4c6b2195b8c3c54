import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { runWithSkillContext } from '../context/store.js';
import { attach, type AttachOptions } from '../server/attach.js';
import type { SkillSource } from '../types.js';
import { VERSION } from '../version.js';

export interface SkillsEndpointOptions {
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
  /** Passed to `attach`. */
  attach?: AttachOptions;
}

/** A framework-neutral Streamable HTTP MCP endpoint that serves skills; the adapters wrap it. */
export interface SkillsEndpoint {
  /** Handle one HTTP request. `body` is the parsed JSON body when the framework already read it. */
  handle(req: IncomingMessage & { auth?: unknown }, res: ServerResponse, body: unknown, context?: Record<string, unknown>): Promise<void>;
  /** Close every open session. */
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer | Server;
  lastSeen: number;
}

export function createSkillsEndpoint(options: SkillsEndpointOptions): SkillsEndpoint {
  const buildServer = options.server ?? (() => new McpServer({ name: 'skillmount', version: VERSION }));
  const sessions = new Map<string, Session>();
  const idleMs = options.sessionIdleMs ?? 15 * 60_000;
  const maxSessions = options.maxSessions ?? 1000;
  let sweeper: NodeJS.Timeout | undefined;

  const newServer = async () => {
    const server = await buildServer();
    attach(server, options.source, options.attach);
    return server;
  };

  const stateless = async (req: IncomingMessage, res: ServerResponse, body: unknown) => {
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      return sendError(res, 405, -32000, 'Method not allowed: this stateless MCP endpoint takes POST only');
    }
    const server = await newServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
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
    // An unparsed body (no framework body parser) is left to the transport, which reads it and refuses anything but initialize.
    if (req.method !== 'POST' || (body !== undefined && !isInitializeRequest(body))) {
      return sendError(res, 400, -32000, 'Bad Request: no Mcp-Session-Id header; the first request of a session must be initialize');
    }
    if (sessions.size >= maxSessions) return sendError(res, 503, -32000, 'Too many open sessions; try again later');
    const server = await newServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
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

  return {
    async handle(req, res, body, context = {}) {
      try {
        await runWithSkillContext(context, () => (options.sessions ? stateful(req, res, body) : stateless(req, res, body)));
      } catch (error) {
        if (!res.headersSent) sendError(res, 500, -32603, 'Internal server error');
        else res.end();
        throw error;
      }
    },
    async close() {
      if (sweeper) clearInterval(sweeper);
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.allSettled(open.map((s) => s.transport.close()));
    },
  };
}

/** A JSON-RPC error as an HTTP response, for failures outside any JSON-RPC exchange. */
export function sendError(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
