import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tenantCatalogs, type SkillWarning } from '@skillmount/core';
import { s3Storage } from '@skillmount/storage-s3';
import { s3ForTest } from '../support/s3-server.js';
import { freshPrefix, upload } from '../storage-s3/helpers.js';
import { ADAPTERS, TREES, checkIsolation, counting, type CountingStorage, type Via } from './helpers.js';

test('prefix per tenant in S3: isolation on Fastify and Express, stateless, with sessions and on an existing route', async (t) => {
  const { bucket, client } = await s3ForTest(t);
  // Tenants live side by side under one base prefix: <base>a/…, <base>b/…
  const base = freshPrefix('tenants');
  for (const [tenant, files] of Object.entries(TREES)) await upload(client, bucket, `${base}${tenant}/`, files);

  const warnings: SkillWarning[] = [];
  const storages: CountingStorage[] = [];
  const tenants = tenantCatalogs({
    key: (ctx) => ctx.tenant as string | undefined,
    storage: (key) => {
      const storage = counting(s3Storage({ client, bucket, prefix: `${base}${key}/` }));
      storages.push(storage);
      return storage;
    },
    onWarning: (w) => warnings.push(w),
  });
  t.after(() => tenants.close());

  const via: Record<'fastify' | 'express', Via> = { fastify: 'auth', express: 'header' };
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
  // One storage and one listing per tenant for the whole run: catalogs stay loaded across servers.
  assert.equal(storages.length, 2);
  assert.deepEqual(
    storages.map((s) => s.roots),
    [1, 1],
  );
  assert.deepEqual(
    warnings.filter((w) => w.code !== 'tenant-key-refused'),
    [],
  );

  await tenants.close();
  assert.deepEqual(
    storages.map((s) => s.closed),
    [1, 1],
    'closing the tenant source closes the storages it created',
  );
});
