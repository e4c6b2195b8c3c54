import { escapeControls, isModernRequest, type SkillWarning } from '@skillmount/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NAME } from './options.js';

/**
 * With `path: false`, a protocol 2026-07-28 request that the app's own route answers without
 * `app.skills.handleModern` fails only on the client ("Version negotiation failed"). This watches
 * the routes of the context the plugin was registered in and says so once, after the response.
 */
export interface ModernMissedWatch {
  /** Called by `handleModern` for a request it answers, so the watch leaves it alone. */
  answered(request: FastifyRequest): void;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A JSON-RPC request body: what an MCP client POSTs, as opposed to a metadata or health request that carries the header too. */
const isJsonRpcRequest = (body: unknown) => isObject(body) && body.jsonrpc === '2.0' && typeof body.method === 'string';

export function watchForMissedModern(app: FastifyInstance, warn: (warning: SkillWarning) => void): ModernMissedWatch {
  const answered = new WeakSet<object>();
  let warned = false;
  // onResponse runs after the answer is sent (hijacked ones included), so the check costs the client nothing.
  app.addHook('onResponse', (request, reply, done) => {
    if (
      !warned &&
      request.method === 'POST' &&
      reply.statusCode >= 400 &&
      !request.is404 &&
      !answered.has(request.raw) &&
      isJsonRpcRequest(request.body) &&
      isModernRequest(request.raw, request.body)
    ) {
      warned = true;
      warn(missedWarning(request, reply));
    }
    done();
  });
  return { answered: (request) => answered.add(request.raw) };
}

function missedWarning(request: FastifyRequest, reply: FastifyReply): SkillWarning {
  // The method name is the client's: escaped before it reaches a log line.
  const method = escapeControls((request.body as { method: string }).method.slice(0, 100));
  const route = `${request.method} ${request.routeOptions.url ?? request.url}`;
  return {
    code: 'modern-not-handled',
    message:
      `${NAME}: a protocol 2026-07-28 request (${method}) reached your own MCP route ${route} without app.skills.handleModern ` +
      `and was refused there (HTTP ${reply.statusCode}), so 2026-07-28 clients fail with "Version negotiation failed". ` +
      'Make this the first line of the route: if (await app.skills.handleModern(request, reply)) return; ' +
      '(give the plugin your server factory as the "server" option so that your own tools answer there too). Reported once.',
  };
}
