import type { SkillsEndpoint } from '@skillmount/core';
import { bodyNotJson, bodyTooSlow, closeAfterAnswer, discardBody, type HttpRefusal, JsonRpcErrorCode, setClientAddress } from '@skillmount/core/adapter';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { BODY_TIMEOUT, limitBodyTime } from './body-timeout.js';
import { requestContext } from './context.js';
import { keepHookHeaders } from './hook-headers.js';
import { MalformedBody, useJsonRpcBodyParser } from './json-body.js';
import type { NormalizedOptions } from './options.js';
import { addEndpointRoute } from './route-conflict.js';
import { requestFailed, type Warn } from './warnings.js';

const jsonRpcError = (code: number, message: string) => ({ jsonrpc: '2.0', error: { code, message }, id: null });

function refuse(reply: FastifyReply, refusal: HttpRefusal): FastifyReply {
  return reply
    .code(refusal.status)
    .headers(refusal.headers ?? {})
    .type('application/json')
    .send(jsonRpcError(refusal.code, refusal.message));
}

/**
 * Fastify's own refusals of a body (too large, wrong content type, bad length) as JSON-RPC errors;
 * undefined for any other error, which is left to the app's error handler.
 */
function bodyRefusal(error: FastifyError, bodyLimit: number, bodyTimeout: number): HttpRefusal | undefined {
  if (error.code === BODY_TIMEOUT) return bodyTooSlow(bodyTimeout);
  if (typeof error.code !== 'string' || !error.code.startsWith('FST_ERR_CTP_')) return undefined;
  const status = typeof error.statusCode === 'number' ? error.statusCode : 400;
  if (status === 413) {
    return {
      status,
      code: JsonRpcErrorCode.ServerError,
      message: `Payload Too Large: the request body is over the ${bodyLimit}-byte limit of this endpoint; send one JSON-RPC message or a small batch`,
    };
  }
  if (status === 415) return { status, code: JsonRpcErrorCode.ServerError, message: 'Unsupported Media Type: Content-Type must be application/json' };
  return { status, code: JsonRpcErrorCode.ParseError, message: `Parse error: ${error.message}` };
}

/**
 * Mount the MCP endpoint at `path` in a context of its own, so its body parser, body limit and
 * error answers stay off the app's other routes while the app's hooks (auth, rate limits) still
 * run before it.
 */
export function mountEndpoint(
  app: FastifyInstance,
  path: string,
  endpoint: SkillsEndpoint,
  options: Pick<NormalizedOptions, 'context' | 'guard'>,
  warn: Warn,
): void {
  const { context, guard } = options;
  app.register(async (scope) => {
    useJsonRpcBodyParser(scope);
    limitBodyTime(scope, guard.bodyTimeout);
    // Before the body is read: a refused Host or an oversized declared body costs nothing more.
    scope.addHook('onRequest', async (request, reply) => {
      const refusal = guard.check(request.raw);
      if (!refusal) return;
      discardBody(request.raw);
      return refuse(reply, refusal);
    });
    // Errors this route's body parsing raises get JSON-RPC bodies; the rest go on to the app's handler.
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      const refusal = bodyRefusal(error, guard.bodyLimit, guard.bodyTimeout);
      if (!refusal) throw error;
      // A body cut off for time: whatever still trickles in is not waited for.
      if (error.code === BODY_TIMEOUT) closeAfterAnswer(request.raw, reply.raw);
      else discardBody(request.raw);
      return refuse(reply, refusal);
    });
    addEndpointRoute(scope, {
      method: ['GET', 'POST', 'DELETE'],
      url: path,
      exposeHeadRoute: false,
      bodyLimit: guard.bodyLimit,
      handler: async (request, reply) => {
        // Fastify's parser refused it: answered as the endpoint answers a body that is not JSON behind every adapter.
        if (request.body instanceof MalformedBody) return refuse(reply, bodyNotJson());
        // Before the hijack, so an error from the app's context function gets Fastify's error handling.
        const fields = await requestContext(request, context);
        keepHookHeaders(reply);
        reply.hijack();
        // Per-client shares count Fastify's address, which honours the app's trustProxy.
        setClientAddress(request.raw, request.ip);
        try {
          await endpoint.handle(request.raw, reply.raw, request.body, fields);
        } catch (error) {
          // The endpoint has already answered 500 (or ended the stream): the cause goes where every warning goes.
          warn(requestFailed(error), error);
        }
      },
    });
  });
}
