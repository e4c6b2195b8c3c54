/** CORS for browser hosts on Fastify: `@fastify/cors` with `MCP_CORS_OPTIONS` in front of the plugin's endpoint. */
import cors from '@fastify/cors';
import Fastify from 'fastify';
import skillsPlugin, { MCP_CORS_OPTIONS } from '@skillmount/fastify';
import { fsStorage } from '@skillmount/storage-fs';
import { listenFastify } from '../support/apps.js';
import { ALLOWED_ORIGIN, CHALLENGE, corsSuite, TOKEN } from '../support/cors-suite.js';
import { EXAMPLES } from '../support/skills-suite.js';

corsSuite('fastify', async () => {
  const app = Fastify();
  // First, so a preflight is answered before the bearer check and the endpoint's own checks run.
  await app.register(cors, { origin: [ALLOWED_ORIGIN], ...MCP_CORS_OPTIONS });
  app.addHook('onRequest', async (request, reply) => {
    if (request.headers.authorization !== `Bearer ${TOKEN}`) {
      return reply.code(401).header('www-authenticate', CHALLENGE).send({ error: 'invalid_token' });
    }
  });
  await app.register(skillsPlugin, {
    storage: fsStorage(EXAMPLES),
    sessions: true,
    allowedHosts: ['127.0.0.1'],
    allowedOrigins: [ALLOWED_ORIGIN],
    onWarning: () => {},
  });
  return listenFastify(app);
});
