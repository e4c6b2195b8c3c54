import { test } from 'node:test';
import assert from 'node:assert/strict';
import express from 'express';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { OptionError, SkillCatalog, memoryStorage, type OptionErrorCode, type SkillFiles, type SkillWarning } from '@skillmount/core';
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

  const ok = await connectClient(http.url + '/ok');
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

test('close(): stops watching, closes the catalog it loaded and the storage given as `storage`; later requests get 503', async (t) => {
  const inner = memoryStorage({ 'greet/SKILL.md': '---\nname: greet\ndescription: Greets.\n---\nHello.\n' });
  let watching = 0;
  let storageClosed = false;
  const storage: SkillFiles = {
    list: (dir) => inner.list(dir),
    read: (path) => inner.read(path),
    watch: (onChange) => {
      watching++;
      const stop = inner.watch!(onChange);
      return () => {
        watching--;
        stop();
      };
    },
    close: async () => {
      storageClosed = true;
    },
  };
  const skills = skillsMiddleware({ storage, watch: true });
  const url = await mount(skills, t);
  await skills.ready;
  assert.equal(watching, 1);
  await skills.close();
  await skills.close();
  assert.equal(watching, 0);
  assert.equal(storageClosed, true, "the storage given as `storage` is the router's: closed with it");
  const res = await post(url, INITIALIZE);
  assert.equal(res.status, 503);
  assert.equal(res.json.error.code, -32000);
});

test('a catalog or source the app passed in: served as is, and left open by close()', async (t) => {
  const storage = memoryStorage({ 'greet/SKILL.md': '---\nname: greet\ndescription: Greets.\n---\nHello.\n' });
  const catalog = await SkillCatalog.load(storage);
  const fromCatalog = skillsMiddleware({ catalog, watch: true });
  assert.equal(await fromCatalog.ready, catalog);
  assert.equal(fromCatalog.catalog, catalog);
  assert.equal(fromCatalog.entries.length, 1);
  await mount(fromCatalog, t);

  const fromSource = skillsMiddleware({ source: catalog });
  assert.equal(await fromSource.ready, catalog);
  assert.equal(fromSource.catalog, undefined);
  assert.deepEqual(fromSource.entries, []);
  await assert.rejects(fromSource.reload(), /^Error: @skillmount\/express: reload\(\) needs a catalog/);

  await fromCatalog.close();
  await fromSource.close();
  // The catalog still serves, and still reloads.
  storage.write('wave/SKILL.md', '---\nname: wave\ndescription: Waves.\n---\nWave.\n');
  assert.deepEqual((await catalog.reload()).added, ['skill://wave/SKILL.md']);
  assert.equal((await catalog.list()).skills.length, 2);
});

test('with a custom source, strict fails a skills/list page that holds an invalid entry; without it the entry is dropped', async (t) => {
  const catalog = await SkillCatalog.load(memoryStorage({ 'greet/SKILL.md': '---\nname: greet\ndescription: Greets.\n---\nHello.\n' }));
  const [greet] = catalog.entries;
  const misnamed = {
    ...greet!,
    uri: 'skill://other/SKILL.md',
    resources: [{ ...(greet!.resources as { uri: string; digest: string; size: number }[])[0]!, uri: 'skill://other/SKILL.md' }],
  };
  const source = { list: async () => ({ skills: [greet!, misnamed] }), get: async () => undefined, read: async () => undefined };
  assert.throws(
    () => skillsMiddleware({ source: catalog, strict: true }),
    /option "strict" applies only with storage or a custom source; pass strict to SkillCatalog.load/,
  );
  for (const strict of [undefined, true]) {
    const warned: string[] = [];
    const url = await mount(skillsMiddleware({ source, onWarning: (w: SkillWarning) => warned.push(`${w.code} ${w.uri}`), ...(strict ? { strict } : {}) }), t);
    const { call, close } = await connectClient(url);
    try {
      if (strict) assert.equal(await errorCode(call('skills/list')), -32603);
      else
        assert.deepEqual(
          (await call('skills/list')).skills.map((s: { uri: string }) => s.uri),
          [greet!.uri],
        );
      assert.deepEqual(warned, ['invalid-entry skill://other/SKILL.md']);
    } finally {
      await close();
    }
  }
});

