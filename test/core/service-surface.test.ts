/**
 * Another surface over the same skills: an endpoint's `service` called as plain functions (its
 * search too, without the tool), and an
 * app tool (`read_skill`) that is nothing but such a call. For the same request context each gives
 * exactly what the MCP methods give on both eras, with the same visibility, the same cancellation
 * and the same response budget. Real sockets, the SDK's own client.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import {
  createSkillsEndpoint,
  memoryStorage,
  runWithSkillContext,
  SkillCatalog,
  type SkillContext,
  type SkillsEndpoint,
  type SkillSource,
  type SkillVisibility,
} from '@skillmount/core';
import { connectClient, errorCode } from '../support/client.js';
import { listenHttp, type Listening } from '../support/apps.js';
import { modern } from '../modern/support.js';
import { pipelineUnread } from '../hostile/attacks.js';

const skillMd = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\nBody of ${name}.\n`;
const BIG = 'x'.repeat(8 * 1024 * 1024);
const FILES = {
  'open/SKILL.md': skillMd('open'),
  'open/refs/a.md': 'A.\n',
  'open/refs/big.txt': BIG,
  'secret/SKILL.md': skillMd('secret'),
  'secret/refs/plan.md': 'The plan.\n',
};
const hideSecret: SkillVisibility = (entry, ctx) => ctx.user === 'admin' || entry.frontmatter.name !== 'secret';

interface Served extends Listening {
  endpoint: SkillsEndpoint;
}

/** An endpoint whose app server has one tool, `read_skill`: the fake surface, a plain call of the service. */
async function serve(source: SkillSource, sessions = false): Promise<Served> {
  let endpoint: SkillsEndpoint | undefined;
  const server = () => {
    const app = new McpServer({ name: 'surface-test', version: '1.0.0' });
    app.registerTool('read_skill', { inputSchema: { uri: z.string() } }, async ({ uri }, extra) => {
      const result = await endpoint!.service.read(uri, extra);
      const first = result.contents[0]!;
      return { content: [{ type: 'text', text: 'text' in first ? first.text : first.blob }] };
    });
    return app;
  };
  endpoint = createSkillsEndpoint({ source, server, sessions, attach: { visible: hideSecret } });
  const skills = endpoint;
  const http = await listenHttp((req, res) => {
    const user = req.headers['x-user'];
    return skills.handle(req, res, undefined, { user: typeof user === 'string' ? user : undefined });
  });
  return {
    endpoint: skills,
    url: http.url,
    close: async () => {
      await skills.close();
      await http.close();
    },
  };
}

const withoutMeta = (result: Record<string, unknown>) => {
  const { _meta, ...rest } = result;
  return rest;
};

test('the service as plain calls gives what skills/list, skills/get, resources/read and directory reads give, per user, on both eras', async () => {
  const catalog = await SkillCatalog.load(memoryStorage(FILES));
  const served = await serve(catalog);
  try {
    for (const user of ['ann', 'admin']) {
      const { call, close } = await connectClient(served.url, { 'x-user': user });
      const plain = <T>(fn: () => Promise<T>) => runWithSkillContext({ user }, fn);
      const service = served.endpoint.service;
      try {
        const cases: [string, Record<string, unknown>, () => Promise<unknown>][] = [
          ['skills/list', {}, () => service.list()],
          ['skills/get', { uri: 'skill://open/SKILL.md' }, () => service.get('skill://open/SKILL.md')],
          ['resources/read', { uri: 'skill://open/refs/a.md' }, () => service.read('skill://open/refs/a.md')],
          ['resources/directory/read', { uri: 'skill://open/refs' }, () => service.readDirectory('skill://open/refs')],
          ['skills/get', { uri: 'skill://secret/SKILL.md' }, () => service.get('skill://secret/SKILL.md')],
          ['resources/read', { uri: 'skill://secret/refs/plan.md' }, () => service.read('skill://secret/refs/plan.md')],
        ];
        for (const [method, params, surface] of cases) {
          const mcp = await call(method, params).then(
            (result) => ({ result }),
            (error: { code: number }) => ({ code: error.code }),
          );
          const fake = await plain(surface).then(
            (result) => ({ result }),
            (error: { code: number }) => ({ code: error.code }),
          );
          assert.deepEqual(fake, mcp, `${user}: ${method} ${JSON.stringify(params)}`);
          const wire = await modern(served.url, method, params, { headers: { 'x-user': user } });
          const modernAnswer = wire.message.error ? { code: wire.message.error.code } : { result: withoutMeta(wire.message.result) };
          assert.deepEqual(fake, modernAnswer, `${user}: ${method} on 2026-07-28`);
        }
        // search: the request's visible skills only, as the search_skills tool would rank them.
        const found = await plain(() => service.search('skill'));
        assert.deepEqual(
          found.skills.map((e) => e.uri),
          user === 'admin' ? ['skill://open/SKILL.md', 'skill://secret/SKILL.md'] : ['skill://open/SKILL.md'],
        );
        assert.equal(found.resultType, 'complete');
        const resources = (await plain(() => service.listResources())).map((r) => r.uri);
        const listed = (await call('resources/list')).resources.map((r: { uri: string }) => r.uri);
        assert.deepEqual(resources, listed);
        assert.deepEqual(resources.includes('skill://secret/SKILL.md'), user === 'admin');
      } finally {
        await close();
      }
    }
    // Arguments are checked as the MCP methods check their params, and other URIs are not the service's.
    await assert.rejects(served.endpoint.service.get(42 as unknown as string), { code: -32602 });
    await assert.rejects(served.endpoint.service.read('https://example.com/x'), { code: -32602 });
    await assert.rejects(served.endpoint.service.search('   '), { code: -32602 });
    await assert.rejects(served.endpoint.service.search('open', { cursor: 'made-up' }), (error: Error & { code?: number }) => {
      assert.equal(error.code, -32602);
      assert.match(error.message, /cursor/);
      return true;
    });
  } finally {
    await served.close();
  }
});

