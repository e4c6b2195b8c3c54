/**
 * A stateless endpoint reuses its default server from one POST to the next (one POST at a time):
 * each POST must still behave as on a server of its own, on real sockets.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SkillCatalog, createSkillsEndpoint, memoryStorage, type SkillSource, type SkillsEndpoint } from '@skillmount/core';
import { keepIdleConnections } from '../support/apps.js';

const SKILL = '---\nname: demo\ndescription: A demo skill.\n---\nBody.\n';

async function serve(endpoint: SkillsEndpoint): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => void endpoint.handle(req, res, undefined).catch(() => undefined));
  await new Promise<void>((resolve) => keepIdleConnections(server).listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    async close() {
      await endpoint.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
const initialize = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'reuse-test', version: '1.0.0' } },
});

async function post(url: string, body: unknown): Promise<{ status: number; message: any }> {
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await response.text();
  const data = text.split('\n').find((line) => line.startsWith('data: '));
  return { status: response.status, message: data ? JSON.parse(data.slice(6)) : undefined };
}

test('stateless: every POST, initialize included, is answered as on a server of its own, one after another and many at once', async () => {
  const catalog = await SkillCatalog.load(memoryStorage({ 'demo/SKILL.md': SKILL }));
  const served = await serve(createSkillsEndpoint({ source: catalog }));
  try {
    for (let i = 0; i < 3; i++) {
      const init = await post(served.url, initialize(i));
      assert.equal(init.status, 200);
      assert.equal(init.message.result.protocolVersion, '2025-11-25', `initialize number ${i + 1} is answered`);
      assert.equal((await post(served.url, { jsonrpc: '2.0', method: 'notifications/initialized' })).status, 202);
    }
    // The same request id from "different clients" at once: each answer goes to its own request.
    const reads = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post(served.url, { jsonrpc: '2.0', id: 1, method: i % 2 ? 'skills/list' : 'resources/read', params: i % 2 ? {} : { uri: 'skill://demo/SKILL.md' } }),
      ),
    );
    for (const [i, read] of reads.entries()) {
      assert.equal(read.status, 200);
      assert.equal(read.message.id, 1);
      if (i % 2) assert.equal(read.message.result.skills[0].uri, 'skill://demo/SKILL.md');
      else assert.equal(read.message.result.contents[0].text, SKILL);
    }
  } finally {
    await served.close();
  }
});

test('stateless: a client that goes away mid-request leaves the next POSTs answered', async () => {
  let release!: () => void;
  let enter!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const entered = new Promise<void>((resolve) => (enter = resolve));
  const catalog = await SkillCatalog.load(memoryStorage({ 'demo/SKILL.md': SKILL, 'demo/references/slow.md': 'Slow.\n' }));
  const slowOnce: SkillSource = {
    list: (params) => catalog.list(params),
    get: (uri) => catalog.get(uri),
    read: async (uri) => {
      if (uri.endsWith('/slow.md')) {
        enter();
        await held;
      }
      return catalog.read(uri);
    },
  };
  const served = await serve(createSkillsEndpoint({ source: slowOnce }));
  try {
    const gone = new AbortController();
    const abandoned = fetch(served.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'resources/read', params: { uri: 'skill://demo/references/slow.md' } }),
      signal: gone.signal,
    }).then((r) => r.text());
    // However long a loaded machine takes to get there; an answer first means it never will.
    const reached = await Promise.race([
      entered.then(() => 'reached'),
      abandoned.then(
        (text) => `answered first: ${text}`,
        (error) => `failed first: ${error}`,
      ),
    ]);
    assert.equal(reached, 'reached', 'the abandoned read reached the source');
    gone.abort();
    await abandoned.catch(() => undefined);
    release();
    for (let i = 0; i < 5; i++) {
      const list = await post(served.url, { jsonrpc: '2.0', id: i, method: 'skills/list', params: {} });
      assert.equal(list.message.result.skills.length, 1);
    }
  } finally {
    await served.close();
  }
});

test("stateless: the app's server factory is called once for every POST, skills requests included (its checks hold for them)", async () => {
  const catalog = await SkillCatalog.load(memoryStorage({ 'demo/SKILL.md': SKILL }));
  let built = 0;
  const server = () => {
    built++;
    return new McpServer({ name: 'app', version: '1.0.0' });
  };
  const served = await serve(createSkillsEndpoint({ source: catalog, server }));
  try {
    for (let i = 0; i < 4; i++) {
      const listed = await post(served.url, { jsonrpc: '2.0', id: i, method: 'skills/list', params: {} });
      assert.equal(listed.message.result.skills[0].uri, 'skill://demo/SKILL.md');
    }
    assert.equal(built, 4, "each skills request ran the app's factory once (and was answered from the source)");
    for (let i = 0; i < 4; i++) assert.ok((await post(served.url, { jsonrpc: '2.0', id: i, method: 'tools/list', params: {} })).message.error);
    assert.equal(built, 8, 'every other POST gets a server of its own');
  } finally {
    await served.close();
  }
});
