/**
 * `visible(entry, ctx)`, the per-request visibility rule, on a real endpoint: asked on every method
 * on both protocol eras, for missing skills too; a hidden skill's files are never read from the
 * source; a rule that throws or answers something else than a boolean; custom sources' pages; and
 * the option checks of `attach`, the endpoint and both adapters.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  attach,
  createSkillsEndpoint,
  memoryStorage,
  SkillCatalog,
  type SkillContext,
  type SkillEntry,
  type SkillSource,
  type SkillVisibility,
  type SkillWarning,
} from '@skillmount/core';
import skillsPlugin from '@skillmount/fastify';
import { skillsMiddleware } from '@skillmount/express';
import Fastify from 'fastify';
import { connectClient, errorCode } from '../support/client.js';
import { keepIdleConnections, listenHttp, type Listening } from '../support/apps.js';
import { modern } from '../modern/support.js';

const skillMd = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\nBody of ${name}.\n`;
const FILES = {
  'open/SKILL.md': skillMd('open'),
  'open/refs/a.md': 'A.\n',
  'secret/SKILL.md': skillMd('secret'),
  'secret/refs/plan.md': 'The plan.\n',
  'team/inner/SKILL.md': skillMd('inner'),
};

/** A source over a catalog that records every call (method and URI). */
function recorded(catalog: SkillCatalog, extra: Partial<SkillSource> = {}) {
  const calls: string[] = [];
  const noting = <T>(call: string, answer: T): T => {
    calls.push(call);
    return answer;
  };
  const source: SkillSource = {
    list: async (params) => noting('list', catalog.list(params)),
    get: async (uri) => noting(`get ${uri}`, catalog.get(uri)),
    read: async (uri) => noting(`read ${uri}`, catalog.read(uri)),
    readDirectory: async (uri, params) => noting(`dir ${uri}`, catalog.readDirectory(uri, params)),
    listResources: async () => noting('listResources', catalog.listResources()),
    ...extra,
  };
  return { source, calls };
}

async function endpoint(source: SkillSource, attachOptions: { visible?: SkillVisibility; onWarning?: (w: SkillWarning) => void }): Promise<Listening> {
  const skills = createSkillsEndpoint({ source, attach: attachOptions });
  const served = await listenHttp((req, res) => {
    const user = req.headers['x-user'];
    return skills.handle(req, res, undefined, { user: typeof user === 'string' ? user : undefined });
  });
  return {
    url: served.url,
    close: async () => {
      await skills.close();
      await served.close();
    },
  };
}

const hideSecret: SkillVisibility = (entry, ctx) => ctx.user === 'admin' || entry.frontmatter.name !== 'secret';

