import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { OptionError, SkillCatalog, StorageError, type OptionErrorCode } from '@skillmount/core';
import { migrate, postgresStorage, type PostgresStorageOptions } from '@skillmount/storage-postgres';
import { privatePostgresProblem, testPool, uniqueName } from '../support/postgres.js';
import { setup } from './helpers.js';
import { skillMd } from '../support/skill-md.js';
import { sleep, waitFor } from '../support/wait.js';

let env: Awaited<ReturnType<typeof setup>>;
const dropped: string[] = [];

before(async () => {
  env = await setup('life');
});
after(async () => {
  for (const table of dropped) await env.admin.query(`DROP TABLE IF EXISTS ${table} CASCADE`).catch(() => undefined);
  await env.admin.query('DROP SCHEMA IF EXISTS ' + schemaName + ' CASCADE').catch(() => undefined);
  await env.teardown();
});

const schemaName = uniqueName('skills');

test('migrate() twice, and concurrently, succeeds and leaves one working table', async () => {
  const table = uniqueName('mig');
  dropped.push(pg.escapeIdentifier(table), pg.escapeIdentifier(`${table}_gen`));
  const storage = postgresStorage({ pool: env.admin, table });
  await storage.migrate();
  await storage.migrate();
  await Promise.all([migrate(env.admin, { table }), migrate(env.admin, { table }), storage.migrate()]);
  const { rows: triggers } = await env.admin.query(`SELECT tgname FROM pg_trigger WHERE tgrelid = $1::regclass AND NOT tgisinternal ORDER BY 1`, [
    pg.escapeIdentifier(table),
  ]);
  assert.deepEqual(
    triggers.map((r) => r.tgname),
    ['skillmount_gen_delete', 'skillmount_gen_insert', 'skillmount_gen_truncate', 'skillmount_gen_update', 'skillmount_notify', 'skillmount_notify_truncate'],
  );
  assert.equal(await storage.put('a/SKILL.md', skillMd('a')), true);
  const [file] = await storage.listAll();
  assert.equal(file!.size, Buffer.byteLength(skillMd('a')));
  assert.match(file!.digest!, /^sha256:[0-9a-f]{64}$/);

  // A fresh table in a schema that does not exist yet, created concurrently by three replicas.
  const qualified = `${schemaName}.files`;
  await Promise.all([1, 2, 3].map(() => migrate(env.admin, { table: qualified })));
  const inSchema = postgresStorage({ pool: env.admin, table: qualified, namespace: 'n' });
  await inSchema.put('b/SKILL.md', skillMd('b'));
  assert.deepEqual(
    (await SkillCatalog.load(inSchema)).entries.map((e) => e.uri),
    ['skill://b/SKILL.md'],
  );
});

test('migrate() refuses a table of another shape, naming what is missing', async () => {
  const table = uniqueName('other');
  dropped.push(pg.escapeIdentifier(table));
  await env.admin.query(`CREATE TABLE ${pg.escapeIdentifier(table)} (namespace text, path text)`);
  await assert.rejects(migrate(env.admin, { table }), (error: Error) => {
    assert.ok(error instanceof StorageError);
    assert.match(error.message, /^@skillmount\/storage-postgres: migrate\(\) of table other_.* lacks the columns content, size, sha256, updated_at/);
    return true;
  });
  await assert.rejects(
    migrate(env.admin, { table: 'no such' }),
    /^OptionError: @skillmount\/storage-postgres: migrate\(\): option "table" must be a table name/,
  );
});

test('close() ends a pool the storage created and leaves a passed-in pool usable', async () => {
  const owned = postgresStorage({ connectionString: env.db.connectionString, table: env.table, namespace: 'owned' });
  await owned.put('x/SKILL.md', skillMd('x'));
  let calls = 0;
  owned.watch(() => calls++);
  await waitFor(() => calls === 1, 'the owned storage listening');
  await owned.close();
  await owned.close(); // twice is fine
  await assert.rejects(owned.read('x/SKILL.md'), (error: Error) => error instanceof StorageError && error.message.includes('"x/SKILL.md"'));
  const { rows } = await env.admin.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE query = $1', [`LISTEN ${pg.escapeIdentifier(owned.channel)}`]);
  assert.equal(rows[0].n, 0, 'close() also stopped the watch');
  assert.throws(() => owned.watch(() => {}), /closed/);

  const pool = testPool(env.db.connectionString, 10);
  try {
    const borrowed = postgresStorage({ pool, table: env.table, namespace: 'owned' });
    assert.equal((await borrowed.listAll()).length, 1);
    await borrowed.close();
    assert.equal(pool.ended, false);
    assert.equal((await pool.query('SELECT 1 AS one')).rows[0].one, 1);
  } finally {
    await pool.end();
  }
});

