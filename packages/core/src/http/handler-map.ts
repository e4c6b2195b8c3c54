import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

export type RawHandler = (request: { method: string; params?: unknown }, extra: unknown) => Promise<unknown>;

/**
 * Put `wrap` around every request handler `server` looks up, including handlers the app adds
 * later and its `fallbackRequestHandler`. It works on the SDK's request handler map, which is not
 * public API: returns false (and changes nothing) on an SDK without it. `tag` makes a second call
 * with the same tag a no-op.
 */
export function wrapHandlerLookups(server: McpServer | Server, tag: symbol, wrap: (handler: RawHandler, method: string) => RawHandler): boolean {
  const candidate = server as unknown as { server?: unknown; registerResource?: unknown };
  // The map is private in the SDK's types; reach it through a structural view.
  const low = (typeof candidate.registerResource === 'function' && typeof candidate.server === 'object' ? candidate.server : server) as unknown as {
    _requestHandlers?: unknown;
    fallbackRequestHandler?: unknown;
  };
  const map = low._requestHandlers;
  if (!(map instanceof Map)) return false;
  const handlers = map as Map<string, RawHandler> & Record<symbol, unknown>;
  if (handlers[tag]) return true;
  handlers[tag] = true;
  const get = handlers.get.bind(handlers);
  const wrapped = new Map<string, WeakMap<RawHandler, RawHandler>>();
  handlers.get = (method: string) => {
    const handler = get(method);
    if (!handler) {
      // Not cached: the methods a fallback answers are whatever clients send.
      const fallback = low.fallbackRequestHandler as RawHandler | undefined;
      return fallback ? wrap(fallback, method) : undefined;
    }
    let byHandler = wrapped.get(method);
    if (!byHandler) wrapped.set(method, (byHandler = new WeakMap()));
    let safe = byHandler.get(handler);
    if (!safe) byHandler.set(handler, (safe = wrap(handler, method)));
    return safe;
  };
  return true;
}
