import type { FastifyReply } from 'fastify';

/**
 * After `reply.hijack()` the endpoint writes to `reply.raw`, and Fastify sends none of the headers
 * the app's hooks set on the reply (`@fastify/cors`'s `Access-Control-Allow-Origin`, security
 * headers, rate-limit counts). Copy them onto the raw response first, so they go out with the answer.
 */
export function keepHookHeaders(reply: FastifyReply): void {
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    // The framing of the body Fastify would have sent, not of the endpoint's answer: a hook's
    // content-length would cut an event stream whose headers leave before its data.
    if (value !== undefined && !FRAMING.has(name.toLowerCase())) reply.raw.setHeader(name, value);
  }
}

const FRAMING = new Set(['content-length', 'transfer-encoding']);
