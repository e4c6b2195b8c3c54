/**
 * The SDK v2's request context (`ServerContext`) as the `SkillContext` skillmount sources read:
 * the same fields an SDK v1 request gives them (auth, headers, session, signal), then the app's own.
 */
import type { ServerContext } from '@modelcontextprotocol/server';
import { contextFields } from '../adapter/context.js';
import { contextFromExtra } from '../context/store.js';
import type { SkillContext } from '../types.js';

/** The app's own context fields for one request, e.g. `ctx => ({ tenant: ctx.http?.authInfo?.extra?.org })`. */
export type SdkV2ContextFunction = (ctx: ServerContext) => Record<string, unknown> | Promise<Record<string, unknown>>;

/** Header names lower-cased (as Node gives them to SDK v1 handlers); repeated headers joined as `Headers` joins them. */
export function headersOf(request: Request | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  request?.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return headers;
}

/**
 * Transport fields first (`auth` from `ctx.http.authInfo`, `headers` from `ctx.http.req`,
 * `sessionId`, `signal`), then `runWithSkillContext` fields around the request, then what the
 * app's `context` function returns, which may override any of them.
 */
export async function skillContextOf(ctx: ServerContext, app: SdkV2ContextFunction | undefined): Promise<SkillContext> {
  const base = contextFromExtra({
    authInfo: ctx.http?.authInfo,
    requestInfo: { headers: headersOf(ctx.http?.req) },
    ...(ctx.sessionId !== undefined ? { sessionId: ctx.sessionId } : {}),
    signal: ctx.mcpReq.signal,
  });
  // The adapters' rule for what a context function returns: an object of fields, else a TypeError saying so.
  const fields = await contextFields(app, ctx, 'skillmount: sdkV2Source');
  return Object.assign(base, fields);
}
