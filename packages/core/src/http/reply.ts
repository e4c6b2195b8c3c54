import type { ServerResponse } from 'node:http';
import type { HttpRefusal } from './types.js';

/** A JSON-RPC error as an HTTP response, for failures outside any JSON-RPC exchange. */
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
