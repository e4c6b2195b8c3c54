/**
 * How `serve` stops: on SIGTERM, SIGINT, or the end of the process that launched it
 * (./serve-launcher.ts), one path. It stops accepting connections at once, lets the requests in
 * flight finish (their MCP sessions stay open meanwhile), then ends the sessions and the streams
 * that never finish by themselves (GET streams, `subscriptions/listen`); connections still open
 * GRACE_MS after the start are closed. Then it closes the watchers, the catalog and the storage
 * (pools, clients), and lets the process end (status 0). A second signal exits at once (status 128
 * + its number: 130 for SIGINT, 143 for SIGTERM).
 */
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { constants } from 'node:os';
import type { ServeLog } from '../serve-log.js';
import { plural } from '../terminal/words.js';
import { watchLauncher } from './serve-launcher.js';

/** How long the requests in flight when a stop begins get to finish before their connections are closed. */
const GRACE_MS = 10_000;
/** Then, how long closing the catalog and the storage may take before the process exits anyway (status 1). */
const CLOSE_MS = 5_000;
/**
 * A signal this soon after the first is the same request passed on, not a second one: `pnpm exec`
 * answers Ctrl-C (SIGINT to the whole job, the server included) by sending the server SIGTERM too.
 */
const SAME_REQUEST_MS = 1_000;

/** What a stop closes, in this order, once the HTTP server has stopped accepting connections and the requests in flight are done. */
export interface ServerParts {
  server: HttpServer;
  /** Called first when a stop begins (readiness turns to "stopping"), before the listening socket closes. */
  onStop?: () => void;
  /** The framework's close: MCP sessions and listen streams end, the app's watch stops, new requests get 503. */
  closeApp(): Promise<void>;
  /** The catalog or the tenant source, then the storage. */
  release(): Promise<void>;
  /** Where the stop's lines go (text on stderr, or JSON lines). */
  log: ServeLog;
}

/**
 * Stop the server as described above when SIGTERM or SIGINT arrives or the launcher ends. Call it
 * before the "serving" line: whoever waits for that line may signal at once.
 */
export function stopWhenAsked(parts: ServerParts): void {
  const answers = trackAnswers(parts.server);
  let stoppedAt: number | undefined;
  const stopWatching = watchLauncher((pid) => void stop(`the process that started the server (pid ${pid}) has ended`));
  const onSignal = (signal: NodeJS.Signals) => {
    if (stoppedAt === undefined) void stop(signal);
    else if (Date.now() - stoppedAt >= SAME_REQUEST_MS) {
      parts.log.event('exiting', `skillmount: ${signal} again, exiting at once`, { signal }, 'err');
      process.exit(128 + (constants.signals[signal] ?? 0));
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  async function stop(why: string): Promise<void> {
    stoppedAt = Date.now();
    parts.onStop?.();
    stopWatching();
    const closed = answers.stopAccepting();
    parts.log.event('stopping', `skillmount: ${why}, stopping (requests in flight get up to ${GRACE_MS / 1000} s to finish)`, { graceMs: GRACE_MS }, 'err');
    const cut = setTimeout(() => {
      const left = answers.open;
      parts.log.event(
        'cut',
        `skillmount: ${plural(left, 'request')} still in flight after ${GRACE_MS / 1000} s: closing ${left === 1 ? 'its connection' : 'their connections'}`,
        { requests: left },
        'err',
      );
      answers.cut();
    }, GRACE_MS);
    cut.unref();
    // Unref'd, and never cleared: it fires only if something still holds the process by then.
    setTimeout(() => {
      parts.log.event('stop-failed', `skillmount: still not stopped ${(GRACE_MS + CLOSE_MS) / 1000} s after ${why}: exiting`, {}, 'err');
      process.exit(1);
    }, GRACE_MS + CLOSE_MS).unref();
    try {
      await answers.requestsDone();
      await parts.closeApp();
      await closed;
      await parts.release();
      if (parts.log.format === 'json') parts.log.event('stopped', 'stopped', {});
    } catch (error) {
      parts.log.event('stop-failed', `skillmount: while stopping: ${error instanceof Error ? error.message : String(error)}`, {}, 'err');
      process.exitCode = 1;
    } finally {
      clearTimeout(cut);
    }
  }
}

/**
 * A response that lasts until the server ends it: a 2025-11-25 GET stream, a 2026-07-28
 * `subscriptions/listen` stream. Waiting for one would always take the whole grace period.
 */
const isStream = (request: IncomingMessage) =>
  (request.method === 'GET' && (request.headers.accept ?? '').includes('text/event-stream')) || request.headers['mcp-method'] === 'subscriptions/listen';

/**
 * The connections of a server and the responses each has not finished. Once the server stops
 * accepting, a connection is closed as soon as it has no answer left to send: a kept-alive one
 * would otherwise hold the server open for the keep-alive timeout, and one that sends another
 * request meanwhile is told to close after it.
 */
function trackAnswers(server: HttpServer) {
  const connections = new Map<Socket, number>();
  /** Each response not finished, and whether it is a stream. */
  const open = new Map<ServerResponse, boolean>();
  let stopping = false;
  let requestsLeft: (() => void) | undefined;
  const requests = () => [...open.values()].filter((stream) => !stream).length;
  // Node's own closeIdleConnections, which server.close() calls (Fastify's close too), takes a
  // connection whose answer has been handed over (res.end) but not yet sent for idle, and destroys
  // it: a large answer to a slow reader would be cut. And it leaves alone a connection on which no
  // request has come yet (a client's spare one) until the client gives up. This one closes exactly
  // the connections with nothing to send.
  const closeIdle = () => {
    for (const [socket, answers] of connections) if (answers === 0) socket.destroy();
  };
  server.closeIdleConnections = closeIdle;
  server.on('connection', (socket: Socket) => {
    connections.set(socket, 0);
    socket.once('close', () => connections.delete(socket));
  });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    connections.set(socket, (connections.get(socket) ?? 0) + 1);
    open.set(response, isStream(request));
    if (stopping && !response.headersSent) response.shouldKeepAlive = false;
    response.once('close', () => {
      open.delete(response);
      const answers = connections.get(socket);
      if (answers !== undefined) connections.set(socket, answers - 1);
      if (!stopping) return;
      closeIdle();
      if (requests() === 0) requestsLeft?.();
    });
  });
  return {
    get open() {
      return open.size;
    },
    /** Close the listening socket (new connections are refused from now on); resolves once every connection has closed. */
    stopAccepting(): Promise<void> {
      stopping = true;
      for (const response of open.keys()) if (!response.headersSent) response.shouldKeepAlive = false;
      // server.close() closes the idle connections too (closeIdle above).
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
    /** Resolves once no request is in flight but streams (after stopAccepting, or when the connections are cut). */
    requestsDone: () => (requests() === 0 ? Promise.resolve() : new Promise<void>((resolve) => (requestsLeft = resolve))),
    cut: () => server.closeAllConnections(),
  };
}
