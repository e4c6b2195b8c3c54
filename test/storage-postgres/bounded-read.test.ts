import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { SkillCatalog, StorageError, type SkillWarning } from '@skillmount/core';
import { postgresStorage } from '@skillmount/storage-postgres';
import { uniqueName } from '../support/postgres.js';
import { countingPool, putTree, setup, type CountingPool } from './helpers.js';
import { skillMd } from '../support/skill-md.js';

let env: Awaited<ReturnType<typeof setup>>;
let counting: CountingPool;
/** Bytes of `content` each query brought back, in order. */
const received: number[] = [];

before(async () => {
  env = await setup('bounded');
  counting = countingPool(env.db.connectionString);
  const query = counting.pool.query.bind(counting.pool) as (...args: unknown[]) => Promise<{ rows: { content?: Buffer | null }[] }>;
  (counting.pool as { query: unknown }).query = async (...args: unknown[]) => {
    const result = await query(...args);
    received.push(result.rows.reduce((n, row) => n + (row.content?.byteLength ?? 0), 0));
    return result;
  };
});
after(async () => {
  await counting.pool.end();
  await env.teardown();
});

const GIANT = 8 * 1024 * 1024;

test('a row replaced by a much larger one is refused by its stored size: its content is never fetched', async () => {
  const storage = postgresStorage({ pool: counting.pool, table: env.table, namespace: uniqueName('bounded') });
  const data = 'twelve bytes';
  await putTree(storage, { 'big/SKILL.md': skillMd('big'), 'big/data.txt': data });
  const warnings: SkillWarning[] = [];
  const catalog = await SkillCatalog.load(storage, { onWarning: (w) => warnings.push(w), cacheBytes: 0 });
  assert.equal(catalog.entries.length, 1);

  counting.reset();
  received.splice(0);
  assert.equal(Buffer.from((await catalog.read('skill://big/data.txt')).bytes).toString(), data);
  assert.equal(counting.queries.length, 1);
  assert.match(counting.queries[0]!.text, /CASE WHEN size <= \$3::bigint THEN content END/);
  assert.equal(counting.queries[0]!.values[2], data.length, 'the published size bounds the read');

  await storage.put('big/data.txt', new Uint8Array(GIANT).fill(65));
  counting.reset();
  received.splice(0);
  await assert.rejects(
    catalog.read('skill://big/data.txt'),
    (error: { code?: number; message?: string }) => error.code === -32603 && /changed since/.test(error.message ?? ''),
  );
  assert.equal(counting.queries.length, 1);
  assert.deepEqual(received, [0], 'no byte of the 8 MiB row came back');
  const warning = warnings.find((w) => w.code === 'changed');
  assert.match(
    warning?.message ?? '',
    new RegExp(`cannot read "big/data.txt" in PostgreSQL table .*: it is ${GIANT} bytes, more than the ${data.length} it was listed with.*reload the catalog`),
  );

  // The storage on its own: refused with a StorageError naming the path; exact at the limit; whole without one.
  await assert.rejects(
    storage.read('big/data.txt', { maxBytes: GIANT - 1 }),
    (error: unknown) => error instanceof StorageError && error.path === 'big/data.txt' && error.code === 'too-large',
  );
  assert.equal((await storage.read('big/data.txt', { maxBytes: GIANT })).byteLength, GIANT);
  assert.equal((await storage.read('big/data.txt')).byteLength, GIANT);
  await assert.rejects(storage.read('big/nothing.txt', { maxBytes: 5 }), /no such file/);
});
