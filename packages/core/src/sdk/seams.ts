/**
 * Every place skillmount reaches past the public API of the MCP TypeScript SDK v1
 * (`@modelcontextprotocol/sdk`). Each seam is one function that says whether it took hold; when
 * one does not (a release that changed the internal), the caller reports it once through
 * `seamMissing` (warning code `sdk-seam-missing`) and carries on with less, as the warning says.
 * Nothing else in skillmount touches SDK internals.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { SkillWarning } from '../types.js';
import { THE_PROCESS, tell } from '../warnings/told.js';

/** The SDK v1 releases the test suite runs against; the README's table says the same. */
export const TESTED_SDK_RANGE = '1.29.0 to 1.32.2';

export type AnyServer = McpServer | Server;
export type RawHandler = (request: { method: string; params?: unknown }, extra: unknown) => Promise<unknown>;

/** The seams, by the SDK internal each one uses. */
export type SeamName = 'request-handler-map' | 'server-connect';

const SEAM_INTERNALS: Record<SeamName, string> = {
  'request-handler-map': "the request handler map of the SDK's Protocol class (_requestHandlers)",
  'server-connect': "the server's connect() method, wrapped in place",
};

/**
 * Report that `seam` did not take hold, with what skillmount does without it and the SDK releases
 * it is tested with: once per process for each seam and consequence (the SDK is the process's, and
 * a server built per request must not warn per request).
 */
export function seamMissing(onWarning: (warning: SkillWarning) => void, seam: SeamName, consequence: string): void {
  tell(
    THE_PROCESS,
    onWarning,
    {
      code: 'sdk-seam-missing',
      message:
        `this @modelcontextprotocol/sdk has no ${SEAM_INTERNALS[seam]} (seam "${seam}"), so ${consequence}. ` +
        `skillmount is tested with @modelcontextprotocol/sdk ${TESTED_SDK_RANGE}: install a release in that range, or report the release you use`,
    },
    `${seam}\n${consequence}`,
  );
}

/** True for an `McpServer` of any copy of the SDK (recognised by its public shape). */
export function isMcpServer(server: AnyServer): server is McpServer {
  const candidate = server as Partial<McpServer>;
  return typeof candidate.registerResource === 'function' && typeof candidate.server === 'object' && candidate.server !== null;
}

/** The low-level `Server` under `server` (itself, or an `McpServer`'s `.server`). */
export function lowLevelServer(server: AnyServer): Server {
  return isMcpServer(server) ? server.server : (server as Server);
}

/** The SDK's map of request handlers by method, or undefined when this release has none. */
function handlerMap(server: AnyServer): Map<string, RawHandler> | undefined {
  // TypeScript-private in the SDK; reached through a structural view.
  const map = (lowLevelServer(server) as unknown as { _requestHandlers?: unknown })._requestHandlers;
  return map instanceof Map ? (map as Map<string, RawHandler>) : undefined;
}

/**
 * Seam `request-handler-map`: the handler installed for `method` now, as the SDK stored it (not
 * through the lookup wrappers of `wrapHandlerLookups`); `undefined` when none is; `false` when
 * the seam is missing and nobody can tell.
 */
export function installedHandler(server: AnyServer, method: string): RawHandler | undefined | false {
  const map = handlerMap(server);
  return map ? Map.prototype.get.call(map, method) : false;
}

/**
 * Seam `request-handler-map`: put `wrap` around every request handler `server` looks up,
 * including handlers the app adds later and its `fallbackRequestHandler` (public). `tag` makes a
 * second call with the same tag a no-op. Returns false, changing nothing, when the seam is missing.
 */
export function wrapHandlerLookups(server: AnyServer, tag: symbol, wrap: (handler: RawHandler, method: string) => RawHandler): boolean {
  const map = handlerMap(server);
  if (!map) return false;
  const handlers = map as Map<string, RawHandler> & Record<symbol, unknown>;
  if (handlers[tag]) return true;
  handlers[tag] = true;
  const low = lowLevelServer(server) as { fallbackRequestHandler?: unknown };
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
    if (!byHandler) {
      byHandler = new WeakMap();
      wrapped.set(method, byHandler);
    }
    let safe = byHandler.get(handler);
    if (!safe) {
      safe = wrap(handler, method);
      byHandler.set(handler, safe);
    }
    return safe;
  };
  return true;
}

/**
 * Seam `request-handler-map`: replace the handler installed now for `method` with `wrap(it)`.
 * Returns false, changing nothing, when the seam is missing or nothing handles `method` yet.
 */
export function wrapInstalledHandler(server: AnyServer, method: string, wrap: (handler: RawHandler) => RawHandler): boolean {
  const map = handlerMap(server);
  const installed = map?.get(method);
  if (!map || !installed) return false;
  map.set(method, wrap(installed));
  return true;
}

/**
 * Seam `server-connect`: run `connected(transport)` after each successful `connect()` of
 * `server`, for apps that connect the server themselves. Returns false, changing nothing, when
 * `connect` cannot be wrapped.
 */
export function afterConnect(server: AnyServer, connected: (transport: Transport) => void): boolean {
  const low = lowLevelServer(server);
  if (typeof low.connect !== 'function') return false;
  const connect = low.connect.bind(low);
  try {
    low.connect = async (transport: Transport) => {
      await connect(transport);
      connected(transport);
    };
  } catch {
    return false; // a frozen server
  }
  return true;
}
