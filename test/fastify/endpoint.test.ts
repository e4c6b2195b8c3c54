import { test } from 'node:test';
import assert from 'node:assert/strict';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { fsStorage } from '@skillmount/storage-fs';
import * as z from 'zod';
import { connectClient } from '../support/client.js';
import { checkSkillsEndpoint, EXAMPLES } from '../support/skills-suite.js';
import { startApp } from './app.js';

const JSON_RPC_ACCEPT = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

test('serves examples/skills over real HTTP, two skills per page', async () => {
  const { app, url } = await startApp({ storage: fsStorage(EXAMPLES), pageSize: 2, onWarning: () => {} });
  try {
    await checkSkillsEndpoint(url, { pageSize: 2 });
    assert.equal(app.skills.entries.length, 3);
    assert.ok(app.skills.catalog, 'a catalog loaded from storage is exposed');
  } finally {
    await app.close();
  }
});

test("the app's own McpServer tool and resource are served beside the skills", async () => {
  const { app, url } = await startApp({
    storage: fsStorage(EXAMPLES),
    server: () => {
      const mcp = new McpServer({ name: 'app', version: '1.0.0' });
      mcp.registerTool('add', { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({
        content: [{ type: 'text', text: String(a + b) }],
      }));
      mcp.registerResource('readme', 'app://readme', { mimeType: 'text/plain' }, async (uri) => ({
        contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'hello from the app' }],
      }));
      return mcp;
    },
  });
  const { client, close } = await connectClient(url);
  try {
    assert.deepEqual(
      (await client.listTools()).tools.map((t) => t.name),
      ['add'],
    );
    const sum = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
    assert.deepEqual(sum.content, [{ type: 'text', text: '5' }]);
    const readme = await client.readResource({ uri: 'app://readme' });
    assert.equal((readme.contents[0] as { text: string }).text, 'hello from the app');
    const uris = (await client.listResources()).resources.map((r) => r.uri);
    assert.ok(uris.includes('app://readme'), "the app's resource is listed");
    assert.ok(uris.includes('skill://git-workflow/SKILL.md'), 'the skills are listed too');
  } finally {
    await close();
  }
  try {
    await checkSkillsEndpoint(url);
  } finally {
    await app.close();
  }
});

test('a low-level Server from the factory works too', async () => {
  const { app, url } = await startApp({
    storage: fsStorage(EXAMPLES),
    server: () => {
      const server = new Server({ name: 'low-level', version: '1.0.0' }, { capabilities: { tools: {} } });
      server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: 'ping', inputSchema: { type: 'object' } }] }));
      server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [{ type: 'text', text: 'pong' }] }));
      return server;
    },
  });
  const { client, close } = await connectClient(url);
  try {
    const pong = await client.callTool({ name: 'ping', arguments: {} });
    assert.deepEqual(pong.content, [{ type: 'text', text: 'pong' }]);
  } finally {
    await close();
  }
  try {
    await checkSkillsEndpoint(url);
  } finally {
    await app.close();
  }
});

test('GET and DELETE answer 405, malformed JSON gets -32700, and the server stays healthy', async () => {
  const { app, url } = await startApp({ storage: fsStorage(EXAMPLES) }, (app) => {
    // One of the app's own routes, to show the endpoint's body parser does not leak into it.
    app.post('/echo', async (request) => request.body);
  });
  try {
    // DELETE carries an empty JSON body, which Fastify's own parser would refuse with its own 400.
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(url, { method, headers: JSON_RPC_ACCEPT, ...(method === 'DELETE' ? { body: '' } : {}) });
      assert.equal(response.status, 405, method);
      assert.equal(response.headers.get('allow'), 'POST');
      const body = (await response.json()) as any;
      assert.equal(body.jsonrpc, '2.0');
      assert.equal(typeof body.error.code, 'number');
      assert.match(body.error.message, /POST/);
    }

    for (const payload of ['{"jsonrpc": "2.0", "method": ', '', '{"__proto__": {"x": 1}}']) {
      const response = await fetch(url, { method: 'POST', headers: JSON_RPC_ACCEPT, body: payload });
      assert.equal(response.status, 400, JSON.stringify(payload));
      const body = (await response.json()) as any;
      assert.equal(body.jsonrpc, '2.0');
      assert.equal(body.error.code, -32700, JSON.stringify(payload));
      assert.equal(body.id, null);
    }

    // Valid JSON that is not JSON-RPC: the SDK's own error, still an HTTP answer.
    const notRpc = await fetch(url, { method: 'POST', headers: JSON_RPC_ACCEPT, body: '{"hello": "world"}' });
    assert.equal(notRpc.status, 400);
    assert.ok(((await notRpc.json()) as any).error);

    const echo = await fetch(url.replace('/mcp', '/echo'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":' });
    assert.equal(echo.status, 400);
    assert.equal(((await echo.json()) as any).code, 'FST_ERR_CTP_INVALID_JSON_BODY', "the app's routes keep Fastify's JSON parser");

    const { call, close } = await connectClient(url);
    try {
      const page = await call('skills/list');
      assert.equal(page.skills.length, 3);
    } finally {
      await close();
    }
  } finally {
    await app.close();
  }
});
