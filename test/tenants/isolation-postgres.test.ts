import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tenantCatalogs, type SkillWarning } from '@skillmount/core';
import { postgresStorage } from '@skillmount/storage-postgres';
import { tableForTest } from '../support/postgres.js';
import { ADAPTERS, TREES, checkIsolation, counting, type CountingStorage, type Via } from './helpers.js';

test('namespace per tenant in PostgreSQL: isolation on Fastify and Express, stateless, with sessions and on an existing route', async (t) => {
  const { pool, table } = await tableForTest(t, 'tenants');
  // Both tenants in one table, told apart by the namespace column only.
  for (const [tenant, files] of Object.entries(TREES)) {
    const storage = postgresStorage({ pool, table, namespace: tenant });
    for (const [file, content] of Object.entries(files)) await storage.put(file, content);
  }

  const warnings: SkillWarning[] = [];
  const storages: CountingStorage[] = [];
  const tenants = tenantCatalogs({
    key: (ctx) => ctx.tenant as string | undefined,
    storage: (key) => {
      const storage = counting(postgresStorage({ pool, table, namespace: key }));
      storages.push(storage);
      return storage;
    },
    onWarning: (w) => warnings.push(w),
  });

  const via: Record<'fastify' | 'express', Via> = { fastify: 'header', express: 'auth' };
  try {
    for (const adapter of ['fastify', 'express'] as const) {
      for (const mode of ['stateless', 'sessions', 'existing route'] as const) {
        const served = await ADAPTERS[adapter](tenants, { via: via[adapter], sessions: mode === 'sessions', existingRoute: mode === 'existing route' });
        try {
          await checkIsolation(served.url, via[adapter], mode === 'sessions');
        } catch (error) {
          throw new Error(`${adapter}, ${mode}: ${(error as Error).message}`, { cause: error });
        } finally {
          await served.close();
        }
      }
    }
    assert.deepEqual(
      storages.map((s) => s.roots),
      [1, 1],
      'one listing query per tenant for the whole run',
    );
    assert.deepEqual(
      warnings.filter((w) => w.code !== 'tenant-key-refused'),
      [],
    );
  } finally {
    await tenants.close();
  }
  assert.deepEqual(
    storages.map((s) => s.closed),
    [1, 1],
  );
  // The pool was ours: closing the tenants' storages left it usable.
  assert.equal((await pool.query('SELECT 1 AS one')).rows[0].one, 1);
});
