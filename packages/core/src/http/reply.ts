import type { ServerResponse } from 'node:http';
import type { HttpRefusal } from './types.js';

/**
 * A JSON-RPC error as an HTTP response, for failures outside any JSON-RPC exchange.
 *
 * @example
 * ```ts
 * import http from 'node:http';
 * import { JsonRpcErrorCode, sendError } from '@skillmount/core/adapter';
 *
 * http.createServer((req, res) => sendError(res, 405, JsonRpcErrorCode.ServerError, 'Method Not Allowed', { allow: 'GET, POST, DELETE' }));
 * ```
 * @throws Nothing: once headers are sent it only ends the response.
 */
export function sendError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { ...headers, 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

export function sendRefusal(res: ServerResponse, refusal: HttpRefusal): void {
  sendError(res, refusal.status, refusal.code, refusal.message, refusal.headers);
}
