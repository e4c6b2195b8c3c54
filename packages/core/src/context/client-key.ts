/**
 * Who a request comes from, for every per-client share (sessions, `subscriptions/listen` streams):
 * the authenticated client when the app's auth names one, else the client's address as the web
 * framework reports it, with the app's own trusted-proxy setting applied.
 */
import type { IncomingMessage } from 'node:http';
import { isIPv4 } from 'node:net';

// A registered symbol, not a module-local WeakMap: an adapter and the endpoint may load two copies of core (ESM beside CJS).
const CLIENT_ADDRESS = Symbol.for('@skillmount/core.clientAddress');

type Tagged = IncomingMessage & { auth?: unknown; [CLIENT_ADDRESS]?: string };

/**
 * For adapters: the client's address as the framework reports it, e.g. Fastify's `request.ip`
 * (which honours `trustProxy`) or Express's `req.ip` (which honours `trust proxy`). Without it,
 * the endpoint uses the connection's remote address. Never pass a forwarding header read
 * directly: any client can write one.
 *
 * @example
 * ```ts
 * import type { IncomingMessage } from 'node:http';
 * import { setClientAddress } from '@skillmount/core/adapter';
 *
 * declare const req: IncomingMessage;
 * declare const frameworkIp: string | undefined; // e.g. Fastify's request.ip, which honours trustProxy
 * setClientAddress(req, frameworkIp);
 * ```
 * @throws Nothing: an empty or missing address is ignored.
 */
export function setClientAddress(req: IncomingMessage, address: string | undefined): void {
  if (typeof address !== 'string' || address === '') return;
  Object.defineProperty(req, CLIENT_ADDRESS, { value: address, configurable: true, enumerable: false, writable: true });
}

/**
 * The client a request counts against: `client:<auth.clientId>` when the app's auth set a
 * non-empty `clientId` on the request, else `address:<ip>` (the adapter's address, else the
 * socket's). An IPv4 address mapped into IPv6 (`::ffff:10.0.0.7`) counts as the IPv4 one.
 */
export function clientKey(req: IncomingMessage & { auth?: unknown }): string {
  const clientId = (req.auth as { clientId?: unknown } | undefined)?.clientId;
  if (typeof clientId === 'string' && clientId !== '') return `client:${clientId}`;
  const address = (req as Tagged)[CLIENT_ADDRESS] ?? req.socket?.remoteAddress;
  if (!address) return 'address:unknown';
  const mapped = address.toLowerCase().startsWith('::ffff:') ? address.slice(7) : undefined;
  return `address:${mapped !== undefined && isIPv4(mapped) ? mapped : address}`;
}

/** How many of something (sessions, listen streams) each client holds; a client holding none has no entry. */
export class ClientCounts {
  readonly #counts = new Map<string, number>();

  of(client: string): number {
    return this.#counts.get(client) ?? 0;
  }

  add(client: string): void {
    this.#counts.set(client, this.of(client) + 1);
  }

  remove(client: string): void {
    const left = this.of(client) - 1;
    if (left > 0) this.#counts.set(client, left);
    else this.#counts.delete(client);
  }

  clear(): void {
    this.#counts.clear();
  }
}
