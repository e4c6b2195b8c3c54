/**
 * The `context` option on the app's own Express route, through run(req, fn). What the option does
 * on the router, alike on both adapters, is in test/adapters/context.test.ts.
 */
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
  // The initialize's listing for the instructions (instructions: 'auto'), then skills/list: both in the context.
  assert.deepEqual(
    seen.map((ctx) => ctx.tenant),
    ['initech', 'initech'],
  );
});
