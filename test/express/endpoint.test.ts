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
import { post } from './post.js';

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

test('the endpoint answers its mount path under every spelling the route takes, after the app and the router layers it has', async (t) => {
  const app = express();
  const seen: string[] = [];
  // The app's own middleware before the router runs for every MCP request, and what it sets stays on the answer.
  app.use((req, res, next) => {
    seen.push(`app ${req.method} ${req.url}`);
    res.setHeader('x-app', 'ran');
    next();
  });
  const skills = skillsMiddleware({ storage: fsStorage(EXAMPLES) });
  app.use('/mcp', skills);
  app.use((_req, res) => {
    res.status(404).type('text/plain').send('the app: not found');
  });
  const http = await listenExpress(app);
  t.after(async () => {
    await skills.close();
    await http.close();
  });
  const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'skills/list', params: {} });
  for (const url of [http.url, `${http.url}/`, `${http.url}?tenant=a`, `${http.url}/?tenant=a`]) {
    const res = await post(url, list);
    assert.equal(res.status, 200, url);
    assert.match(res.text, /"skills":\[/, url);
    assert.equal(res.headers.get('x-app'), 'ran', url);
  }
  assert.equal(seen.length, 4);
  // Not the endpoint: a path below it, a longer name that shares its start.
  for (const url of [`${http.url}/other`, `${http.url}x`]) {
    const res = await post(url, list);
    assert.equal(res.status, 404, url);
    assert.equal(res.text, 'the app: not found');
  }
  // Routes added to the router itself take their paths, and the endpoint still answers its own.
  skills.get('/status', (_req, res) => {
    res.type('text/plain').send('the router layer');
  });
  const status = await fetch(`${http.url}/status`);
  assert.equal(await status.text(), 'the router layer');
  assert.equal((await post(http.url, list)).status, 200);
});
