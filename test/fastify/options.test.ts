import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CatalogError, memoryStorage, OptionError, SkillCatalog, type OptionErrorCode } from '@skillmount/core';
import Fastify from 'fastify';
import skillsPlugin, { type SkillsPluginOptions } from '@skillmount/fastify';
import { connectClient } from '../support/client.js';
import { startApp } from './app.js';

const skills = () => memoryStorage({ 'hello/SKILL.md': '---\nname: hello\ndescription: Says hello.\n---\nHi.\n' });

/**
 * Registration fails with an OptionError of `code` whose message names what was wrong: a
 * RangeError for a value out of range, a TypeError for everything else.
 */
async function refused(options: unknown, message: RegExp, code: OptionErrorCode, option?: string) {
  const app = Fastify();
  try {
    // register() returns the app, a thenable rather than a Promise.
    await assert.rejects(
      async () => {
        await app.register(skillsPlugin, options as SkillsPluginOptions);
      },
      (error: unknown) => {
        assert.ok(error instanceof OptionError, String(error));
        assert.match(error.message, message);
        assert.equal(error.code, code, error.message);
        assert.ok(code === 'invalid-value' ? error instanceof RangeError : error instanceof TypeError, `${code}: ${String(error)}`);
        if (option !== undefined) assert.equal(error.option, option);
        return true;
      },
    );
  } finally {
    await app.close().catch(() => {});
  }
}

test('exactly one of storage, catalog or source', async () => {
  const catalog = await SkillCatalog.load(skills());
  await refused(
    {},
    /@skillmount\/fastify: option "storage" is missing: give exactly one of the options "storage", "catalog" or "source" \(none was given\)/,
    'missing-option',
    'storage',
  );
  await refused({ storage: skills(), source: catalog }, /@skillmount\/fastify: .*\(got storage and source\)/, 'conflicting-options', 'source');
  await refused({ catalog, source: catalog }, /\(got catalog and source\)/, 'conflicting-options');
  await refused(
    { storage: { list() {} } },
    /@skillmount\/fastify: option "storage" must be a SkillFiles storage with list\(dir\) and read\(path\)/,
    'invalid-type',
    'storage',
  );
  await refused({ source: { list() {} } }, /@skillmount\/fastify: option "source" must be a SkillSource/, 'invalid-type', 'source');
  await refused({ catalog: { list() {}, get() {}, read() {} } }, /@skillmount\/fastify: option "catalog" must be a SkillCatalog/, 'invalid-type', 'catalog');
});

