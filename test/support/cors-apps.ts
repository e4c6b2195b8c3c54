/**
 * The apps the CORS tests run, one per adapter, set up as the documentation shows (docs/guide/hosts.md, CORS): the framework's own
 * CORS library with `MCP_CORS_OPTIONS` first, then the app's bearer check (401 with a
 * `WWW-Authenticate` challenge), then the skills endpoint at `/mcp` with sessions,
 * `allowedHosts: ['127.0.0.1']` and `allowedOrigins` naming the same origins as the CORS layer.
 */
import type { IncomingHttpHeaders } from 'node:http';
import cors from 'cors';
import express from 'express';
import fastifyCors from '@fastify/cors';
import Fastify from 'fastify';
import { MCP_CORS_OPTIONS as EXPRESS_CORS, skillsMiddleware } from '@skillmount/express';
import skillsPlugin, { MCP_CORS_OPTIONS } from '@skillmount/fastify';
import { fsStorage } from '@skillmount/storage-fs';
import { listenExpressSkills, listenFastify, type Listening } from './apps.js';
import { EXAMPLES } from './skills-suite.js';

export const TOKEN = 'test-token-1';
/** What the app's bearer check answers a request without the token with. */
export const CHALLENGE = 'Bearer resource_metadata="https://skills.example.test/.well-known/oauth-protected-resource"';

/** Sees every request the app receives, before any layer answers it. */
export type SeeRequest = (method: string, headers: IncomingHttpHeaders) => void;

const SKILLS = () => ({ storage: fsStorage(EXAMPLES), sessions: true, allowedHosts: ['127.0.0.1'], onWarning: () => {} });

export async function fastifyCorsApp(origins: string[], see: SeeRequest = () => {}): Promise<Listening> {
  const app = Fastify();
  app.addHook('onRequest', async (request) => see(request.method, request.headers));
  // Before the bearer check and the plugin: a preflight is answered here, and carries no token.
  await app.register(fastifyCors, { origin: origins, ...MCP_CORS_OPTIONS });
  app.addHook('onRequest', async (request, reply) => {
    if (request.headers.authorization !== `Bearer ${TOKEN}`) {
      return reply.code(401).header('www-authenticate', CHALLENGE).send({ error: 'invalid_token' });
    }
  });
  await app.register(skillsPlugin, { ...SKILLS(), allowedOrigins: origins });
  return listenFastify(app);
}

export async function expressCorsApp(origins: string[], see: SeeRequest = () => {}): Promise<Listening> {
  const app = express();
  const skills = skillsMiddleware({ ...SKILLS(), allowedOrigins: origins });
  app.use((req, _res, next) => {
    see(req.method, req.headers);
    next();
  });
  // cors() first: it answers a preflight itself, before the bearer check and the router.
  app.use('/mcp', cors({ origin: origins, ...EXPRESS_CORS }), (req, res, next) => {
    if (req.headers.authorization === `Bearer ${TOKEN}`) return next();
    res.status(401).set('www-authenticate', CHALLENGE).json({ error: 'invalid_token' });
  });
  return listenExpressSkills(app, skills);
}

export const CORS_APPS = { fastify: fastifyCorsApp, express: expressCorsApp } as const;
