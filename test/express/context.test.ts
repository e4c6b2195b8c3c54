import { test } from 'node:test';
import assert from 'node:assert/strict';
import express from 'express';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SkillCatalog } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import { skillsMiddleware } from '@skillmount/express';
import { EXAMPLES } from '../support/skills-suite.js';
import { connectClient } from '../support/client.js';
import { listenExpress } from '../support/apps.js';
import { statelessTransport } from '../support/stateless-route.js';
import { recordingSource } from '../support/recording-source.js';

/** The example catalog behind a source that records the context of every call. */
async function observedSource() {
  const catalog = await SkillCatalog.load(fsStorage(EXAMPLES), { onWarning: () => undefined });
  return recordingSource(catalog);
}

const AUTH = { token: 'secret-token', clientId: 'client-7', scopes: ['skills:read'] };

test('context(req), headers and req.auth reach the skill source', async (t) => {
  const { source, seen } = await observedSource();
  const app = express();
  app.use((req, _res, next) => {
    (req as unknown as { auth: unknown }).auth = AUTH; // what an auth middleware does
    next();
  });
  const skills = skillsMiddleware({
    source,
    context: async (req) => ({ tenant: req.get('x-tenant'), path: req.originalUrl }),
  });
  app.use('/mcp', skills);
  const http = await listenExpress(app);
  t.after(async () => {
    await skills.close();
    await http.close();
  });

  const { call, client, close } = await connectClient(http.url, { 'x-tenant': 'acme' });
  try {
    await call('skills/list');
    await call('skills/get', { uri: 'skill://git-workflow/SKILL.md' });
    await client.readResource({ uri: 'skill://git-workflow/SKILL.md' });
  } finally {
    await close();
  }
  assert.equal(seen.length, 3);
  for (const ctx of seen) {
    assert.equal(ctx.tenant, 'acme');
    assert.equal(ctx.path, '/mcp');
    assert.equal(ctx.headers['x-tenant'], 'acme');
    assert.deepEqual(ctx.auth, AUTH);
    assert.equal(ctx.sessionId, undefined);
  }
});

test("a context function that throws goes to the app's error handler", async (t) => {
  const { source, seen } = await observedSource();
  const app = express();
  const skills = skillsMiddleware({
    source,
    context: (req) => {
      if (!req.get('x-tenant')) throw Object.assign(new Error('no tenant'), { status: 401 });
      return { tenant: req.get('x-tenant') };
    },
  });
  app.use('/mcp', skills);
  app.use((error: Error & { status?: number }, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    res.status(error.status ?? 500).json({ jsonrpc: '2.0', error: { code: -32001, message: error.message }, id: null });
  });
  const http = await listenExpress(app);
  t.after(async () => {
    await skills.close();
    await http.close();
  });

  await assert.rejects(connectClient(http.url), /401|no tenant/);
  const { call, close } = await connectClient(http.url, { 'x-tenant': 'globex' });
  try {
    await call('skills/list');
  } finally {
    await close();
  }
  assert.equal(seen.length, 1);
  assert.equal(seen[0]!.tenant, 'globex');
});

test("run(req, fn) applies the context on the app's own route", async (t) => {
  const { source, seen } = await observedSource();
  const skills = skillsMiddleware({ source, context: (req) => ({ tenant: req.get('x-tenant') ?? 'none' }) });
  const app = express();
  app.use(express.json());
  app.post('/mcp', async (req, res) => {
    const server = new McpServer({ name: 'own-route', version: '1.0.0' });
    skills.attach(server);
    const transport = await statelessTransport(server, res);
    await skills.run(req, () => transport.handleRequest(req, res, req.body));
  });
  const http = await listenExpress(app);
  t.after(async () => {
    await skills.close();
    await http.close();
  });

  const { call, close } = await connectClient(http.url, { 'x-tenant': 'initech' });
  try {
    assert.equal((await call('skills/list')).skills.length, 3);
  } finally {
    await close();
  }
  assert.equal(seen.length, 1);
  assert.equal(seen[0]!.tenant, 'initech');
});