test('options are checked when the storage is created', () => {
  const pool = env.admin;
  const bad: [unknown, RegExp, OptionErrorCode][] = [
    [undefined, /options must be an object/, 'invalid-type'],
    [{}, /option "connectionString" or "pool" is required: give exactly one of the options pool .* or connectionString/, 'missing-option'],
    [{ pool, connectionString: 'postgres://x' }, /exactly one/, 'conflicting-options'],
    [{ pool: {} }, /pg\.Pool/, 'invalid-type'],
    [{ connectionString: '' }, /non-empty string/, 'invalid-value'],
    [{ connectionString: 5432 }, /non-empty string/, 'invalid-type'],
    [{ pool, namespace: 7 }, /namespace/, 'invalid-type'],
    [{ pool, namespace: 'a\0b' }, /NUL/, 'invalid-value'],
    [{ pool, debounceMs: -1 }, /debounceMs/, 'invalid-value'],
    [{ pool, onError: 'log' }, /onError/, 'invalid-type'],
    [{ pool, tabel: 'x' }, /option "tabel" is not an option/, 'unknown-option'],
    [{ pool, table: 'x y' }, /option "table" must be a table name, .*; got "x y"/, 'invalid-value'],
    [{ pool, table: 7 }, /option "table" must be a string/, 'invalid-type'],
  ];
  for (const [options, message, code] of bad) {
    assert.throws(
      () => postgresStorage(options as PostgresStorageOptions),
      (error: unknown) =>
        error instanceof OptionError &&
        error.code === code &&
        (code === 'invalid-value' ? error instanceof RangeError : error instanceof TypeError) &&
        error.message.startsWith('@skillmount/storage-postgres: ') &&
        message.test(error.message),
      JSON.stringify(options, (k, v) => (k === 'pool' ? '[pool]' : v)),
    );
  }
});

test('a connectionString read from an unset environment variable is named as such', () => {
  const unset = process.env.SKILLMOUNT_SURELY_UNSET_VARIABLE;
  assert.throws(
    () => postgresStorage({ connectionString: unset }),
    (error: unknown) => {
      assert.ok(error instanceof OptionError && error instanceof TypeError, String(error));
      assert.equal(error.code, 'missing-option');
      assert.equal(error.option, 'connectionString');
      assert.equal(
        error.message,
        '@skillmount/storage-postgres: option "connectionString" is undefined: is DATABASE_URL (or whichever variable you read it from) set?',
      );
      return true;
    },
  );
  // Beside a pool, an undefined connectionString is simply not given.
  assert.doesNotThrow(() => postgresStorage({ pool: env.admin, connectionString: undefined }));
});

test('a PostgreSQL restart: the listener reconnects and an owned pool serves again', { skip: privatePostgresProblem() }, async (t) => {
  // A private server, whatever DATABASE_URL says: this test stops and starts it.
  const env = await setup('restart', { own: true });
  t.after(() => env.teardown());
  const errors: StorageError[] = [];
  const storage = postgresStorage({ connectionString: env.db.connectionString, table: env.table, namespace: 'restart', onError: (e) => errors.push(e) });
  await storage.put('r/SKILL.md', skillMd('r'));
  const catalog = await SkillCatalog.load(storage, { onWarning: () => {} });
  let calls = 0;
  const stop = storage.watch(() => calls++);
  try {
    await waitFor(() => calls === 1, 'listening');
    await env.db.restart!();
    await waitFor(() => calls === 2, 'onChange once reconnected after the restart', 15_000);
    assert.ok(errors.some((e) => e.message.includes('connection lost')));
    // The owned pool dropped its dead idle connections and makes new ones.
    await storage.put('r/more.md', 'more');
    await waitFor(() => calls === 3, 'onChange for a write after the restart', 5000);
    await catalog.reload();
    assert.equal((catalog.entries[0]!.resources as unknown[]).length, 2);
  } finally {
    stop();
    catalog.close();
    await storage.close();
    await sleep(0);
  }
});
