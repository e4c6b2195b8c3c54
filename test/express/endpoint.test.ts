/**
 * What only the Express router has: a body parser of the app's may run before it, and it answers
 * only at its mount path and for MCP's methods, leaving the rest to the app. Every behaviour both
 * adapters share is in test/adapters.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import express from 'express';
import { fsStorage } from '@skillmount/storage-fs';
import { skillsMiddleware, type SkillsMiddlewareOptions } from '@skillmount/express';
import { EXAMPLES, checkSkillsEndpoint } from '../support/skills-suite.js';
import { listenExpress } from '../support/apps.js';

/** An app with express.json() and the skills router at /mcp, closed when the test ends. */
async function serveBehindJsonParser(t: { after: (fn: () => Promise<void>) => void }, options: SkillsMiddlewareOptions) {
  const app = express();
  app.use(express.json());
  const skills = skillsMiddleware(options);
  app.use('/mcp', skills);
  const http = await listenExpress(app);
  t.after(async () => {
    await skills.close();
    await http.close();
  });
  return http.url;
}

test('serves examples/skills behind express.json(), stateless and with sessions', async (t) => {
  for (const sessions of [false, true]) {
    await checkSkillsEndpoint(await serveBehindJsonParser(t, { storage: fsStorage(EXAMPLES), pageSize: 2, sessions }), { pageSize: 2 });
  }
});

test('other paths under the mount, and methods MCP does not use, fall through to the app', async (t) => {
  const app = express();
  const skills = skillsMiddleware({ storage: fsStorage(EXAMPLES) });
  app.use('/mcp', skills);
  app.get('/mcp/health', (_req, res) => {
    res.json({ ok: true });
  });
  // A CORS preflight handler the app adds after the router, say.
  app.options('/mcp', (_req, res) => {
    res.status(204).set('access-control-allow-methods', 'GET, POST, DELETE').end();
  });
  const http = await listenExpress(app);
  t.after(async () => {
    await skills.close();
    await http.close();
  });
  const res = await fetch(http.url + '/health');
  assert.deepEqual(await res.json(), { ok: true });
  const preflight = await fetch(http.url, { method: 'OPTIONS' });
  assert.equal(preflight.status, 204);
  assert.equal(preflight.headers.get('access-control-allow-methods'), 'GET, POST, DELETE');
});