test('visible(): hidden on every method of both eras, shown to whom the rule allows, and never read from the source', async () => {
  const catalog = await SkillCatalog.load(memoryStorage(FILES));
  const { source, calls } = recorded(catalog);
  const served = await endpoint(source, { visible: hideSecret });
  const ann = await connectClient(served.url, { 'x-user': 'ann' });
  const admin = await connectClient(served.url, { 'x-user': 'admin' });
  try {
    const listed = await ann.call('skills/list');
    assert.deepEqual(
      listed.skills.map((s: SkillEntry) => s.frontmatter.name),
      ['open', 'inner'],
    );
    assert.equal((await admin.call('skills/list')).skills.length, 3);
    assert.equal(await errorCode(ann.call('skills/get', { uri: 'skill://secret/SKILL.md' })), -32602);
    assert.equal((await admin.call('skills/get', { uri: 'skill://secret/SKILL.md' })).skill.frontmatter.name, 'secret');

    calls.length = 0;
    assert.equal(await errorCode(ann.call('resources/read', { uri: 'skill://secret/refs/plan.md' })), -32602);
    assert.equal(await errorCode(ann.call('resources/read', { uri: 'skill://secret/SKILL.md' })), -32602);
    assert.equal(await errorCode(ann.call('resources/directory/read', { uri: 'skill://secret/refs' })), -32602);
    assert.ok(!calls.some((c) => c.startsWith('read') || c.startsWith('dir')), `the source was not asked for a hidden file: ${calls.join(', ')}`);
    assert.equal((await admin.call('resources/read', { uri: 'skill://secret/refs/plan.md' })).contents[0].text, 'The plan.\n');
    assert.equal((await ann.call('resources/read', { uri: 'skill://open/refs/a.md' })).contents[0].text, 'A.\n');

    const resources = (await ann.client.listResources()).resources.map((r) => r.uri);
    assert.deepEqual(resources.sort(), ['skill://open/SKILL.md', 'skill://team/inner/SKILL.md']);

    // 2026-07-28: the same rule, the same answers.
    const read = await modern(served.url, 'resources/read', { uri: 'skill://secret/SKILL.md' }, { headers: { 'x-user': 'ann' } });
    assert.equal(read.message.error.code, -32602);
    const list = await modern(served.url, 'skills/list', {}, { headers: { 'x-user': 'ann' } });
    assert.deepEqual(
      list.message.result.skills.map((s: SkillEntry) => s.frontmatter.name),
      ['open', 'inner'],
    );
    const got = await modern(served.url, 'skills/get', { uri: 'skill://secret/SKILL.md' }, { headers: { 'x-user': 'admin' } });
    assert.equal(got.message.result.skill.frontmatter.name, 'secret');
  } finally {
    await ann.close();
    await admin.close();
    await served.close();
  }
});

test('visible(): a missing skill costs the rule the same call as a hidden one, with a stand-in entry', async () => {
  const catalog = await SkillCatalog.load(memoryStorage(FILES));
  const asked: { uri: string; name: string }[] = [];
  const served = await endpoint(catalog, {
    visible: (entry, ctx) => {
      asked.push({ uri: entry.uri, name: entry.frontmatter.name });
      return hideSecret(entry, ctx);
    },
  });
  const ann = await connectClient(served.url, { 'x-user': 'ann' });
  try {
    const count = async (method: string, uri: string) => {
      asked.length = 0;
      const code = await errorCode(ann.call(method, { uri }));
      return { code, asked: asked.length };
    };
    for (const [method, hidden, missing] of [
      ['skills/get', 'skill://secret/SKILL.md', 'skill://gone/SKILL.md'],
      ['resources/read', 'skill://secret/refs/plan.md', 'skill://gone/refs/plan.md'],
      ['resources/directory/read', 'skill://secret/refs', 'skill://gone/refs'],
    ] as const) {
      assert.deepEqual(await count(method, hidden), await count(method, missing), `${method}: hidden and missing alike`);
    }
    asked.length = 0;
    await errorCode(ann.call('skills/get', { uri: 'skill://gone/SKILL.md' }));
    assert.deepEqual(asked, [{ uri: 'skill://gone/SKILL.md', name: 'gone' }], 'the stand-in carries the URI and the folder name');
  } finally {
    await ann.close();
    await served.close();
  }
});

test('visible(): a page of a custom source left empty is skipped to the next; a source rule and the option both apply', async () => {
  const catalog = await SkillCatalog.load(memoryStorage(FILES), { pageSize: 1 });
  const { source } = recorded(catalog, { visible: (entry: SkillEntry) => entry.frontmatter.name !== 'inner' });
  const served = await endpoint(source, { visible: hideSecret });
  const ann = await connectClient(served.url, { 'x-user': 'ann' });
  try {
    // Source pages, one skill each: open, secret (hidden by the option), team/inner (by the source's rule).
    // The last two come out empty: the second call skips the empty page to the next, which ends the list.
    const first = await ann.call('skills/list');
    assert.deepEqual(
      first.skills.map((s: SkillEntry) => s.frontmatter.name),
      ['open'],
    );
    const second = await ann.call('skills/list', { cursor: first.nextCursor });
    assert.deepEqual(second.skills, []);
    assert.equal(second.nextCursor, undefined);
  } finally {
    await ann.close();
    await served.close();
  }
});