test('bad values name the option', async () => {
  await refused(
    { storage: skills(), pageSize: 0 },
    /@skillmount\/fastify: option "pageSize" must be a positive integer or Infinity, got 0/,
    'invalid-value',
    'pageSize',
  );
  await refused({ storage: skills(), pageSize: 'x' }, /@skillmount\/fastify: option "pageSize"/, 'invalid-type', 'pageSize');
  await refused({ storage: skills(), limits: { files: -1 } }, /@skillmount\/fastify: option "limits\.files"/, 'invalid-value', 'limits.files');
  await refused({ storage: skills(), prefix: '../up' }, /@skillmount\/fastify: option "prefix"/, 'invalid-value', 'prefix');
  await refused({ storage: skills(), path: 'mcp' }, /@skillmount\/fastify: option "path" must be a route path starting with "\/"/, 'invalid-value', 'path');
  await refused({ storage: skills(), path: 7 }, /@skillmount\/fastify: option "path" must be a route path/, 'invalid-type', 'path');
  await refused({ storage: skills(), server: {} }, /@skillmount\/fastify: option "server" must be a function/, 'invalid-type', 'server');
  await refused({ storage: skills(), context: 'tenant' }, /@skillmount\/fastify: option "context" must be a function/, 'invalid-type', 'context');
  await refused({ storage: skills(), sessions: 'yes' }, /@skillmount\/fastify: option "sessions" must be true or false/, 'invalid-type', 'sessions');
  await refused(
    { storage: skills(), sessions: true, maxSessions: 1.5 },
    /@skillmount\/fastify: option "maxSessions" must be a positive integer/,
    'invalid-value',
    'maxSessions',
  );
  await refused(
    { storage: skills(), sessions: true, maxSessions: '10' },
    /@skillmount\/fastify: option "maxSessions" must be a positive integer/,
    'invalid-type',
    'maxSessions',
  );
  await refused(
    { storage: skills(), sessions: true, maxSessionsPerClient: 0 },
    /@skillmount\/fastify: option "maxSessionsPerClient" must be a positive integer, got 0/,
    'invalid-value',
  );
  await refused(
    { storage: skills(), maxSessionsPerClient: 5 },
    /@skillmount\/fastify: option "maxSessionsPerClient" applies only with sessions: true/,
    'conflicting-options',
  );
  await refused(
    { storage: skills(), path: false, bodyTimeout: 1000 },
    /@skillmount\/fastify: option "bodyTimeout" only applies to the route the plugin mounts/,
    'conflicting-options',
    'bodyTimeout',
  );
  await refused(
    { storage: skills(), sessionIdleMs: 1000 },
    /@skillmount\/fastify: option "sessionIdleMs" applies only with sessions: true/,
    'conflicting-options',
  );
  await refused({ storage: skills(), bodyLimit: 0 }, /@skillmount\/fastify: option "bodyLimit" must be a positive integer/, 'invalid-value', 'bodyLimit');
  await refused(
    { storage: skills(), allowedHosts: 'localhost' },
    /@skillmount\/fastify: option "allowedHosts" must be a list of host names/,
    'invalid-type',
    'allowedHosts',
  );
});

test('options that would do nothing are refused', async () => {
  const catalog = await SkillCatalog.load(skills());
  await refused(
    { catalog, pageSize: 2 },
    /@skillmount\/fastify: option "pageSize" applies only with storage; pass pageSize to SkillCatalog.load/,
    'conflicting-options',
    'pageSize',
  );
  await refused({ source: catalog, strict: true }, /@skillmount\/fastify: option "strict" applies only with storage/, 'conflicting-options', 'strict');
  await refused(
    { storage: skills(), path: false, sessions: true },
    /@skillmount\/fastify: option "sessions" only applies to the route the plugin mounts/,
    'conflicting-options',
    'sessions',
  );
  await refused({ source: catalog, watch: true }, /@skillmount\/fastify: option "watch" needs storage or catalog/, 'conflicting-options', 'watch');
  const { watch: _, ...unwatchable } = skills();
  await refused(
    { storage: unwatchable, watch: true },
    /@skillmount\/fastify: option "watch" needs a storage with a watch\(\) method/,
    'conflicting-options',
    'watch',
  );
});

test('cacheBytes is a storage option too, checked at registration', async () => {
  const catalog = await SkillCatalog.load(skills());
  await refused(
    { storage: skills(), cacheBytes: -1 },
    /@skillmount\/fastify: option "cacheBytes" must be a non-negative integer/,
    'invalid-value',
    'cacheBytes',
  );
  await refused({ catalog, cacheBytes: 0 }, /@skillmount\/fastify: option "cacheBytes" applies only with storage/, 'conflicting-options', 'cacheBytes');
});

test('under strict, a catalog that cannot load fails ready() with the load error', async () => {
  const app = Fastify();
  const broken = memoryStorage({ 'bad/SKILL.md': '---\nname: not-bad\ndescription: Wrong name.\n---\n' });
  app.register(skillsPlugin, { storage: broken, strict: true });
  try {
    await assert.rejects(
      async () => {
        await app.ready();
      },
      (error: unknown) => {
        assert.ok(error instanceof CatalogError);
        assert.match(error.message, /bad/);
        return true;
      },
    );
  } finally {
    await app.close().catch(() => {});
  }
});