test('an app tool that calls the service answers as resources/read does: hidden skills not found, cancellation reaching the source', async () => {
  const catalog = await SkillCatalog.load(memoryStorage(FILES));
  const aborted: string[] = [];
  const started: string[] = [];
  // Reads of plan.md wait until their request is cancelled.
  const source: SkillSource = {
    list: (params) => catalog.list(params),
    get: (uri) => catalog.get(uri),
    readDirectory: (uri, params) => catalog.readDirectory(uri, params),
    read: async (uri, ctx: SkillContext) => {
      started.push(uri);
      if (!uri.endsWith('plan.md')) return catalog.read(uri);
      await new Promise<void>((resolve) => ctx.signal?.addEventListener('abort', () => resolve(), { once: true }));
      aborted.push(uri);
      throw new Error('cancelled');
    },
  };
  // Sessions: a cancellation (notifications/cancelled) reaches the request it names.
  const served = await serve(source, true);
  const ann = await connectClient(served.url, { 'x-user': 'ann' });
  const admin = await connectClient(served.url, { 'x-user': 'admin' });
  try {
    const tool = (client: typeof ann, uri: string, signal?: AbortSignal) =>
      client.client.callTool({ name: 'read_skill', arguments: { uri } }, undefined, signal ? { signal } : {});
    const text = await tool(admin, 'skill://open/refs/a.md');
    assert.deepEqual(text.content, [{ type: 'text', text: 'A.\n' }]);
    // Hidden: the tool fails as resources/read does, and the source is never asked.
    const hidden = await tool(ann, 'skill://secret/SKILL.md');
    assert.equal(hidden.isError, true);
    assert.match(JSON.stringify(hidden.content), /not found/);
    assert.equal(await errorCode(ann.call('resources/read', { uri: 'skill://secret/SKILL.md' })), -32602);
    assert.ok(!started.includes('skill://secret/SKILL.md'));

    // Cancelled: through the tool and through resources/read alike, the source sees its signal abort.
    for (const via of ['tool', 'resources/read'] as const) {
      aborted.length = 0;
      const controller = new AbortController();
      const pending =
        via === 'tool'
          ? tool(admin, 'skill://secret/refs/plan.md', controller.signal)
          : admin.client.request({ method: 'resources/read', params: { uri: 'skill://secret/refs/plan.md' } } as never, z.any(), {
              signal: controller.signal,
            });
      while (started.filter((u) => u.endsWith('plan.md')).length === 0) await new Promise((r) => setTimeout(r, 10));
      controller.abort();
      await assert.rejects(pending);
      for (let i = 0; i < 200 && aborted.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
      assert.deepEqual(aborted, ['skill://secret/refs/plan.md'], `${via}: the source's read saw its request cancelled`);
      started.length = 0;
    }

    // A plain call with an aborted signal rejects with the signal's reason, without asking the source.
    const gone = new AbortController();
    gone.abort(new Error('the user left'));
    await assert.rejects(served.endpoint.service.read('skill://open/refs/a.md', { signal: gone.signal }), /the user left/);
  } finally {
    await ann.close();
    await admin.close();
    await served.close();
  }
});

test('the fake surface is held to the response budget as resources/read is: a client that never reads gets no more work done', async () => {
  const catalog = await SkillCatalog.load(memoryStorage(FILES), { cacheBytes: 0 });
  const reads = { tool: 0, read: 0 };
  let via: keyof typeof reads = 'tool';
  const source: SkillSource = {
    list: (params) => catalog.list(params),
    get: (uri) => catalog.get(uri),
    read: async (uri) => {
      if (uri.endsWith('big.txt')) reads[via]++;
      return catalog.read(uri);
    },
  };
  const served = await serve(source);
  const sockets = [];
  try {
    const headers = (body: string, target: URL) =>
      `POST ${target.pathname} HTTP/1.1\r\nHost: ${target.host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
      `x-user: admin\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const uri = 'skill://open/refs/big.txt';
    const toolCall = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'read_skill', arguments: { uri } } });
    const readCall = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'resources/read', params: { uri } });
    for (const [name, body] of [
      ['tool', toolCall],
      ['read', readCall],
    ] as const) {
      via = name;
      sockets.push(...(await pipelineUnread(served.url, (target) => Array.from({ length: 12 }, (_, i) => headers(body(i + 1), target)), 1)));
      await new Promise((r) => setTimeout(r, 1500));
    }
    // Each 8 MiB answer fills the connection's budget: one runs, the rest wait for the client to read.
    assert.ok(reads.tool >= 1 && reads.tool <= 2, `tool: ${reads.tool} of 12 reads ran`);
    assert.ok(reads.read >= 1 && reads.read <= 2, `resources/read: ${reads.read} of 12 reads ran`);
    // Another client is answered meanwhile.
    const { call, close } = await connectClient(served.url, { 'x-user': 'ann' });
    assert.equal((await call('skills/list')).skills.length, 1);
    await close();
  } finally {
    for (const socket of sockets) socket.destroy();
    await served.close();
  }
});