test('visible(): a rule that throws fails the request with -32603 and is reported; one that answers no boolean hides the skill', async () => {
  const catalog = await SkillCatalog.load(memoryStorage(FILES));
  const warnings: SkillWarning[] = [];
  const served = await endpoint(catalog, {
    onWarning: (w) => warnings.push(w),
    visible: async (entry, ctx) => {
      if (ctx.user === 'broken') throw new Error('the user store is down');
      return (entry.frontmatter.name === 'secret' ? 'yes' : true) as boolean;
    },
  });
  const broken = await connectClient(served.url, { 'x-user': 'broken' });
  const ann = await connectClient(served.url, { 'x-user': 'ann' });
  try {
    assert.equal(await errorCode(broken.call('skills/list')), -32603);
    const failed = warnings.find((w) => w.code === 'visible-failed');
    assert.ok(failed?.message.includes('the user store is down'), 'the error reaches onWarning');
    assert.deepEqual(
      (await ann.call('skills/list')).skills.map((s: SkillEntry) => s.frontmatter.name),
      ['open', 'inner'],
    );
    const invalid = warnings.find((w) => w.code === 'invalid-visible');
    assert.ok(invalid?.message.includes('returned string'), invalid?.message);
  } finally {
    await broken.close();
    await ann.close();
    await served.close();
  }
});

test('visible(): anything but a function is refused at start by attach, the endpoint and both adapters, naming the option', async () => {
  const catalog = await SkillCatalog.load(memoryStorage(FILES));
  const bad = { visible: 'admins' as unknown as SkillVisibility };
  assert.throws(() => attach(new McpServer({ name: 't', version: '1' }), catalog, bad), /visible.*must be a function/);
  assert.throws(() => createSkillsEndpoint({ source: catalog, attach: bad }), /visible.*must be a function/);
  assert.throws(() => skillsMiddleware({ catalog, ...bad }), /@skillmount\/express: option "visible" must be a function/);
  const app = Fastify();
  await assert.rejects(
    (async () => {
      await app.register(skillsPlugin, { catalog, ...bad });
      await app.ready();
    })(),
    /@skillmount\/fastify: option "visible" must be a function/,
  );
  await app.close();
});

test('visible(): the context an adapter builds reaches the rule (Fastify and Express)', async () => {
  const catalog = await SkillCatalog.load(memoryStorage(FILES));
  const seen: SkillContext[] = [];
  const visible: SkillVisibility = (entry, ctx) => {
    seen.push(ctx);
    return hideSecret(entry, ctx);
  };
  const app = Fastify();
  await app.register(skillsPlugin, { catalog, visible, context: (req) => ({ user: req.headers['x-user'] }) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const fastifyUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/mcp`;
  const express = (await import('express')).default;
  const router = skillsMiddleware({ catalog, visible, context: (req) => ({ user: req.headers['x-user'] }) });
  const expressApp = express();
  expressApp.use('/mcp', router);
  const server = await new Promise<import('node:http').Server>((resolve) => {
    const s = expressApp.listen(0, '127.0.0.1', () => resolve(keepIdleConnections(s)));
  });
  const expressUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`;
  try {
    for (const url of [fastifyUrl, expressUrl]) {
      const ann = await connectClient(url, { 'x-user': 'ann' });
      try {
        assert.equal(await errorCode(ann.call('skills/get', { uri: 'skill://secret/SKILL.md' })), -32602, url);
      } finally {
        await ann.close();
      }
      const read = await modern(url, 'resources/read', { uri: 'skill://secret/SKILL.md' }, { headers: { 'x-user': 'admin' } });
      assert.equal(read.message.result.contents[0].text, skillMd('secret'), url);
    }
    assert.ok(seen.some((ctx) => ctx.user === 'ann') && seen.some((ctx) => ctx.user === 'admin'));
  } finally {
    await app.close();
    await router.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
