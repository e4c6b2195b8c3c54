import { OptionError } from '../option-error.js';
import { numberProblem } from '../option-checks.js';
import { DEFAULT_BODY_LIMIT, DEFAULT_BODY_TIMEOUT, declaredLength } from './body.js';
import { hostRefusal, normalizeAllowedHosts } from './hosts.js';
import { normalizeAllowedOrigins } from './origins.js';
import type { HttpRefusal, RequestGuard, RequestGuardOptions } from './types.js';
import { JsonRpcErrorCode } from '../protocol/error-codes.js';

const FORBIDDEN = 403;
const REQUEST_TIMEOUT = 408;
const PAYLOAD_TOO_LARGE = 413;
/** The code the SDK's transport uses for HTTP-level refusals. */
const SERVER_ERROR = JsonRpcErrorCode.ServerError;
const BAD_REQUEST = 400;
/** JSON-RPC's code for a message that is not JSON. */
const PARSE_ERROR = JsonRpcErrorCode.ParseError;

/**
 * The 400 answer for a body that is not JSON, whichever parser read it (the endpoint's own or a framework's), so every adapter says the same.
 *
 * @example
 * ```ts
 * import type { ServerResponse } from 'node:http';
 * import { bodyNotJson, sendError } from '@skillmount/core/adapter';
 *
 * declare const res: ServerResponse;
 * const refusal = bodyNotJson();
 * sendError(res, refusal.status, refusal.code, refusal.message);
 * ```
 * @throws Nothing.
 */
export function bodyNotJson(): HttpRefusal {
  return { status: BAD_REQUEST, code: PARSE_ERROR, message: 'Parse error: the request body is not valid JSON' };
}

/**
 * The 413 answer for a body over `limit` bytes.
 *
 * @example
 * ```ts
 * import { bodyTooLarge } from '@skillmount/core/adapter';
 *
 * const refusal = bodyTooLarge(1024 * 1024); // { status: 413, code: -32000, message: 'Payload Too Large: …' }
 * ```
 * @throws Nothing.
 */
export function bodyTooLarge(limit: number): HttpRefusal {
  return {
    status: PAYLOAD_TOO_LARGE,
    code: SERVER_ERROR,
    message: `Payload Too Large: the request body is over the ${limit}-byte limit of this endpoint; send one JSON-RPC message or a small batch`,
  };
}

/**
 * The 408 answer for a body still incomplete after `ms`; the connection is closed after it.
 *
 * @example
 * ```ts
 * import { bodyTooSlow } from '@skillmount/core/adapter';
 *
 * const refusal = bodyTooSlow(30_000); // { status: 408, …, headers: { connection: 'close' } }
 * ```
 * @throws Nothing.
 */
export function bodyTooSlow(ms: number): HttpRefusal {
  return {
    status: REQUEST_TIMEOUT,
    code: SERVER_ERROR,
    message: `Request Timeout: the request body did not arrive within ${ms} ms of its headers; send the whole body at once`,
    headers: { connection: 'close' },
  };
}

/**
 * The checks every request passes before its body is read or any app code runs: the Host (and
 * Origin) against `allowedHosts` (an Origin also against `allowedOrigins`), and a declared `Content-Length` against `bodyLimit`. Options
 * (also `bodyTimeout`, which whoever reads the body applies) are checked here, once;
 * `packageName` prefixes the errors, so adapters name themselves.
 *
 * @example
 * ```ts
 * import http from 'node:http';
 * import { createRequestGuard, sendError } from '@skillmount/core/adapter';
 *
 * const guard = createRequestGuard({ allowedHosts: ['skills.example.com'], bodyLimit: 1024 * 1024 }, '@acme/skills-http');
 * http.createServer((req, res) => {
 *   const refusal = guard.check(req);
 *   if (refusal) return sendError(res, refusal.status, refusal.code, refusal.message, refusal.headers);
 *   // … read the body (at most guard.bodyLimit bytes, within guard.bodyTimeout ms) and hand it on
 * });
 * ```
 * @throws {@link @skillmount/core!OptionError | OptionError} when `allowedHosts`, `allowedOrigins`, `bodyLimit` or `bodyTimeout` is invalid.
 */
export function createRequestGuard(options: RequestGuardOptions = {}, packageName = 'skillmount'): RequestGuard {
  const hosts = normalizeAllowedHosts(options.allowedHosts, packageName);
  const origins = normalizeAllowedOrigins(options.allowedOrigins, packageName);
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  if (typeof bodyLimit !== 'number' || !Number.isInteger(bodyLimit) || bodyLimit <= 0) {
    throw new OptionError(
      numberProblem(bodyLimit),
      'bodyLimit',
      `must be a positive integer (bytes), e.g. 1048576 for 1 MiB; got ${String(bodyLimit)}`,
      packageName,
    );
  }
  const bodyTimeout = options.bodyTimeout ?? DEFAULT_BODY_TIMEOUT;
  if (typeof bodyTimeout !== 'number' || !Number.isInteger(bodyTimeout) || bodyTimeout <= 0) {
    throw new OptionError(
      numberProblem(bodyTimeout),
      'bodyTimeout',
      `must be a positive integer (milliseconds), e.g. 30000 for 30 seconds; got ${String(bodyTimeout)}`,
      packageName,
    );
  }
  return {
    bodyLimit,
    bodyTimeout,
    check(req) {
      const host = hostRefusal(req, hosts, origins);
      if (host) return { status: FORBIDDEN, code: SERVER_ERROR, message: host };
      const length = declaredLength(req);
      if (length !== undefined && length > bodyLimit) return bodyTooLarge(bodyLimit);
      return undefined;
    },
  };
}
