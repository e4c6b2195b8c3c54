import type { FastifyReply } from 'fastify';

/**
 * After `reply.hijack()` the endpoint writes to `reply.raw`, and Fastify sends none of the headers
 * the app's hooks set on the reply (`@fastify/cors`'s `Access-Control-Allow-Origin`, security
 * headers, rate-limit counts). Copy them onto the raw response first, so they go out with the answer.
 */
export function keepHookHeaders(reply: FastifyReply): void {
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) reply.raw.setHeader(name, value);
  }
}
