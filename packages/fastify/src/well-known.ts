import type { SkillsEndpoint } from '@skillmount/core';
import { setClientAddress } from '@skillmount/core/adapter';
import type { FastifyInstance } from 'fastify';
import { requestContext } from './context.js';
import { keepHookHeaders } from './hook-headers.js';
import type { NormalizedOptions } from './options.js';
import { requestFailed, type Warn } from './warnings.js';

const PREFIX = '/.well-known/agent-skills/*';

/**
 * With `wellKnown: true`: GET and HEAD under `/.well-known/agent-skills/` at the origin root, where
 * `npx skills add https://host` looks, and under the MCP path, where `npx skills add
 * https://host/mcp` looks first. The app's hooks (auth, rate limits) run before them; the
 * endpoint then applies its own checks, the `context` option and the response budget.
 */
export function mountWellKnown(app: FastifyInstance, endpoint: () => SkillsEndpoint, options: Pick<NormalizedOptions, 'context' | 'path'>, warn: Warn): void {
  // A Set: with path "/" both are the root's.
  const urls = new Set([PREFIX]);
  if (options.path !== false) urls.add(`${options.path.replace(/\/$/, '')}${PREFIX}`);
  for (const url of urls) {
    app.route({
      method: ['GET', 'HEAD'],
      url,
      exposeHeadRoute: false,
      handler: async (request, reply) => {
        // Before the hijack, so an error from the app's context function gets Fastify's error handling.
        const fields = await requestContext(request, options.context);
        // The app's hooks' headers (@fastify/cors's among them) go out with the endpoint's answer.
        keepHookHeaders(reply);
        reply.hijack();
        setClientAddress(request.raw, request.ip);
        try {
          await endpoint().handleWellKnown(request.raw, reply.raw, fields);
        } catch (error) {
          // The endpoint answers (500) and reports its own failures; this is one of the plugin's.
          if (!reply.raw.headersSent) reply.raw.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
          reply.raw.end();
          warn(requestFailed(error), error);
        }
      },
    });
  }
}
