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
  return frameOf(JSON.stringify(message));
}

function frameOf(json: string): string {
  return `event: message\ndata: ${json}\n\n`;
}

/** A result message, serialised: what `send` takes. */
export function resultMessage(id: RequestId, result: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', id, result });
}

export class ModernReply {
  #streaming = false;

  private readonly res: ServerResponse;

  constructor(res: ServerResponse) {
    this.res = res;
  }

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
    this.send(resultMessage(id, result));
  }

  /** Send a message already serialised (`resultMessage`), as the answer. */
  send(message: string): void {
    this.#finishText(message, 200);
  }

  /** `status` applies only when nothing was streamed yet. */
  error(id: RequestId | null, error: JsonRpcError, status = 200): void {
    this.#finish({ jsonrpc: '2.0', id, error: error.data === undefined ? { code: error.code, message: error.message } : error }, status);
  }

  #finish(message: unknown, status: number): void {
    this.#finishText(JSON.stringify(message), status);
  }

  #finishText(body: string, status: number): void {
    if (this.closed) return;
    if (this.#streaming) {
      this.res.end(frameOf(body));
      return;
    }
    if (this.res.headersSent) {
      this.res.end();
      return;
    }
    this.res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    this.res.end(body);
  }
}
