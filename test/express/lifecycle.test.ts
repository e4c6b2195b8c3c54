/**
 * What only the Express router has: the catalog loads in the background, after skillsMiddleware()
 * returns. Start and shutdown alike on both adapters are in test/adapters/lifecycle.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import express from 'express';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SkillCatalog, memoryStorage, type SkillFiles, type SkillWarning } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import { skillsMiddleware, type SkillsRouter } from '@skillmount/express';
import { EXAMPLES } from '../support/skills-suite.js';
import { connectClient, errorCode } from '../support/client.js';
import { listenExpress } from '../support/apps.js';
import { post } from './post.js';
import { statelessTransport } from '../support/stateless-route.js';

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});

/** The examples folder, with listing "acme" failing while `broken` is set. */
function flakyStorage() {
  const inner = fsStorage(EXAMPLES);
  const state = { broken: true };
  const storage: SkillFiles = {
    list: async (dir) => {
      if (state.broken && dir === 'acme') throw new Error('disk on fire');
      return inner.list(dir);
    },
    read: (path) => inner.read(path),
  };
  return { storage, state };
}

async function mount(skills: SkillsRouter, t: { after: (fn: () => Promise<void>) => void }) {
  const app = express();
  app.use('/mcp', skills);
  const http = await listenExpress(app);
  t.after(async () => {
    await skills.close();
    await http.close();
  });
  return http.url;
}

test('a failed load: 500 with a JSON-RPC body, ready rejects naming the path, reload() loads again', async (t) => {
  const { storage, state } = flakyStorage();
  const warnings: SkillWarning[] = [];
  const skills = skillsMiddleware({ storage, onWarning: (w) => warnings.push(w) });
  const url = await mount(skills, t);

  await assert.rejects(skills.ready, (error: Error & { path?: string }) => {
    assert.equal(error.path, 'acme');
    assert.match(error.message, /"acme"/);
    assert.match(error.message, /disk on fire/);
    return true;
  });
  const res = await post(url, INITIALIZE);
  assert.equal(res.status, 500);
  assert.deepEqual(res.json, { jsonrpc: '2.0', error: { code: -32603, message: 'skills catalog failed to load' }, id: null });
  assert.equal(skills.catalog, undefined);
  assert.deepEqual(skills.entries, []);
  assert.equal(warnings.length, 1);
  assert.equal(warnings[0]!.code, 'load-failed');
  assert.equal(warnings[0]!.path, 'acme');
  assert.match(warnings[0]!.message, /disk on fire/);

  // The storage is back: reload() loads it rather than staying broken.
  await assert.rejects(skills.reload(), /disk on fire/);
  state.broken = false;
  const report = await skills.reload();
  assert.equal(report.added.length, 3);
  assert.equal(report.listChanged, true);
  assert.ok((await skills.ready) instanceof SkillCatalog);
  const { call, close } = await connectClient(url);
  try {
    assert.equal((await call('skills/list')).skills.length, 3);
  } finally {
    await close();
  }
});

