/**
 * One SDK v2 handler per tenant, so a tenant's list changes reach its own listening clients only.
 * The SDK v2's `subscriptions/listen` streams hang on their handler's bus, which knows nothing of
 * the request that opened them: one handler for every tenant tells every stream every change.
 * Here each request goes to the handler of its tenant (from the same `key(ctx)` the tenant
 * catalogs answer with), and that handler hears only its tenant's changes.
 */
import type { McpHandlerRequestOptions, McpHttpHandler } from '@modelcontextprotocol/server';
import { contextFromExtra } from '../context/store.js';
import type { TenantSource } from '../tenants/types.js';
import type { SkillContext } from '../types.js';
import { headersOf } from './context.js';
import { notifyListChanges } from './list-changes.js';
import { onResponseEnd } from './response-end.js';

/** What `toNodeHandler(...)` and fetch-native runtimes take: `fetch`, and `close` at shutdown. */
export interface SdkV2TenantHandler {
  /** Serve one request with its tenant's handler. */
  fetch(request: Request, options?: McpHandlerRequestOptions): Promise<Response>;
  /** Close every tenant's handler (their listen streams end) and stop telling them changes. Later requests are refused. */
  close(): Promise<void>;
}

/** A tenant's handler while it is in use: requests in flight and response bodies (listen streams) still open. */
interface InUse {
  handler: McpHttpHandler;
  open: number;
  stop: () => void;
}

/**
 * Serve `tenants` behind the SDK v2 with one handler per tenant, made by `create(key)` the first
 * time a tenant's request arrives (`key` is `undefined` for requests without a tenant, whose
 * handler is told no changes). Each request goes to the handler of the tenant its `auth` and
 * `headers` give, through `tenants`' own `key(ctx)`; each handler is told its tenant's list
 * changes only (`notifyListChanges(tenants, handler.notify, ctx)`), so a change reaches that
 * tenant's listening clients and no other's. A handler is kept while it has a request in flight
 * or a response still streaming (an open `subscriptions/listen` stream), then closed; the next
 * request of its tenant makes a new one.
 *
 * @example
 * ```ts
 * import path from 'node:path';
 * import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
 * import { SkillsExtension } from '@modelcontextprotocol/server/ext/skills';
 * import { toNodeHandler } from '@modelcontextprotocol/node';
 * import { tenantCatalogs } from '@skillmount/core';
 * import { sdkV2Skills, sdkV2TenantHandler } from '@skillmount/core/sdk-v2';
 * import { fsStorage } from '@skillmount/storage-fs';
 *
 * const tenants = tenantCatalogs({
 *   key: (ctx) => ctx.auth?.extra?.org as string | undefined,
 *   storage: (org) => fsStorage(path.join('/srv/skills', org)),
 *   watch: true,
 * });
 * const skills = new SkillsExtension(sdkV2Skills(tenants));
 * const handler = sdkV2TenantHandler(tenants, () =>
 *   createMcpHandler(() => {
 *     const mcp = new McpServer({ name: 'my-app', version: '1.0.0' });
 *     skills.attach(mcp);
 *     return mcp;
 *   }),
 * );
 * const node = toNodeHandler(handler); // mount as usual; call handler.close() at shutdown
 * ```
 *
 * @throws {TypeError} when `create` is not a function; `fetch` rejects with a `TypeError` when
 * `create` returns no handler of `createMcpHandler` (with `fetch` and `notify`), and with an
 * `Error` after `close()`.
 */
export function sdkV2TenantHandler(tenants: TenantSource, create: (key: string | undefined) => McpHttpHandler): SdkV2TenantHandler {
  if (typeof create !== 'function') {
    throw new TypeError(`skillmount: sdkV2TenantHandler(tenants, create) needs create, a function key => createMcpHandler(...), got ${typeof create}`);
  }
  const inUse = new Map<string | undefined, InUse>();
  let closed = false;

  const release = (key: string | undefined, entry: InUse) => {
    entry.open--;
    if (entry.open > 0 || inUse.get(key) !== entry) return;
    inUse.delete(key);
    entry.stop();
    void entry.handler.close().catch(() => undefined); // nothing of it is in flight any more
  };

  const take = (key: string | undefined, ctx: SkillContext): InUse => {
    const kept = inUse.get(key);
    if (kept !== undefined) return kept;
    const handler = create(key);
    if (typeof handler?.fetch !== 'function' || typeof handler.notify?.resourcesChanged !== 'function') {
      throw new TypeError(`skillmount: sdkV2TenantHandler's create(${JSON.stringify(key)}) must return createMcpHandler(...), got ${typeof handler}`);
    }
    const stop = key === undefined ? () => undefined : notifyListChanges(tenants, handler.notify, ctx);
    const entry: InUse = { handler, open: 0, stop };
    inUse.set(key, entry);
    return entry;
  };

  return {
    async fetch(request, options) {
      if (closed) throw new Error('skillmount: this sdkV2TenantHandler was closed; make a new one to serve again');
      const ctx = contextFromExtra({ authInfo: options?.authInfo, requestInfo: { headers: headersOf(request) } });
      // A key function that throws is answered by the source itself, on the handler without a tenant.
      const key = await tenants.keyOf(ctx).catch(() => undefined);
      const entry = take(key, ctx);
      entry.open++;
      let response: Response;
      try {
        response = await entry.handler.fetch(request, options);
      } catch (error) {
        release(key, entry);
        throw error;
      }
      return onResponseEnd(response, () => release(key, entry));
    },
    async close() {
      closed = true;
      const entries = [...inUse.values()];
      inUse.clear();
      for (const entry of entries) entry.stop();
      await Promise.all(entries.map((entry) => entry.handler.close()));
    },
  };
}
