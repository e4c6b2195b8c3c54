/**
 * `subscriptions/listen`: open-ended SSE streams that tell a client when the skills it can see
 * change (catalog reloads, `watch`), each scoped to the context of the request that opened it.
 */
import type { ServerResponse } from 'node:http';
import type { SkillContext, SkillSource } from '../types.js';
import { ClientCounts } from '../context/client-key.js';
import type { RequestId } from './envelope.js';
import { META_SERVER_INFO, META_SUBSCRIPTION_ID, ModernError } from './protocol.js';
import { SSE_HEADERS, sseFrame } from './reply.js';
import { JsonRpcErrorCode } from '../protocol/error-codes.js';

export interface ListenLimits {
  /** Streams open at once across all clients; more are refused, so idle listeners cannot pile up without bound. */
  max: number;
  /** Streams one client (see `clientKey`) holds at once, so one client cannot take every slot. */
  maxPerClient: number;
  /** A stream ends with its closing result after this long (less up to a tenth, so streams opened together do not all end together). */
  lifetimeMs: number;
}

export const LISTEN_DEFAULTS: ListenLimits = { max: 1024, maxPerClient: 32, lifetimeMs: 3_600_000 };
/** The longest delay a Node.js timer takes; a longer one would fire at once. */
export const MAX_TIMER_MS = 2_147_483_647;
const KEEPALIVE_MS = 15_000;

interface Stream {
  end(): void;
}

export class Listeners {
  readonly #open = new Set<Stream>();
  readonly #perClient = new ClientCounts();
  readonly #limits: ListenLimits;
  #closed = false;
  private readonly source: SkillSource;
  /** Whether the skills are prompts too, so a change also changes the prompt list. */
  private readonly prompts: boolean;

  constructor(source: SkillSource, limits: Partial<ListenLimits> = {}, prompts = false) {
    this.source = source;
    this.prompts = prompts;
    this.#limits = {
      max: limits.max ?? LISTEN_DEFAULTS.max,
      maxPerClient: limits.maxPerClient ?? LISTEN_DEFAULTS.maxPerClient,
      lifetimeMs: limits.lifetimeMs ?? LISTEN_DEFAULTS.lifetimeMs,
    };
  }

  /**
   * Answer a listen request on `res`: the acknowledgement with what is honoured
   * (`resourcesListChanged`, and `promptsListChanged` when the skills are prompts, when the source
   * reports changes), then one `notifications/resources/list_changed` (and
   * `notifications/prompts/list_changed`) per change, until the client leaves, the stream's
   * lifetime is up, or `closeAll`. `client` is the key of the client's share (`clientKey`).
   */
  open(res: ServerResponse, id: RequestId, params: Record<string, unknown>, ctx: SkillContext, serverInfo: unknown, client: string): void {
    const asked = params.notifications;
    if (typeof asked !== 'object' || asked === null || Array.isArray(asked)) {
      throw new ModernError(
        200,
        JsonRpcErrorCode.InvalidParams,
        'Invalid params for subscriptions/listen: params.notifications must be an object, e.g. { "resourcesListChanged": true }',
      );
    }
    if (this.#closed) throw new ModernError(503, JsonRpcErrorCode.ServerError, 'Service unavailable: this endpoint is shutting down; connect again later');
    const changes = typeof this.source.onListChanged === 'function';
    const resources = changes && (asked as Record<string, unknown>).resourcesListChanged === true;
    const prompts = changes && this.prompts && (asked as Record<string, unknown>).promptsListChanged === true;
    const follow = resources || prompts;
    if (follow) this.#admit(client);
    const tag = { [META_SUBSCRIPTION_ID]: id };
    // The connection ends with the stream: a stream the client walked away from must not hold the server's shutdown.
    res.writeHead(200, { ...SSE_HEADERS, connection: 'close' });
    res.write(
      sseFrame({
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: { notifications: { ...(resources ? { resourcesListChanged: true } : {}), ...(prompts ? { promptsListChanged: true } : {}) }, _meta: tag },
      }),
    );
    res.flushHeaders?.();

    let unsubscribe = () => {};
    let keepalive: NodeJS.Timeout | undefined;
    let lifetime: NodeJS.Timeout | undefined;
    const stream: Stream = {
      end: () => {
        cleanup();
        if (!res.writableEnded && !res.destroyed)
          res.end(sseFrame({ jsonrpc: '2.0', id, result: { resultType: 'complete', _meta: { ...tag, [META_SERVER_INFO]: serverInfo } } }));
      },
    };
    const cleanup = () => {
      if (this.#open.delete(stream)) this.#perClient.remove(client);
      if (keepalive) clearInterval(keepalive);
      if (lifetime) clearTimeout(lifetime);
      unsubscribe();
    };
    if (!follow) {
      stream.end();
      return;
    }
    this.#open.add(stream);
    this.#perClient.add(client);
    const methods = [...(resources ? ['notifications/resources/list_changed'] : []), ...(prompts ? ['notifications/prompts/list_changed'] : [])];
    unsubscribe = this.source.onListChanged!(() => {
      if (res.writableEnded || res.destroyed) return;
      for (const method of methods) res.write(sseFrame({ jsonrpc: '2.0', method, params: { _meta: tag } }));
    }, ctx);
    // Neither timer keeps the process alive: an app that closes its server is not held up by them.
    keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS).unref();
    // The closing result tells the client to listen again; the spread keeps a burst of streams from ending at one moment.
    const { lifetimeMs } = this.#limits;
    lifetime = setTimeout(stream.end, Math.min(MAX_TIMER_MS, lifetimeMs - Math.floor(Math.random() * (lifetimeMs / 10)))).unref();
    res.on('close', cleanup);
  }

  /** Throw the refusal when the endpoint or `client`'s share is full. */
  #admit(client: string): void {
    const { max, maxPerClient } = this.#limits;
    if (this.#perClient.of(client) >= maxPerClient) {
      throw new ModernError(
        200,
        JsonRpcErrorCode.InternalError,
        `Too many subscription streams: this client already holds ${maxPerClient} subscriptions/listen streams, ` +
          'the most one client may hold; close one it no longer needs (end its HTTP response) and try again, or listen once for every change',
      );
    }
    if (this.#open.size >= max) {
      throw new ModernError(
        200,
        JsonRpcErrorCode.InternalError,
        `Internal error: this server already holds ${max} subscription streams, its limit; try again later`,
      );
    }
  }

  /** End every stream with its closing result, and refuse new ones. */
  closeAll(): void {
    this.#closed = true;
    for (const stream of [...this.#open]) stream.end();
  }
}
