/**
 * Cache fields on both eras: the default caches nothing and shares nothing; an app's hint is
 * sent as set; a custom source's hint is checked before it goes on the wire.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SkillCatalog, memoryStorage, type SkillSource, type SkillWarning } from '@skillmount/core';
import { connectClient } from '../support/client.js';
import { FRAMEWORKS, serve } from '../hostile/servers.js';
import { modern } from './support.js';

const TREE = { 'a/SKILL.md': '---\nname: a\ndescription: A.\n---\n' };

for (const framework of FRAMEWORKS) {
  test(`${framework}: default { ttlMs: 0, cacheScope: 'private' }; an app's hint as set`, async (t) => {
    const plain = await serve(framework, { storage: memoryStorage(TREE) });
    t.after(() => plain.close());
    const hinted = await serve(framework, { storage: memoryStorage(TREE), cacheHint: { ttlMs: 30_000, cacheScope: 'public' } });
    t.after(() => hinted.close());
    for (const [served, expected] of [
      [plain, { ttlMs: 0, cacheScope: 'private' }],
      [hinted, { ttlMs: 30_000, cacheScope: 'public' }],
    ] as const) {
      const { result } = (await modern(served.url, 'skills/list')).message;
      assert.deepEqual({ ttlMs: result.ttlMs, cacheScope: result.cacheScope }, expected);
      const { call, close } = await connectClient(served.url);
      try {
        const legacy = await call('skills/list', {});
        assert.deepEqual({ ttlMs: legacy.ttlMs, cacheScope: legacy.cacheScope }, expected);
      } finally {
        await close();
      }
    }
  });

  test(`${framework}: a custom source's invalid cache hint is never sent: -32603, and the operator is told`, async (t) => {
    const catalog = await SkillCatalog.load(memoryStorage(TREE));
    const source: SkillSource = {
      list: (params) => catalog.list(params),
      get: (uri) => catalog.get(uri),
      read: (uri) => catalog.read(uri),
      cacheHint: () => ({ ttlMs: -5, cacheScope: 'shared' as never }),
    };
    const warnings: SkillWarning[] = [];
    const served = await serve(framework, { source, onWarning: (w) => warnings.push(w) });
    t.after(() => served.close());
    const answer = await modern(served.url, 'skills/get', { uri: 'skill://a/SKILL.md' });
    assert.equal(answer.message.error?.code, -32603, JSON.stringify(answer.message));
    assert.doesNotMatch(answer.text, /shared|-5/);
    const { call, close } = await connectClient(served.url);
    try {
      await assert.rejects(call('skills/list', {}), (error: { code?: number }) => error.code === -32603);
    } finally {
      await close();
    }
    assert.ok(
      warnings.some((w) => w.code === 'invalid-cache-hint' && w.message.includes('ttlMs -5')),
      JSON.stringify(warnings),
    );
  });
}
