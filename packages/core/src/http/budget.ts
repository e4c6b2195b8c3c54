import { AsyncLocalStorage } from 'node:async_hooks';
import type { Socket } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SkillProtocolError } from '../errors.js';
import { seamMissing, wrapHandlerLookups } from '../sdk/seams.js';
import type { SkillWarning } from '../types.js';
import { JsonRpcErrorCode } from '../protocol/error-codes.js';

export interface ResponseBudgetLimits {
  /** Bytes of answers one connection may have produced and not yet sent. */
  perConnection: number;
  /** The same, summed over every connection of the endpoint. */
  total: number;
  /** Requests of one connection that may run at once (each holds its answer until it is counted). */
  requestsPerConnection: number;
  /** How long a request waits for room before it fails. */
  waitMs: number;
}

// A connection may pass its budget by one answer (a request starts while it is under), and each
// counted byte is held about twice until sent (the serialised message and its encoded bytes).
export const DEFAULT_RESPONSE_BUDGET: ResponseBudgetLimits = {
  perConnection: 4 * 1024 * 1024,
  total: 32 * 1024 * 1024,
  requestsPerConnection: 4,
  waitMs: 30_000,
};

/** A server error code of the JSON-RPC range: the request was valid, the server will not run it now. */
const SERVER_BUSY = JsonRpcErrorCode.ServerError;
/** How often waiting requests look again: a socket that drains into the kernel emits no event for it. */
const RECHECK_MS = 20;
const TAG = Symbol.for('skillmount.responseBudget');

/** What one connection has produced and what it has sent. */
class ConnectionLoad {
  /** Result bytes handed to the transport on this connection. */
  produced = 0;
  /** Requests running now, and requests waiting for room. */
  running = 0;
  waiting = 0;
  /**
   * The size of this connection's last answer, taken as the size of each running request;
   * undefined before the first. For the connection's own budget an unknown size counts as the
   * whole budget, so its first request runs alone and the ones after it know what to expect.
   */
  typical: number | undefined;
  closed = false;
  /** Bytes the socket had sent before it was first seen here. */
  readonly #base: number;

  readonly socket: Socket;

  constructor(socket: Socket) {
    this.socket = socket;
    this.#base = sent(socket);
  }

