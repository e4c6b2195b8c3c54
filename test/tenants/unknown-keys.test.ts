import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { memoryStorage, tenantCatalogs, type SkillContext, type SkillFiles, type SkillWarning } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import { s3Storage } from '@skillmount/storage-s3';
import { postgresStorage } from '@skillmount/storage-postgres';
import { s3ForTest } from '../support/s3-server.js';
import { tableForTest } from '../support/postgres.js';
import { freshPrefix, upload } from '../storage-s3/helpers.js';
import { SKILLS_OF, TREES, counting, rawClient, serveExpress, tenantFolders, writeTree, type CountingStorage } from './helpers.js';

/**
 * Made-up tenant keys (a client choosing random header values) must not evict a tenant that has
 * skills: a key whose storage holds nothing sees an empty catalog and never takes a cache slot.
 */

/** Every storage the tenant source created, by tenant. */
function storageLog(make: (key: string) => SkillFiles) {
  const made = new Map<string, CountingStorage[]>();
  return {
    storage(key: string) {
      const storage = counting(make(key));
      made.set(key, [...(made.get(key) ?? []), storage]);
      return storage;
    },
    of: (key: string) => made.get(key) ?? [],
    get keys() {
      return made.size;
    },
  };
}

/** Run `fn` over `items`, `concurrency` at a time. */
async function eachLimit<T>(items: T[], concurrency: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

const ctx = (tenant: string): SkillContext => ({ headers: {}, tenant });

test('folder: 1500 random keys over HTTP see no skills and evict no loaded tenant', async (t) => {
  const root = await tenantFolders(t);
  const log = storageLog((key) => {
    const dir = path.join(root, key);
    // The documented pattern for tenants without a folder.
    return existsSync(dir) ? fsStorage(dir) : memoryStorage();
  });
  const warnings: SkillWarning[] = [];
  const tenants = tenantCatalogs({
    key: (c) => c.tenant as string | undefined,
    storage: (key) => log.storage(key),
    max: 2,
    onWarning: (w) => warnings.push(w),
  });
  t.after(() => tenants.close());
  const served = await serveExpress(tenants, { via: 'header' });
  t.after(() => served.close());
  const list = async (tenant: string) => (await (await rawClient(served.url, { 'x-tenant': tenant }, false)).call('skills/list', {})).message;

  for (const tenant of ['a', 'b'] as const)
    assert.deepEqual(
      (await list(tenant)).result.skills.map((s: { uri: string }) => s.uri),
      SKILLS_OF[tenant],
    );
  const randomKeys = Array.from({ length: 1500 }, () => randomUUID());
  await eachLimit(randomKeys, 16, async (key) => {
    const answer = await list(key);
    assert.deepEqual(answer.result?.skills, [], `${key} sees an empty catalog`);
  });

  assert.deepEqual(tenants.loaded, ['a', 'b'], 'only the tenants with skills are in memory');
  for (const tenant of ['a', 'b'] as const) {
    const made = log.of(tenant);
    assert.equal(made.length, 1, `${tenant} was loaded once, never again`);
    assert.equal(made[0]!.roots, 1, `${tenant}'s storage was listed once`);
    assert.equal(made[0]!.closed, 0, `${tenant} was never evicted`);
    assert.deepEqual(
      (await list(tenant)).result.skills.map((s: { uri: string }) => s.uri),
      SKILLS_OF[tenant],
    );
  }
  assert.equal(log.keys, 2 + randomKeys.length, 'each random key cost one storage');
  // Every storage made for a random key was closed once its request was answered.
  for (const key of randomKeys.slice(0, 50)) assert.equal(log.of(key)[0]!.closed, 1, `the storage of ${key} was closed`);
  assert.deepEqual(warnings, [], 'empty tenants are not worth a warning');
});

test('a tenant whose folder holds nothing is served empty each time, and is seen once it gets skills', async (t) => {
  const root = await tenantFolders(t, { a: TREES.a, later: { 'README.txt': 'not a skill\n' } });
  const log = storageLog((key) => fsStorage(path.join(root, key)));
  const tenants = tenantCatalogs({ key: (c) => c.tenant as string | undefined, storage: (key) => log.storage(key), max: 1, onWarning: () => {} });
  t.after(() => tenants.close());
  assert.deepEqual(
    (await tenants.list({}, ctx('a'))).skills.map((s) => s.uri),
    SKILLS_OF.a,
  );
  assert.deepEqual((await tenants.list({}, ctx('later'))).skills, []);
  assert.deepEqual(tenants.loaded, ['a'], 'with max 1, the empty tenant did not take the only slot');
  await writeTree(path.join(root, 'later'), TREES.b);
  assert.deepEqual(
    (await tenants.list({}, ctx('later'))).skills.map((s) => s.uri),
    SKILLS_OF.b,
    'no stale empty answer is kept',
  );
  assert.deepEqual(tenants.loaded, ['later'], 'now it has skills, it is kept (and, with max 1, a makes way)');
});

test('S3: random keys (prefixes with no object) evict no loaded tenant', async (t) => {
  const { bucket, client } = await s3ForTest(t);
  const base = freshPrefix('unknown-keys');
  await upload(client, bucket, `${base}a/`, TREES.a);
  const log = storageLog((key) => s3Storage({ client, bucket, prefix: `${base}${key}/` }));
  const tenants = tenantCatalogs({ key: (c) => c.tenant as string | undefined, storage: (key) => log.storage(key), max: 1, onWarning: () => {} });
  t.after(() => tenants.close());

  assert.deepEqual(
    (await tenants.list({}, ctx('a'))).skills.map((s) => s.uri),
    SKILLS_OF.a,
  );
  await eachLimit(
    Array.from({ length: 200 }, () => randomUUID()),
    8,
    async (key) => {
      assert.deepEqual((await tenants.list({}, ctx(key))).skills, []);
    },
  );
  assert.deepEqual(tenants.loaded, ['a']);
  assert.equal(log.of('a').length, 1, 'a was loaded once');
  assert.equal(log.of('a')[0]!.roots, 1, "a's prefix was listed once");
});

test('PostgreSQL: random keys (namespaces with no row) evict no loaded tenant', async (t) => {
  const { pool, table } = await tableForTest(t, 'unknown_keys');
  const a = postgresStorage({ pool, table, namespace: 'a' });
  for (const [file, content] of Object.entries(TREES.a)) await a.put(file, content);
  const log = storageLog((key) => postgresStorage({ pool, table, namespace: key }));
  const tenants = tenantCatalogs({ key: (c) => c.tenant as string | undefined, storage: (key) => log.storage(key), max: 1, onWarning: () => {} });
  t.after(() => tenants.close());

  assert.deepEqual(
    (await tenants.list({}, ctx('a'))).skills.map((s) => s.uri),
    SKILLS_OF.a,
  );
  await eachLimit(
    Array.from({ length: 200 }, () => randomUUID()),
    4,
    async (key) => {
      assert.deepEqual((await tenants.list({}, ctx(key))).skills, []);
    },
  );
  assert.deepEqual(tenants.loaded, ['a']);
  assert.equal(log.of('a').length, 1, 'a was loaded once');
  assert.equal(log.of('a')[0]!.roots, 1, "a's namespace was listed once");
});
