import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { answersAsAttached } from '../server/attach.js';
import type { DirectAnswers } from './direct.js';
import { holdHeaders } from './hold-headers.js';
import { sendError, sendRefusal } from './reply.js';
import type { ServerPool } from './server-pool.js';
import { clientKey } from '../context/client-key.js';
import { clientOf } from '../context/origin.js';
import { lowLevelServer } from '../sdk/seams.js';
import type { SessionTable } from './sessions.js';
import { JsonRpcErrorCode } from '../protocol/error-codes.js';

/** What the 2025-11-25 paths share with the endpoint: its servers, its connect, its session table and body limit. */
export interface Era2025 {
  newServer: () => Promise<McpServer | Server>;
  connect: (server: McpServer | Server, transport: Transport) => Promise<void>;
  sessions: SessionTable;
  transportLimits: { maxRequestBodySize: number };
  /** Skills requests answered from the source, with no server or transport. */
  direct: DirectAnswers;
  /** Stateless POSTs are answered by pooled servers when there is a pool (the endpoint's default server only). */
  pool?: ServerPool;
}

/**
 * Protocol 2025-11-25 without sessions: any POST gets a server (a pooled default one, or a fresh
 * one from the app's factory) and a fresh transport, closed with the response — except a skills
 * request that server would answer with the handlers `attach` installed: that one is answered
 * from the source, without a transport. The app's factory still runs for it, so its checks do;
 * a method the app answers itself (its own `resources/read`) goes through the app's handler.
 */
export async function stateless(
  { newServer, connect, transportLimits, pool, direct }: Era2025,
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
): Promise<void> {
  if (req.method !== 'POST') {
    res.setHeader('Allow', 'POST');
    return sendError(res, 405, JsonRpcErrorCode.ServerError, 'Method not allowed: this stateless MCP endpoint takes POST only');
  }
  const call = direct.match(req, body);
  // The default server has no handlers of the app's: nothing to build or ask.
  if (call && pool) return direct.answer(call, req, res);
  const built = call ? await newServer() : undefined;
  if (call && built && answersAsAttached(built, call.method)) return direct.answer(call, req, res);
  holdHeaders(res);
  const answer = async (server: McpServer | Server) => {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, ...transportLimits });
    await connect(server, transport);
    await transport.handleRequest(req, res, body);
  };
  if (pool) return pool.serve(res, answer);
  const server = built ?? (await newServer());
  // Closing the server closes its transport too.
  res.on('close', () => void server.close());
  await answer(server);
}

/** Protocol 2025-11-25 with sessions: an initialize request opens one (within the table's limits), later requests name it. */
export async function stateful(
  { newServer, connect, sessions, transportLimits, direct }: Era2025,
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
): Promise<void> {
  const id = req.headers['mcp-session-id'];
  if (typeof id === 'string') {
    const session = sessions.get(id);
    if (!session) return sendError(res, 404, JsonRpcErrorCode.SessionNotFound, 'Session not found: start a new session with an initialize request');
    sessions.track(session, res);
    const call = direct.match(req, body);
    if (call && answersAsAttached(session.server, call.method))
      return direct.answer(call, req, res, id, clientOf(lowLevelServer(session.server).getClientVersion()));
    if (req.method === 'POST') direct.cancel(id, body);
    // A GET opens the session's event stream: its headers go out at once.
    if (req.method === 'POST') holdHeaders(res);
    return session.transport.handleRequest(req, res, body);
  }
  // A body still undefined here had a content type the transport refuses without reading it.
  if (req.method !== 'POST' || (body !== undefined && !isInitializeRequest(body))) {
    return sendError(res, 400, JsonRpcErrorCode.ServerError, 'Bad Request: no Mcp-Session-Id header; the first request of a session must be initialize');
  }
  const slot = sessions.reserve(clientKey(req));
  if ('status' in slot) return sendRefusal(res, slot);
  try {
    const server = await newServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      ...transportLimits,
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (sessionId) => slot.fill(sessionId, { transport, server }),
    });
    let closed = false;
    transport.onclose = () => {
      // Older SDK releases call onclose again from the transport close() that server.close() starts.
      if (closed) return;
      closed = true;
      if (transport.sessionId) sessions.delete(transport.sessionId);
      void server.close();
    };
    await connect(server, transport);
    holdHeaders(res);
    await transport.handleRequest(req, res, body);
    if (transport.sessionId === undefined) await transport.close(); // it was not an initialize request: nothing to keep
  } finally {
    slot.release();
  }
}
