import type { IncomingMessage, ServerResponse } from 'node:http';

/** Requests to a skills endpoint are small JSON-RPC messages; 1 MiB leaves ample room. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
/** Such a body arrives in one round trip; 30 s leaves ample room for a slow link. */
export const DEFAULT_BODY_TIMEOUT = 30_000;

// After a refusal, the rest of an upload is read and dropped so the answer reaches the client
// intact, but only this much and this long: then the connection is cut.
const DISCARD_MAX_BYTES = 8 * 1024 * 1024;
const DISCARD_MAX_MS = 10_000;

/** The declared `Content-Length`, or undefined when there is none (a chunked body, say). */
export function declaredLength(req: IncomingMessage): number | undefined {
  const header = req.headers['content-length'];
  if (header === undefined) return undefined;
  const length = Number(header);
  return Number.isFinite(length) ? length : undefined;
}

/**
 * Read the body, keeping at most `limit` bytes and waiting at most `timeoutMs`: `'too-large'`
 * when it is longer (the rest is then discarded in the background), `'too-slow'` when it has not
 * ended in time (the caller answers, then closes the connection). Rejects when the client goes
 * away before the body ends.
 */
export function readBody(req: IncomingMessage, limit: number, timeoutMs: number): Promise<Buffer | 'too-large' | 'too-slow'> {
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(() => {
      stop();
      req.pause();
      resolve('too-slow');
    }, timeoutMs);
    const stop = () => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        stop();
        discardBody(req);
        resolve('too-large');
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    const onClose = () => {
      stop();
      reject(new Error('the client closed the connection before the request body was complete'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/**
 * Drop whatever is left of a request body after the request was answered without it, so the
 * client gets the answer rather than a reset connection; a client that keeps sending past
 * 8 MiB or 10 seconds has its connection closed.
 *
 * @example
 * ```ts
 * import http from 'node:http';
 * import { bodyTooLarge, discardBody, sendError } from '@skillmount/core/adapter';
 *
 * http.createServer((req, res) => {
 *   const refusal = bodyTooLarge(1024);
 *   sendError(res, refusal.status, refusal.code, refusal.message);
 *   discardBody(req); // the client reads the answer instead of a reset connection
 * });
 * ```
 * @throws Nothing.
 */
export function discardBody(req: IncomingMessage): void {
  if (req.readableEnded || req.destroyed) return;
  let dropped = 0;
  const cut = () => {
    done();
    req.socket?.destroy();
  };
  const timer = setTimeout(cut, DISCARD_MAX_MS).unref();
  const onData = (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > DISCARD_MAX_BYTES) cut();
  };
  const done = () => {
    clearTimeout(timer);
    req.off('data', onData);
    req.off('end', done);
    req.off('error', done);
    req.off('close', done);
  };
  req.on('data', onData);
  req.on('end', done);
  req.on('error', done);
  req.on('close', done);
  req.resume();
}

/**
 * Close the connection of `req` once the answer in `res` has gone out (after a body was cut off).
 *
 * @example
 * ```ts
 * import http from 'node:http';
 * import { bodyTooSlow, closeAfterAnswer, sendError } from '@skillmount/core/adapter';
 *
 * http.createServer((req, res) => {
 *   const refusal = bodyTooSlow(30_000);
 *   sendError(res, refusal.status, refusal.code, refusal.message, refusal.headers);
 *   closeAfterAnswer(req, res);
 * });
 * ```
 * @throws Nothing.
 */
export function closeAfterAnswer(req: IncomingMessage, res: ServerResponse): void {
  const close = () => req.socket?.destroy();
  if (res.writableFinished) close();
  else {
    res.once('finish', close);
    res.once('close', close);
  }
}

/**
 * Whether the endpoint reads this POST's body itself. Only a gate: the transport still checks
 * `Content-Type` (and `Accept`) with its own rules, and refuses other types without reading.
 */
export function isJsonContentType(req: IncomingMessage): boolean {
  const type = req.headers['content-type'];
  return typeof type === 'string' && type.split(';', 1)[0]!.trim().toLowerCase() === 'application/json';
}
