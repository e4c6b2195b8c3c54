/**
 * Public types of the HTTP endpoint's request checks (DNS-rebinding protection, body limit).
 */
import type { IncomingMessage } from 'node:http';

/**
 * Which `Host` names the endpoint answers (and `Origin` hosts, when a browser sends one):
 * - a list of host names, each with or without a port (`'skills.example.com'`, `'localhost:3000'`,
 *   `'[::1]'`); a name without a port matches any port;
 * - `true`: `localhost`, `127.0.0.1` and `[::1]` only, on any port;
 * - `false`: no check.
 *
 * Left unset, requests that arrive on a loopback address (127.0.0.0/8, ::1) are checked as with
 * `true`, and requests on any other address are not checked.
 */
export type AllowedHosts = readonly string[] | boolean;

export interface RequestGuardOptions {
  /** Allowed `Host` (and `Origin`) names; see `AllowedHosts`. Default: localhost names on loopback binds, no check elsewhere. */
  allowedHosts?: AllowedHosts;
  /**
   * Browser origins (`https://app.example.com`) whose requests pass the Origin check besides the
   * `allowedHosts` names: the pages of a browser MCP host on another site, which a CORS layer in
   * front of the endpoint also allows. The Host check is unchanged. Default: none.
   */
  allowedOrigins?: readonly string[];
  /** Largest request body in bytes. Default 1 MiB. */
  bodyLimit?: number;
  /**
   * Longest time, in milliseconds, a request body may take to arrive once its headers are in.
   * A body still incomplete then (a client trickling it a byte at a time, say) is answered 408
   * and its connection closed. Default 30000.
   */
  bodyTimeout?: number;
}

/** Why a request is refused before its body is read: an HTTP status with a JSON-RPC error body. */
export interface HttpRefusal {
  status: number;
  code: number;
  message: string;
  /** Extra response headers (`Connection: close` when the client may still be sending a body). */
  headers?: Record<string, string>;
}

/** The checks every request to the endpoint passes before anything else runs. */
export interface RequestGuard {
  /** The body limit in bytes, for frameworks that read the body themselves. */
  readonly bodyLimit: number;
  /** The body deadline in milliseconds, for frameworks that read the body themselves. */
  readonly bodyTimeout: number;
  /** The refusal for this request (wrong Host or Origin, declared body over the limit), or undefined to let it through. */
  check(req: IncomingMessage): HttpRefusal | undefined;
}
