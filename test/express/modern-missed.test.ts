/**
 * An app's own Express route that never calls skills.handleModern: the first protocol 2026-07-28
 * request to reach an attached server's SDK transport is reported once, with code
 * modern-not-handled; a route that calls it, and legacy clients, stay quiet.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { SkillWarning } from '@skillmount/core';
import { skillsMiddleware } from '@skillmount/express';
import { fsStorage } from '@skillmount/storage-fs';
import express from 'express';
import { listenExpress } from '../support/apps.js';
import { connectClient } from '../support/client.js';
import { EXAMPLES } from '../support/skills-suite.js';
import { statelessTransport } from '../support/stateless-route.js';
import { appServer, modern } from '../modern/support.js';

async function ownRouteApp(callHandleModern: boolean) {
  const warnings: SkillWarning[] = [];
  const skills = skillsMiddleware({ storage: fsStorage(EXAMPLES), server: appServer, onWarning: (w) => warnings.push(w) });
  const app = express();
  app.post('/mcp', express.json(), async (req, res) => {
    if (callHandleModern && (await skills.handleModern(req, res))) return;
    const server = appServer();
    skills.attach(server);
    const transport = await statelessTransport(server, res);
    await transport.handleRequest(req, res, req.body);
  });
  const served = await listenExpress(app);
  const missed = () => warnings.filter((w) => w.code === 'modern-not-handled');
  return {
    url: served.url,
    missed,
    close: async () => {
      await skills.close();
      await served.close();
    },
  };
}

const pinnedClient = () => new Client({ name: 'modern-missed-tests', version: '0.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } as never } });

test('a route without handleModern: a pinned 2026-07-28 client fails, and the router says once what to add', async () => {
  const served = await ownRouteApp(false);
  try {
    await assert.rejects(pinnedClient().connect(new StreamableHTTPClientTransport(new URL(served.url))), /Version negotiation failed/);
    const [warning, ...more] = served.missed();
    assert.ok(warning, 'a modern-not-handled warning');
    assert.deepEqual(more, []);
    assert.match(
      warning.message,
      /^@skillmount\/express: a protocol 2026-07-28 request \(server\/discover\) reached the SDK transport of your own MCP route POST \/mcp/,
    );
    assert.match(warning.message, /if \(await skills\.handleModern\(req, res\)\) return;/);
    for (let i = 0; i < 3; i++) assert.equal((await modern(served.url, 'skills/list')).status, 400);
    assert.equal(served.missed().length, 1);
  } finally {
    await served.close();
  }
});

test('a route that calls handleModern, and legacy clients, raise no warning', async () => {
  const served = await ownRouteApp(true);
  try {
    const client = pinnedClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
    await client.close();
    assert.equal((await modern(served.url, 'skills/list')).status, 200);
    const { call, close } = await connectClient(served.url);
    assert.equal((await call('skills/list')).skills.length, 3);
    await close();
    assert.deepEqual(served.missed(), []);
  } finally {
    await served.close();
  }
});