  /** Result bytes produced but not yet accepted by the kernel: queued in the response stream or the socket. */
  get unsent(): number {
    return Math.max(0, this.produced - (sent(this.socket) - this.#base));
  }

  /**
   * What this connection holds or is about to: its unsent bytes and the expected results of its
   * running requests, each counted as `unknown` bytes while no answer has shown their size.
   */
  load(unknown: number): number {
    return this.unsent + this.running * (this.typical ?? unknown);
  }
}

/**
 * Bytes the kernel has accepted on `socket`. `bytesWritten` also counts what is still buffered
 * in the socket, and `writableLength` what is buffered or being written, so the difference is
 * what has left the process.
 */
function sent(socket: Socket): number {
  return socket.bytesWritten - socket.writableLength;
}

interface Waiter {
  load: ConnectionLoad;
  deadline: number;
  resolve(): void;
  fail(): void;
}

/**
 * Bounds the answers an endpoint holds for clients that do not read them: a client that sends
 * many requests (a batch, pipelined HTTP/1.1 requests, requests on many streams) and never reads
 * the answers would otherwise make the server hold every file's and every list page's serialised
 * copy in memory. Every answer counts: `resources/read`, the skills methods, the app's own
 * methods. A request starts only when its connection, and the endpoint as a whole, have room
 * under the limits; it waits for room (the client reading what was sent) up to `waitMs`, then
 * fails with a JSON-RPC error that says why. Bytes count from the moment an answer is handed to the transport until
 * the kernel accepts them, measured on the socket itself, so backpressure anywhere between
 * (the response stream, the socket's buffer) keeps them counted.
 */
export class ResponseBudget {
  readonly #limits: ResponseBudgetLimits;
  readonly #socket = new AsyncLocalStorage<Socket>();
  readonly #counting = new AsyncLocalStorage<boolean>();
  readonly #loads = new Map<Socket, ConnectionLoad>();
  readonly #waiting = new Set<Waiter>();
  #timer: NodeJS.Timeout | undefined;

  constructor(limits: ResponseBudgetLimits = DEFAULT_RESPONSE_BUDGET) {
    this.#limits = limits;
  }

  /** Run `fn` (the transport handling one HTTP request) with answers counted against `socket`. */
  run<T>(socket: Socket | undefined, fn: () => T): T {
    return socket ? this.#socket.run(socket, fn) : fn();
  }

  /** Bytes produced and not yet sent, and expected from running requests, over every connection. */
  get load(): number {
    let total = 0;
    for (const load of this.#loads.values()) total += load.load(0);
    return total;
  }

  /**
   * Count every answer of `server` (the skills methods, `resources/read`, the app's own methods)
   * against the connection that asked for it. On an SDK without the handler-map seam, that
   * server's answers run unbounded, and `onWarning` hears it once. Returns whether it took hold.
   */
  limitAnswers(server: McpServer | Server, onWarning: (warning: SkillWarning) => void): boolean {
    const held = wrapHandlerLookups(
      server,
      TAG,
      (handler, method) => (request, extra) =>
        this.count(
          subjectOf(method, request.params),
          () => handler(request, extra),
          // The SDK sends nothing for a request cancelled meanwhile: nothing is counted for it either.
          (result) => ((extra as { signal?: AbortSignal } | undefined)?.signal?.aborted ? 0 : answerBytes(result)),
        ),
    );
    if (!held) {
      seamMissing(
        onWarning,
        'request-handler-map',
        'answers on the 2025-11-25 path are not held to the response budget ' +
          '(a client that never reads its answers can make the server hold them in memory)',
      );
    }
    return held;
  }

  /**
   * Run one request's work (`subject` names it in a refusal: a URI or a method) once its
   * connection (the one `run` was given) has room, and count its result against that connection
   * until the kernel accepts it. `size` measures the answer (default: a read's texts and blobs,
   * else its JSON). Outside `run`, it just runs.
   */
  async count<T>(subject: string, work: () => Promise<T>, size: (answer: T) => number = answerBytes): Promise<T> {
    // An answer counted already (a 2026-07-28 request the app's server answers) is not counted twice.
    if (this.#counting.getStore()) return work();
    const load = this.#loadOf(this.#socket.getStore());
    if (!load) return work();
    await this.#admit(load, subject);
    try {
      const result = await this.#counting.run(true, work);
      const bytes = size(result);
      load.typical = bytes;
      load.produced += bytes;
      return result;
    } finally {
      load.running--;
      this.#wake();
    }
  }

  #loadOf(socket: Socket | undefined): ConnectionLoad | undefined {
    if (!socket || socket.destroyed) return undefined;
    let load = this.#loads.get(socket);
    if (!load) {
      const created = new ConnectionLoad(socket);
      load = created;
      this.#loads.set(socket, created);
      socket.once('close', () => {
        created.closed = true;
        this.#loads.delete(socket);
        this.#wake();
      });
    }
    return load;
  }

  #hasRoom(load: ConnectionLoad, totalLoad: number): boolean {
    const { perConnection, total, requestsPerConnection } = this.#limits;
    // With nothing running on the connection, one request may start even if its answer will be
    // larger than the budget: a file over the budget is still served, one at a time. A connection
    // that holds nothing unsent may start one whatever the others hold, so clients that never
    // read cannot starve one that does (each of theirs holds at most one answer past the total).
    if (load.running === 0) return load.unsent === 0 || (load.unsent < perConnection && totalLoad < total);
    const next = load.typical ?? perConnection;
    return load.running < requestsPerConnection && load.load(perConnection) + next <= perConnection && totalLoad + (load.typical ?? 0) <= total;
  }

  /** Resolve once `load` may start a request (then counted as running), or reject after `waitMs`. */
  #admit(load: ConnectionLoad, subject: string): Promise<void> {
    // Requests of a connection start in the order they came; other connections need not wait.
    if (load.waiting === 0 && this.#hasRoom(load, this.load)) {
      load.running++;
      return Promise.resolve();
    }
    const what = ` of ${subject.slice(0, 200)}`;
    const { waitMs, perConnection, total } = this.#limits;
    return new Promise((resolve, reject) => {
      load.waiting++;
      this.#waiting.add({
        load,
        deadline: Date.now() + waitMs,
        resolve,
        fail: () =>
          reject(
            new SkillProtocolError(
              SERVER_BUSY,
              load.closed
                ? `Connection closed: the request${what} was not run because the client went away`
                : `Server busy: the request${what} waited ${waitMs} ms for the client to read earlier responses ` +
                    `(at most ${perConnection} bytes may wait per connection, ${total} in all); ` +
                    'read the responses already sent, or send fewer requests at once',
            ),
          ),
      });
      this.#timer ??= setInterval(() => this.#wake(), RECHECK_MS).unref();
    });
  }

  /** Start the waiting requests that now have room, oldest first; fail those out of time. */
  #wake(): void {
    if (this.#waiting.size === 0) return;
    const now = Date.now();
    let totalLoad = this.load;
    for (const waiter of this.#waiting) {
      const { load } = waiter;
      const out = load.closed || now >= waiter.deadline;
      if (!out && !this.#hasRoom(load, totalLoad)) continue;
      this.#waiting.delete(waiter);
      load.waiting--;
      if (out) waiter.fail();
      else {
        load.running++;
        totalLoad += load.typical ?? 0;
        waiter.resolve();
      }
    }
    if (this.#waiting.size === 0 && this.#timer) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }
}

/** What a refusal names: the URI of a read, else the method. */
function subjectOf(method: string, params: unknown): string {
  const uri = (params as { uri?: unknown } | undefined)?.uri;
  return method === 'resources/read' && typeof uri === 'string' ? uri : method;
}

/**
 * Bytes an answer puts on the wire, near enough: a read's texts and blobs (counted without
 * serialising them, as reads are the hot path), else its JSON.
 */
function answerBytes(result: unknown): number {
  const contents = (result as { contents?: unknown } | null)?.contents;
  if (!Array.isArray(contents)) return JSON.stringify(result)?.length ?? 0;
  let bytes = 0;
  for (const item of contents as { text?: unknown; blob?: unknown }[]) {
    if (typeof item?.text === 'string') bytes += item.text.length;
    else if (typeof item?.blob === 'string') bytes += item.blob.length;
  }
  return bytes;
}
