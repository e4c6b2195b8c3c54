/**
 * With path: false, a protocol 2026-07-28 request that the app's own route refuses because it
 * never called app.skills.handleModern is reported once, with code modern-not-handled; a route
 * that calls it, legacy requests, and other routes stay quiet.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { SkillWarning } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import skillsPlugin from '@skillmount/fastify';
import Fastify from 'fastify';
import { listenFastify } from '../support/apps.js';
import { connectClient } from '../support/client.js';
import { EXAMPLES } from '../support/skills-suite.js';
import { statelessTransport } from '../support/stateless-route.js';
import { appServer, modern } from '../modern/support.js';

async function ownRouteApp(callHandleModern: boolean) {
  const warnings: SkillWarning[] = [];
  const app = Fastify();
  await app.register(skillsPlugin, { storage: fsStorage(EXAMPLES), path: false, server: appServer, onWarning: (w) => warnings.push(w) });
  app.post('/mcp', async (request, reply) => {
    if (callHandleModern && (await app.skills.handleModern(request, reply))) return;
    const server = appServer();
    app.skills.attach(server);
    const transport = await statelessTransport(server, reply.raw);
    reply.hijack();
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });
  // A route a modern client may also reach with the header (OAuth metadata, say): not an MCP route.
  app.get('/.well-known/oauth-protected-resource', async (_request, reply) => reply.code(404).send({ error: 'none' }));
  const served = await listenFastify(app);
  const missed = () => warnings.filter((w) => w.code === 'modern-not-handled');
  return { ...served, app, missed };
}

const pinnedClient = () => new Client({ name: 'modern-missed-tests', version: '0.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } as never } });

test('a route without handleModern: a pinned 2026-07-28 client fails, and the plugin says once what to add', async () => {
  const served = await ownRouteApp(false);
  try {
    await assert.rejects(pinnedClient().connect(new StreamableHTTPClientTransport(new URL(served.url))), /Version negotiation failed/);
    const [warning, ...more] = served.missed();
    assert.ok(warning, 'a modern-not-handled warning');
    assert.deepEqual(more, []);
    assert.match(warning.message, /^@skillmount\/fastify: a protocol 2026-07-28 request \(server\/discover\) reached your own MCP route POST \/mcp/);
    assert.match(warning.message, /if \(await app\.skills\.handleModern\(request, reply\)\) return;/);
    // Once per plugin, however many follow.
    for (let i = 0; i < 3; i++) assert.equal((await modern(served.url, 'skills/list')).status, 400);
    assert.equal(served.missed().length, 1);
  } finally {
    await served.close();
  }
});

test('a route that calls handleModern, legacy clients and other routes raise no warning', async () => {
  const served = await ownRouteApp(true);
  try {
    const client = pinnedClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
    await client.close();
    assert.equal((await modern(served.url, 'skills/list')).status, 200);
    const { call, close } = await connectClient(served.url);
    assert.equal((await call('skills/list')).skills.length, 3);
    await close();
    const metadata = new URL('/.well-known/oauth-protected-resource', served.url);
    assert.equal((await fetch(metadata, { headers: { 'mcp-protocol-version': '2026-07-28' } })).status, 404);
    // A modern POST to a path with no route is a wrong URL, not a missing handleModern.
    assert.equal((await modern(new URL('/elsewhere', served.url).href, 'skills/list')).status, 404);
    assert.deepEqual(served.missed(), []);
  } finally {
    await served.close();
  }
});

test('a client method name in the warning is escaped before it reaches a log line', async () => {
  const served = await ownRouteApp(false);
  try {
    const method = 'skills/list\u001b[31m\nforged line';
    // Sent in the body only: fetch refuses control characters in a header.
    assert.equal((await modern(served.url, method, {}, { headers: { 'mcp-method': undefined } })).status, 400);
    const [warning] = served.missed();
    assert.ok(warning);
    assert.doesNotMatch(warning.message, /[\u0000-\u001f]/);
  } finally {
    await served.close();
  }
});
