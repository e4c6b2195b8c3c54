import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';

/** The code of the error a body stream fails with when its deadline passes; the route answers 408. */
export const BODY_TIMEOUT = 'SKILLMOUNT_BODY_TIMEOUT';

/**
 * Give each POST body of `scope` a deadline: Fastify reads bodies itself, with no time limit of
 * its own unless the server has a `requestTimeout`. The body is passed through a stream that
 * fails after `ms` (Fastify's body reader then hands the error to the route's error handler), so
 * a client trickling its body a byte at a time is cut off.
 */
export function limitBodyTime(scope: FastifyInstance, ms: number): void {
  scope.addHook('preParsing', async (request, reply, payload) => {
    if (request.method !== 'POST' || request.raw.readableEnded) return payload;
    const timed = new PassThrough();
    // Fastify may answer without reading (a content type it has no parser for): then nobody listens.
    timed.on('error', () => {});
    const timer = setTimeout(() => {
      payload.unpipe(timed);
      payload.pause();
      timed.destroy(Object.assign(new Error(`the request body did not arrive within ${ms} ms`), { code: BODY_TIMEOUT, statusCode: 408 }));
    }, ms);
    const done = () => clearTimeout(timer);
    timed.once('end', done);
    reply.raw.once('close', done);
    return payload.pipe(timed);
  });
}
