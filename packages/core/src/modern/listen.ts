/**
 * `subscriptions/listen`: open-ended SSE streams that tell a client when the skills it can see
 * change (catalog reloads, `watch`), each scoped to the context of the request that opened it.
 */
import type { ServerResponse } from 'node:http';
import type { SkillContext, SkillSource } from '../types.js';
import type { RequestId } from './envelope.js';
import { META_SERVER_INFO, META_SUBSCRIPTION_ID, ModernError } from './protocol.js';
import { SSE_HEADERS, sseFrame } from './reply.js';

/** Streams beyond this many are refused, so idle listeners cannot pile up without bound. */
export const MAX_LISTEN_STREAMS = 1024;
const KEEPALIVE_MS = 15_000;

interface Stream {
  end(): void;
}

export class Listeners {
  readonly #open = new Set<Stream>();
  #closed = false;

  constructor(private readonly source: SkillSource) {}

  /**
   * Answer a listen request on `res`: the acknowledgement with what is honoured (only
   * `resourcesListChanged`, when the source reports changes), then one
   * `notifications/resources/list_changed` per change, until the client leaves or `closeAll`.
   */
  open(res: ServerResponse, id: RequestId, params: Record<string, unknown>, ctx: SkillContext, serverInfo: unknown): void {
    const asked = params.notifications;
    if (typeof asked !== 'object' || asked === null || Array.isArray(asked)) {
      throw new ModernError(
        200,
        -32602,
        'Invalid params for subscriptions/listen: params.notifications must be an object, e.g. { "resourcesListChanged": true }',
      );
    }
    if (this.#closed) throw new ModernError(503, -32000, 'Service unavailable: this endpoint is shutting down; connect again later');
    if (this.#open.size >= MAX_LISTEN_STREAMS) {
      throw new ModernError(200, -32603, `Internal error: this server already holds ${MAX_LISTEN_STREAMS} subscription streams; try again later`);
    }
    const follow = (asked as Record<string, unknown>).resourcesListChanged === true && typeof this.source.onListChanged === 'function';
    const tag = { [META_SUBSCRIPTION_ID]: id };
    // The connection ends with the stream: a stream the client walked away from must not hold the server's shutdown.
    res.writeHead(200, { ...SSE_HEADERS, connection: 'close' });
    res.write(
      sseFrame({
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: { notifications: follow ? { resourcesListChanged: true } : {}, _meta: tag },
      }),
    );
    res.flushHeaders?.();

    let unsubscribe = () => {};
    let keepalive: NodeJS.Timeout | undefined;
    const stream: Stream = {
      end: () => {
        cleanup();
        if (!res.writableEnded && !res.destroyed)
          res.end(sseFrame({ jsonrpc: '2.0', id, result: { resultType: 'complete', _meta: { ...tag, [META_SERVER_INFO]: serverInfo } } }));
      },
    };
    const cleanup = () => {
      this.#open.delete(stream);
      if (keepalive) clearInterval(keepalive);
      unsubscribe();
    };
    if (!follow) {
      stream.end();
      return;
    }
    this.#open.add(stream);
    unsubscribe = this.source.onListChanged!(() => {
      if (!res.writableEnded && !res.destroyed) res.write(sseFrame({ jsonrpc: '2.0', method: 'notifications/resources/list_changed', params: { _meta: tag } }));
    }, ctx);
    keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS).unref();
    res.on('close', cleanup);
  }

  /** End every stream with its closing result, and refuse new ones. */
  closeAll(): void {
    this.#closed = true;
    for (const stream of [...this.#open]) stream.end();
  }
}
