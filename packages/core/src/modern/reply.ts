/**
 * How one modern answer goes out: a JSON body, or an SSE stream once something (progress, a log
 * message) has to go before the result.
 */
import type { ServerResponse } from 'node:http';
import type { RequestId } from './envelope.js';

export const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
} as const;

export interface JsonRpcError {
  code: number;
  message: string;
  data?: unknown;
}

/** One SSE frame: `event: message` and the JSON, no `id:` (2026-07-28 streams are not resumable). */
export function sseFrame(message: unknown): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}

export class ModernReply {
  #streaming = false;

  constructor(private readonly res: ServerResponse) {}

  get closed(): boolean {
    return this.res.writableEnded || this.res.destroyed;
  }

  /** Send a notification ahead of the result; the first one turns the answer into an SSE stream. */
  notify(message: unknown): void {
    if (this.closed) return;
    if (!this.#streaming) {
      if (this.res.headersSent) return;
      this.res.writeHead(200, SSE_HEADERS);
      this.#streaming = true;
    }
    this.res.write(sseFrame(message));
  }

  result(id: RequestId, result: unknown): void {
    this.#finish({ jsonrpc: '2.0', id, result }, 200);
  }

  /** `status` applies only when nothing was streamed yet. */
  error(id: RequestId | null, error: JsonRpcError, status = 200): void {
    this.#finish({ jsonrpc: '2.0', id, error: error.data === undefined ? { code: error.code, message: error.message } : error }, status);
  }

  #finish(message: unknown, status: number): void {
    if (this.closed) return;
    if (this.#streaming) {
      this.res.end(sseFrame(message));
      return;
    }
    if (this.res.headersSent) {
      this.res.end();
      return;
    }
    const body = JSON.stringify(message);
    this.res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    this.res.end(body);
  }
}
