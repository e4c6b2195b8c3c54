/** CORS for browser hosts on Fastify: `@fastify/cors` with `MCP_CORS_OPTIONS` in front of the plugin's endpoint. */
import { fastifyCorsApp } from '../support/cors-apps.js';
import { ALLOWED_ORIGIN, corsSuite } from '../support/cors-suite.js';

corsSuite('fastify', () => fastifyCorsApp([ALLOWED_ORIGIN]));
