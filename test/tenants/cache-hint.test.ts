/**
 * The cache hint of a tenant's result comes from the tenant that answered it, whatever came before:
 * a request resolves its tenant once, and its result and the result's `ttlMs` / `cacheScope` come
 * from that one source. Two tenants with different hints, asked at the same time, on both eras.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SkillCatalog, memoryStorage, tenantCatalogs, type CacheHint, type SkillContext, type SkillWarning } from '@skillmount/core';
import { ADAPTERS, TREES, rawClient, type RawClient } from './helpers.js';

const HINTS: Record<'a' | 'b', CacheHint> = {
  a: { ttlMs: 30_000, cacheScope: 'private' },
  b: { ttlMs: 5_000, cacheScope: 'private' },
};
const NO_TENANT: CacheHint = { ttlMs: 0, cacheScope: 'private' };

/** Tenants a and b, each a catalog with its own hint; nothing else is a tenant. */
function hintedTenants(warnings: SkillWarning[] = []) {
  return tenantCatalogs({
    key: (ctx) => ctx.tenant as string | undefined,
    onWarning: (w) => warnings.push(w),
    load: async (key) => {
      if (key !== 'a' && key !== 'b') throw new Error(`no tenant ${key}`);
      return SkillCatalog.load(memoryStorage(TREES[key]), { cacheHint: HINTS[key] });
    },
  });
}

const hintOf = (result: { ttlMs?: unknown; cacheScope?: unknown } | undefined) => ({ ttlMs: result?.ttlMs, cacheScope: result?.cacheScope });

test('resolve(ctx): the hint of a tenant no list call has touched, for two tenants at once', async (t) => {
  const tenants = hintedTenants();
  t.after(() => tenants.close());
  assert.equal('cacheHint' in tenants, false, 'no hint that depends on which call came before');
  const ask = (tenant: string | undefined) => {
    const ctx: SkillContext = tenant === undefined ? { headers: {} } : { headers: {}, tenant };
    return tenants.resolve(ctx, (source) => source.cacheHint?.(ctx));
  };
  // Interleaved, first requests of each tenant: each gets its own hint.
  const hints = await Promise.all(['a', 'b', 'a', undefined, 'b'].map(ask));
  assert.deepEqual(hints, [HINTS.a, HINTS.b, HINTS.a, NO_TENANT, HINTS.b]);
  assert.deepEqual([...tenants.loaded].sort(), ['a', 'b']);
});

for (const [framework, serve] of Object.entries(ADAPTERS)) {
  for (const modern of [false, true]) {
    const era = modern ? '2026-07-28' : '2025-11-25';
    test(`${framework}, ${era}: every result carries the hint of its own tenant, first requests and concurrent ones alike`, async (t) => {
      const tenants = hintedTenants();
      t.after(() => tenants.close());
      const served = await serve(tenants, { via: 'header' });
      t.after(() => served.close());
      const clients: Record<'a' | 'b' | 'none', RawClient> = {
        a: await rawClient(served.url, { 'x-tenant': 'a' }, false, modern),
        b: await rawClient(served.url, { 'x-tenant': 'b' }, false, modern),
        none: await rawClient(served.url, {}, false, modern),
      };
      const calls: [method: string, params: Record<string, unknown>][] = [
        ['skills/get', { uri: 'skill://greet/SKILL.md' }],
        ['resources/read', { uri: 'skill://greet/SKILL.md' }],
        ['resources/directory/read', { uri: 'skill://greet' }],
        ['skills/list', {}],
        ...(modern ? ([['server/discover', {}]] as [string, Record<string, unknown>][]) : []),
      ];
      // No list call first: each tenant's very first request is a get, a read or (2026-07-28) a discover.
      // A request without a tenant finds no skill to get or read: it lists (and discovers).
      const asked = (['a', 'b', 'none'] as const).flatMap((who) =>
        calls
          .filter(([method]) => who !== 'none' || method === 'skills/list' || method === 'server/discover')
          .map(([method, params]) => ({ who, method, params })),
      );
      for (let round = 0; round < 2; round++) {
        const order = round === 0 ? asked : [...asked].reverse();
        const answers = await Promise.all(order.map(async (q) => ({ ...q, answer: await clients[q.who].call(q.method, q.params) })));
        for (const { who, method, answer } of answers) {
          assert.ok(answer.message.result, `${who} ${method}: ${answer.raw}`);
          assert.deepEqual(hintOf(answer.message.result), who === 'none' ? NO_TENANT : HINTS[who], `${who} ${method} (round ${round})`);
        }
      }
      // 2026-07-28 discover on its own, as a client's first request of a fresh tenant source.
      if (modern) {
        const fresh = hintedTenants();
        t.after(() => fresh.close());
        const alone = await serve(fresh, { via: 'header' });
        t.after(() => alone.close());
        const [a, b] = await Promise.all(
          ['a', 'b'].map(async (tenant) => (await rawClient(alone.url, { 'x-tenant': tenant }, false, true)).call('server/discover')),
        );
        assert.deepEqual([hintOf(a!.message.result), hintOf(b!.message.result)], [HINTS.a, HINTS.b]);
      }
    });
  }
}

test('a tenant that cannot be loaded gets -32603 on server/discover too (its hint cannot be known); the other tenant keeps its own', async (t) => {
  const warnings: SkillWarning[] = [];
  const tenants = hintedTenants(warnings);
  t.after(() => tenants.close());
  const served = await ADAPTERS.express(tenants, { via: 'header' });
  t.after(() => served.close());
  const broken = await rawClient(served.url, { 'x-tenant': 'c' }, false, true);
  const fine = await rawClient(served.url, { 'x-tenant': 'b' }, false, true);
  const [failed, ok] = await Promise.all([broken.call('server/discover'), fine.call('server/discover')]);
  assert.equal(failed.message.error?.code, -32603, failed.raw);
  assert.doesNotMatch(failed.raw, /no tenant c/, 'the cause stays on the server');
  assert.deepEqual(hintOf(ok.message.result), HINTS.b);
  assert.ok(
    warnings.some((w) => w.code === 'tenant-load-failed' && w.message.includes('no tenant c')),
    JSON.stringify(warnings),
  );
});