test('with a custom source, strict fails a skills/list page that holds an invalid entry; without it the entry is dropped', async () => {
  const good = await SkillCatalog.load(skills());
  const [hello] = good.entries;
  const misnamed = {
    ...hello!,
    uri: 'skill://other/SKILL.md',
    resources: [{ ...(hello!.resources as { uri: string; digest: string; size: number }[])[0]!, uri: 'skill://other/SKILL.md' }],
  };
  const source = { list: async () => ({ skills: [hello!, misnamed] }), get: async () => undefined, read: async () => undefined };
  await refused({ source, strict: 'yes' }, /@skillmount\/fastify: option "strict" must be true or false, got "yes"/, 'invalid-type', 'strict');
  for (const strict of [undefined, false, true]) {
    const warned: string[] = [];
    const { app, url } = await startApp({ source, onWarning: (w) => warned.push(`${w.code} ${w.uri}`), ...(strict === undefined ? {} : { strict }) });
    const { call, close } = await connectClient(url);
    try {
      if (strict) await assert.rejects(call('skills/list'), (error: { code: number }) => error.code === -32603);
      else
        assert.deepEqual(
          (await call('skills/list')).skills.map((s: { uri: string }) => s.uri),
          [hello!.uri],
        );
      assert.deepEqual(warned, ['invalid-entry skill://other/SKILL.md']);
    } finally {
      await close();
      await app.close();
    }
  }
});

test('registering twice in one context is refused', async () => {
  const app = Fastify();
  try {
    await app.register(skillsPlugin, { storage: skills() });
    await assert.rejects(async () => {
      await app.register(skillsPlugin, { storage: skills(), path: '/other' });
    }, /@skillmount\/fastify: app\.skills is already defined/);
  } finally {
    await app.close().catch(() => {});
  }
});

test('"prefix" is the skill path prefix, not a route prefix', async () => {
  const { app, url } = await startApp({ storage: skills(), prefix: 'team/tools' });
  try {
    assert.ok(url.endsWith('/mcp'));
    const { call, close } = await connectClient(url);
    try {
      assert.deepEqual(
        (await call('skills/list')).skills.map((s: { uri: string }) => s.uri),
        ['skill://team/tools/hello/SKILL.md'],
      );
    } finally {
      await close();
    }
  } finally {
    await app.close();
  }
});

test('a catalog passed in is served and never closed by the plugin', async () => {
  const storage = skills();
  const catalog = await SkillCatalog.load(storage);
  const { app, url } = await startApp({ catalog, path: '/skills/mcp', watch: true });
  assert.equal(app.skills.catalog, catalog);
  const { call, close } = await connectClient(url);
  try {
    assert.equal((await call('skills/list')).skills.length, 1);
  } finally {
    await close();
    await app.close();
  }
  // Still usable after the app closed; the plugin's watch stopped with it.
  storage.write('bye/SKILL.md', '---\nname: bye\ndescription: Says bye.\n---\n');
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(catalog.entries.length, 1, 'not watched any more');
  assert.equal((await catalog.reload()).added.length, 1, 'but still open');
});

test('a Fastify server without requestTimeout gets a warning in its log; one with it does not', async () => {
  for (const [requestTimeout, warned] of [
    [0, true],
    [30_000, false],
  ] as const) {
    const lines: string[] = [];
    const app = Fastify({ requestTimeout, logger: { level: 'warn', stream: { write: (line: string) => void lines.push(line) } } });
    try {
      await app.register(skillsPlugin, { storage: skills() });
      await app.ready();
      const warning = lines.map((line) => JSON.parse(line).msg as string).find((msg) => msg.includes('requestTimeout'));
      if (warned) assert.match(warning ?? '', /@skillmount\/fastify: this Fastify server has no requestTimeout.*Fastify\(\{ requestTimeout: 30000 \}\)/);
      else assert.equal(warning, undefined);
    } finally {
      await app.close();
    }
  }
});