test('option mistakes throw at creation, naming the package and the option', () => {
  const storage = fsStorage(EXAMPLES);
  const source = {
    list: async () => ({ skills: [] }),
    get: async () => Promise.reject(new Error('none')),
    read: async () => Promise.reject(new Error('none')),
  };
  // A value out of range is a RangeError (invalid-value); a wrong type or combination a TypeError.
  const cases: [unknown, RegExp, OptionErrorCode][] = [
    [{}, /option "storage" is missing: give exactly one of the options "storage", "catalog" or "source" \(none was given\)/, 'missing-option'],
    [undefined, /options must be an object with one of storage, catalog or source/, 'invalid-type'],
    [{ storage, source }, /option "source" cannot be combined with "storage": .*\(got storage and source\)/, 'conflicting-options'],
    [{ storage, catalog: {} as never }, /got storage and catalog/, 'conflicting-options'],
    [{ storage, pageSize: 0 }, /option "pageSize" must be a positive integer or Infinity, got 0/, 'invalid-value'],
    [{ storage, pageSize: 2.5 }, /"pageSize"/, 'invalid-value'],
    [{ storage, pageSize: '2' }, /"pageSize"/, 'invalid-type'],
    [{ storage, limits: { files: -1 } }, /"limits.files"/, 'invalid-value'],
    [{ storage, cacheHint: { cacheScope: 'shared' } }, /"cacheHint.cacheScope"/, 'invalid-value'],
    [{ storage, strict: 'yes' }, /option "strict" must be true or false/, 'invalid-type'],
    [{ source, pageSize: 2 }, /option "pageSize" applies only with storage/, 'conflicting-options'],
    [{ source, strict: 'yes' }, /option "strict" must be true or false, got "yes"/, 'invalid-type'],
    [{ storage: { list: 'nope' } }, /option "storage" must be a SkillFiles storage/, 'invalid-type'],
    [{ catalog: { list: async () => ({}) } }, /option "catalog" must be a SkillCatalog/, 'invalid-type'],
    [{ source: { list: async () => ({}) } }, /option "source" must be a SkillSource/, 'invalid-type'],
    [{ storage, server: {} }, /option "server" must be a function/, 'invalid-type'],
    [{ storage, context: { tenant: 'a' } }, /option "context" must be a function/, 'invalid-type'],
    [{ storage, onWarning: 'log' }, /option "onWarning" must be a function/, 'invalid-type'],
    [{ storage, sessions: 'yes' }, /option "sessions" must be true or false/, 'invalid-type'],
    [{ storage, sessions: true, sessionIdleMs: 0 }, /option "sessionIdleMs" must be a positive integer/, 'invalid-value'],
    [{ storage, sessions: true, maxSessions: 1.5 }, /option "maxSessions" must be a positive integer/, 'invalid-value'],
    [{ storage, maxSessions: 10 }, /option "maxSessions" applies only with sessions: true/, 'conflicting-options'],
    [{ storage, sessions: true, maxSessionsPerClient: -1 }, /option "maxSessionsPerClient" must be a positive integer/, 'invalid-value'],
    [{ storage, maxSessionsPerClient: 10 }, /option "maxSessionsPerClient" applies only with sessions: true/, 'conflicting-options'],
    [{ source, watch: true }, /option "watch" needs storage or catalog/, 'conflicting-options'],
    [{ storage: { list: storage.list, read: storage.read }, watch: true }, /has none; call reload\(\) yourself/, 'conflicting-options'],
    [{ storage, bodyTimeout: -5 }, /option "bodyTimeout" must be a positive integer/, 'invalid-value'],
    [{ storage, allowedHosts: [] }, /option "allowedHosts" is an empty list/, 'invalid-value'],
  ];
  for (const [options, message, code] of cases) {
    assert.throws(
      () => skillsMiddleware(options as never),
      (error: unknown) => {
        assert.ok(error instanceof OptionError, String(error));
        assert.match(error.message, /^@skillmount\/express: /);
        assert.match(error.message, message);
        assert.equal(error.code, code, error.message);
        assert.ok(code === 'invalid-value' ? error instanceof RangeError : error instanceof TypeError, `${code}: ${String(error)}`);
        return true;
      },
      JSON.stringify(options),
    );
  }
});
