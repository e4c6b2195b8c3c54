import { test } from 'node:test';
import assert from 'node:assert/strict';
import express from 'express';
import * as z from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { fsStorage } from '@skillmount/storage-fs';
import { skillsMiddleware, type SkillsMiddlewareOptions } from '@skillmount/express';
import { EXAMPLES, checkSkillsEndpoint } from '../support/skills-suite.js';
import { connectClient } from '../support/client.js';
import { listenExpress } from '../support/apps.js';
import { post } from './post.js';

/** An app with the skills router at /mcp, closed when the test ends. */
async function serve(t: { after: (fn: () => Promise<void>) => void }, options: SkillsMiddlewareOptions, withJsonParser = false) {
  const app = express();
  if (withJsonParser) app.use(express.json());
  const skills = skillsMiddleware(options);
  app.use('/mcp', skills);
  const http = await listenExpress(app);
  t.after(async () => {
    await skills.close();
    await http.close();
  });
  return { skills, url: http.url };
}

test('serves examples/skills at the mount path, with no body parser', async (t) => {
  const { skills, url } = await serve(t, { storage: fsStorage(EXAMPLES), pageSize: 2 });
  await checkSkillsEndpoint(url, { pageSize: 2 });
  assert.equal(skills.entries.length, 3);
  assert.equal(skills.catalog?.entries, skills.entries);
});

test('serves examples/skills behind express.json()', async (t) => {
  const { url } = await serve(t, { storage: fsStorage(EXAMPLES), pageSize: 2 }, true);
  await checkSkillsEndpoint(url, { pageSize: 2 });
});

test("the app's own tool and resource on its McpServer are served beside the skills", async (t) => {
  let built = 0;
  const { url } = await serve(t, {
    storage: fsStorage(EXAMPLES),
    server: () => {
      built++;
      const server = new McpServer({ name: 'my-app', version: '1.0.0' });
      server.registerTool('add', { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({
        content: [{ type: 'text', text: String(a + b) }],
      }));
      server.registerTool('where', { description: 'The request URL the tool sees' }, async (extra) => ({
        content: [{ type: 'text', text: String(extra.requestInfo?.url) }],
      }));
      server.registerResource('readme', 'app://readme', { mimeType: 'text/plain' }, async (uri) => ({
        contents: [{ uri: uri.href, text: 'the app readme' }],
      }));
      return server;
    },
  });
  const { client, call, close } = await connectClient(url);
  try {
    assert.equal(client.getServerVersion()?.name, 'my-app');
    const tools = await client.listTools();
    assert.deepEqual(
      tools.tools.map((tool) => tool.name),
      ['add', 'where'],
    );
    const where = await client.callTool({ name: 'where' });
    assert.equal(new URL((where.content as { text: string }[])[0]!.text).pathname, '/mcp', 'handlers see the full request URL');
    const sum = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
    assert.deepEqual(sum.content, [{ type: 'text', text: '5' }]);
    const readme = await client.readResource({ uri: 'app://readme' });
    assert.equal((readme.contents[0] as { text: string }).text, 'the app readme');
    const listed = (await client.listResources()).resources.map((r) => r.uri);
    assert.ok(listed.includes('app://readme'));
    assert.ok(listed.includes('skill://git-workflow/SKILL.md'));
    assert.equal((await call('skills/list')).skills.length, 3);
    assert.ok(built >= 5, 'stateless: a server per request');
  } finally {
    await close();
  }
  await checkSkillsEndpoint(url);
});

test('a low-level Server factory works too', async (t) => {
  const { url } = await serve(t, {
    storage: fsStorage(EXAMPLES),
    server: () => {
      const server = new Server({ name: 'low-level', version: '1.0.0' }, { capabilities: { tools: {} } });
      server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: 'ping', inputSchema: { type: 'object' } }] }));
      server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [{ type: 'text', text: 'pong' }] }));
      return server;
    },
  });
  await checkSkillsEndpoint(url);
  const { client, close } = await connectClient(url);
  try {
    assert.equal(client.getServerVersion()?.name, 'low-level');
    assert.deepEqual((await client.callTool({ name: 'ping' })).content, [{ type: 'text', text: 'pong' }]);
  } finally {
    await close();
  }
});

test('stateless: GET and DELETE get 405 with a JSON-RPC error body', async (t) => {
  const { url } = await serve(t, { storage: fsStorage(EXAMPLES) });
  for (const method of ['GET', 'DELETE']) {
    const res = await fetch(url, { method, headers: { accept: 'application/json, text/event-stream' } });
    assert.equal(res.status, 405, method);
    assert.equal(res.headers.get('allow'), 'POST');
    const body = (await res.json()) as any;
    assert.equal(body.jsonrpc, '2.0');
    assert.equal(body.error.code, -32000);
    assert.match(body.error.message, /POST only/);
  }
});

test('malformed JSON gets a JSON-RPC parse error and the server keeps serving', async (t) => {
  const { url } = await serve(t, { storage: fsStorage(EXAMPLES) });
  const bad = await post(url, '{"jsonrpc": "2.0", "method": ');
  assert.equal(bad.status, 400);
  assert.equal(bad.json.error.code, -32700);
  const notRpc = await post(url, '{"hello": "world"}');
  assert.equal(notRpc.status, 400);
  assert.equal(notRpc.json.jsonrpc, '2.0');
  assert.ok(notRpc.json.error.code < -32000);

  const { call, close } = await connectClient(url);
  try {
    assert.equal((await call('skills/list')).skills.length, 3);
  } finally {
    await close();
  }
});

test('other paths under the mount fall through to the app', async (t) => {
  const app = express();
  const skills = skillsMiddleware({ storage: fsStorage(EXAMPLES) });
  app.use('/mcp', skills);
  app.get('/mcp/health', (_req, res) => {
    res.json({ ok: true });
  });
  const http = await listenExpress(app);
  t.after(async () => {
    await skills.close();
    await http.close();
  });
  const res = await fetch(http.url + '/health');
  assert.deepEqual(await res.json(), { ok: true });
});