test('requests that arrive while the catalog loads wait for it', async (t) => {
  const inner = fsStorage(EXAMPLES);
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const storage: SkillFiles = {
    list: async (dir) => {
      await gate;
      return inner.list(dir);
    },
    read: (path) => inner.read(path),
  };
  const skills = skillsMiddleware({ storage });
  const url = await mount(skills, t);

  let answered = false;
  const pending = post(url, INITIALIZE).then((res) => {
    answered = true;
    return res;
  });
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(answered, false, 'no answer before the catalog is loaded');
  assert.deepEqual(skills.entries, []);
  release();
  const res = await pending;
  assert.equal(res.status, 200);
  assert.match(res.text, /"result":\{/);
  assert.equal(skills.entries.length, 3);
});

/** What a client that speaks the Skills extension declares at initialize. */
const SKILLS_CLIENT = { extensions: { 'io.modelcontextprotocol/skills': {} } };

test('attach() before the load finishes: calls wait for it, or fail with -32603 when it failed', async (t) => {
  const { storage, state } = flakyStorage();
  state.broken = false;
  const inner = storage.list;
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  storage.list = async (dir) => {
    await gate;
    return inner(dir);
  };
  const skills = skillsMiddleware({ storage, onWarning: () => undefined });
  const broken = flakyStorage();
  const failed = skillsMiddleware({ storage: broken.storage, onWarning: () => undefined });

  const app = express();
  app.use(express.json());
  for (const [path, router] of [
    ['/ok', skills],
    ['/failed', failed],
  ] as const) {
    app.post(path, async (req, res) => {
      const server = new McpServer({ name: 'own-route', version: '1.0.0' });
      router.attach(server);
      const transport = await statelessTransport(server, res);
      await transport.handleRequest(req, res, req.body);
    });
  }
  const http = await listenExpress(app, '');
  t.after(async () => {
    await skills.close();
    await failed.close();
    await http.close();
  });

  // A client with the Skills extension: its initialize lists nothing (instructions: 'auto'), so the
  // skills/list below is the first call to wait for the load (one without it would wait at initialize).
  const ok = await connectClient(http.url + '/ok', {}, SKILLS_CLIENT);
  try {
    const listing = ok.call('skills/list');
    setTimeout(release, 50);
    assert.equal((await listing).skills.length, 3);
    const capabilities = ok.client.getServerCapabilities() as { extensions?: Record<string, unknown> };
    assert.deepEqual(capabilities.extensions?.['io.modelcontextprotocol/skills'], { directoryRead: true });
  } finally {
    await ok.close();
  }
  const bad = await connectClient(http.url + '/failed');
  try {
    assert.equal(await errorCode(bad.call('skills/list')), -32603);
    assert.equal(await errorCode(bad.client.readResource({ uri: 'skill://git-workflow/SKILL.md' })), -32603);
  } finally {
    await bad.close();
  }
});

test('ready: at once for a catalog or source passed in, resolving to what is served', async () => {
  const catalog = await SkillCatalog.load(memoryStorage({ 'greet/SKILL.md': '---\nname: greet\ndescription: Greets.\n---\nHello.\n' }));
  const fromCatalog = skillsMiddleware({ catalog });
  const fromSource = skillsMiddleware({ source: catalog });
  try {
    assert.equal(await fromCatalog.ready, catalog);
    assert.equal(await fromSource.ready, catalog);
    assert.equal(fromCatalog.entries.length, 1, 'entries at once');
  } finally {
    await fromCatalog.close();
    await fromSource.close();
  }
});

test('attach() before the load: the server answers as the loaded catalog would, under its baseUri and with its cache hint', async (t) => {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const inner = memoryStorage({ 'demo/SKILL.md': '---\nname: demo\ndescription: A demo.\n---\nBody.\n', 'demo/refs/a.md': 'A.\n' });
  const list = async (dir: string) => {
    await gate;
    return inner.list(dir);
  };
  const storage: SkillFiles = { ...inner, list, read: (path, options) => inner.read(path, options) };
  const skills = skillsMiddleware({
    storage,
    baseUri: 'github://acme/skills/',
    cacheHint: { ttlMs: 5000, cacheScope: 'public' },
    onWarning: () => undefined,
  });
  const app = express();
  app.use(express.json());
  app.post('/mcp', async (req, res) => {
    const server = new McpServer({ name: 'own-route', version: '1.0.0' });
    skills.attach(server);
    const transport = await statelessTransport(server, res);
    await transport.handleRequest(req, res, req.body);
  });
  const http = await listenExpress(app);
  t.after(async () => {
    await skills.close();
    await http.close();
  });
  // With the extension, so that the read below is the first call to wait for the load (see above).
  const { call, close } = await connectClient(http.url, {}, SKILLS_CLIENT);
  try {
    const reading = call('resources/read', { uri: 'github://acme/skills/demo/refs/a.md' });
    setTimeout(release, 50);
    const read = await reading;
    assert.equal(read.contents[0].text, 'A.\n');
    assert.deepEqual([read.ttlMs, read.cacheScope], [5000, 'public']);
    assert.equal((await call('skills/list')).skills[0].uri, 'github://acme/skills/demo/SKILL.md');
  } finally {
    await close();
  }
});
