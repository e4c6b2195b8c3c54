import type { SkillsEndpoint } from '@skillmount/core';
import type { FastifyInstance } from 'fastify';
import { requestContext } from './context.js';
import { MalformedBody, useJsonRpcBodyParser } from './json-body.js';
import { NAME, type NormalizedOptions } from './options.js';

/**
 * Mount the MCP endpoint at `path` in a context of its own, so its body parser stays off the
 * app's other routes while the app's hooks (auth, rate limits) still run before it.
 */
export function mountEndpoint(app: FastifyInstance, path: string, endpoint: SkillsEndpoint, context: NormalizedOptions['context']): void {
  app.register(async (scope) => {
    useJsonRpcBodyParser(scope);
    scope.route({
      method: ['GET', 'POST', 'DELETE'],
      url: path,
      exposeHeadRoute: false,
      handler: async (request, reply) => {
        if (request.body instanceof MalformedBody) {
          return reply
            .code(400)
            .type('application/json')
            .send({ jsonrpc: '2.0', error: { code: -32700, message: `Parse error: ${request.body.reason}` }, id: null });
        }
        // Before the hijack, so an error from the app's context function gets Fastify's error handling.
        const fields = await requestContext(request, context);
        reply.hijack();
        try {
          await endpoint.handle(request.raw, reply.raw, request.body, fields);
        } catch (error) {
          // The endpoint has already answered 500 (or ended the stream); keep the cause in the app's log.
          request.log.error({ err: error }, `${NAME}: MCP request failed`);
        }
      },
    });
  });
}
