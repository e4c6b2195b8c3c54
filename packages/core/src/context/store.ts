import { AsyncLocalStorage } from 'node:async_hooks';
import type { SkillContext } from '../types.js';

const appContext = new AsyncLocalStorage<Record<string, unknown>>();

/**
 * Run `fn` (typically `transport.handleRequest(...)`) with the app's per-request context. Every
 * skills handler that runs inside it receives these fields in its `SkillContext`. HTTP adapters
 * call this; apps with their own route can too.
 *
 * @example
 * ```ts
 * import http from 'node:http';
 * import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
 * import { runWithSkillContext } from '@skillmount/core';
 *
 * declare const transport: StreamableHTTPServerTransport;
 * http.createServer((req, res) => {
 *   void runWithSkillContext({ tenant: req.headers['x-tenant'] }, () => transport.handleRequest(req, res));
 * });
 * ```
 * @throws What `fn` throws, as it throws it.
 */
export function runWithSkillContext<T>(context: Record<string, unknown>, fn: () => T): T {
  return appContext.run(context, fn);
}

/** Whether the code running now is inside `runWithSkillContext` (an adapter's endpoint or `run(req, fn)`). */
export function hasSkillContext(): boolean {
  return appContext.getStore() !== undefined;
}

/**
 * The context an HTTP request carries before any MCP message is read: its headers and auth,
 * then the app's fields. Sources see the same values for a request either way; this also gives
 * them to code that runs outside a handler, such as a session's opening `connect()`.
 *
 * @example
 * ```ts
 * import type { IncomingMessage } from 'node:http';
 * import { runWithSkillContext } from '@skillmount/core';
 * import { contextOfRequest } from '@skillmount/core/adapter';
 *
 * declare const req: IncomingMessage;
 * runWithSkillContext(contextOfRequest(req, { tenant: 'acme' }), () => {
 *   // … connect a server or handle the request
 * });
 * ```
 * @throws Nothing.
 */
export function contextOfRequest(req: { headers: SkillContext['headers']; auth?: unknown }, app: Record<string, unknown>): Record<string, unknown> {
  return { headers: req.headers, ...(req.auth !== undefined ? { auth: req.auth } : {}), ...app };
}

/** The subset of the SDK's RequestHandlerExtra the context is built from. */
export interface ExtraLike {
  authInfo?: unknown;
  /** The JSON-RPC id of the request, and its `params._meta`, as the SDK passes them to handlers. */
  requestId?: string | number;
  _meta?: Record<string, unknown>;
  requestInfo?: { headers?: Record<string, string | string[] | undefined> };
  sessionId?: string;
  signal?: AbortSignal;
}

/** Transport fields first, then whatever the app's context function returned (which may override them). */
export function contextFromExtra(extra: ExtraLike | undefined): SkillContext {
  const ctx: SkillContext = { headers: extra?.requestInfo?.headers ?? {} };
  if (extra?.authInfo !== undefined) ctx.auth = extra.authInfo as SkillContext['auth'];
  if (extra?.sessionId !== undefined) ctx.sessionId = extra.sessionId;
  if (extra?.signal !== undefined) ctx.signal = extra.signal;
  return Object.assign(ctx, appContext.getStore());
}
