import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { SkillCatalog, type StorageError } from '@skillmount/core';
import { postgresStorage } from '@skillmount/storage-postgres';
import { dropMigrated, testPool, uniqueName } from '../support/postgres.js';
import { setup } from './helpers.js';
import { skillMd } from '../support/skill-md.js';
import { sleep, waitFor } from '../support/wait.js';

let env: Awaited<ReturnType<typeof setup>>;
let poolA: pg.Pool;
let poolB: pg.Pool;

before(async () => {
  env = await setup('watch');
  // Two pools stand for two server replicas.
  poolA = testPool(env.db.connectionString, 10);
  poolB = testPool(env.db.connectionString, 10);
});
after(async () => {
  await Promise.all([poolA.end(), poolB.end()]);
  await env.teardown();
});

/** Backend pids of the connections LISTENing on a channel, seen from another connection. */
async function listeners(channel: string): Promise<number[]> {
  const { rows } = await env.admin.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE query = $1 AND pid <> pg_backend_pid()`, [
    `LISTEN ${pg.escapeIdentifier(channel)}`,
  ]);
  return rows.map((r) => r.pid);
}

test('a write by another replica fires onChange; the listener survives a killed connection; stop() ends it', async () => {
  const namespace = uniqueName('live');
  const errors: StorageError[] = [];
  const reader = postgresStorage({ pool: poolA, table: env.table, namespace, onError: (e) => errors.push(e) });
  const writer = postgresStorage({ pool: poolB, table: env.table, namespace });
  const other = postgresStorage({ pool: poolB, table: env.table, namespace: uniqueName('other') });

  let calls = 0;
  const stop = reader.watch(() => calls++);
  try {
    // Once listening it reports a change: writes made before LISTEN may have been missed.
    await waitFor(() => calls === 1, 'the first onChange once listening');
    assert.equal((await listeners(reader.channel)).length, 1);

    await writer.put('a/SKILL.md', skillMd('a'));
    await waitFor(() => calls === 2, 'onChange after a write by the other pool', 30_000);

    // Notifications that arrive together are reported once, not once each. Two distinct ones
    // (PostgreSQL merges equal ones within a transaction) sent in one statement arrive together at
    // its commit. A reader with a 1 s debounce window, far longer than the gap between them on any
    // machine, proves it; separate writes 50 ms apart would prove it only on a quick one.
    let burstCalls = 0;
    const burstReader = postgresStorage({ pool: poolA, table: env.table, namespace, debounceMs: 1000 });
    const stopBurst = burstReader.watch(() => burstCalls++);
    try {
      await waitFor(() => burstCalls === 1, 'the first onChange of the second reader once listening', 30_000);
      await poolB.query(`SELECT pg_notify($1, $2), pg_notify($1, '*')`, [reader.channel, namespace]);
      await waitFor(() => burstCalls >= 2, 'onChange after the notifications', 30_000);
      await sleep(200);
      assert.equal(burstCalls, 2, `two notifications arriving together fired ${burstCalls - 1} times`);
    } finally {
      stopBurst();
    }
    await waitFor(async () => (await listeners(reader.channel)).length === 1, "the second reader's connection closed", 30_000);
    const afterBurst = calls;

    // Writes to another namespace of the same table are not ours.
    await other.put('a/SKILL.md', skillMd('a'));
    await sleep(300);
    assert.equal(calls, afterBurst, 'a write in another namespace does not fire');

    // Kill the LISTEN connection from outside, as a PostgreSQL restart would.
    const [pid] = await listeners(reader.channel);
    const { rows } = await env.admin.query<{ ok: boolean }>('SELECT pg_terminate_backend($1) AS ok', [pid]);
    assert.equal(rows[0]!.ok, true);
    await waitFor(() => calls === afterBurst + 1, 'onChange once reconnected (changes may have been missed)', 30_000);
    assert.ok(
      errors.some((e) => e.message.includes('connection lost') && e.message.includes(env.table) && e.cause !== undefined),
      errors.map((e) => e.message).join('\n'),
    );
    const [newPid] = await listeners(reader.channel);
    assert.ok(newPid !== undefined && newPid !== pid, 'a new connection listens');

    await writer.put('a/after-reconnect.md', 'b');
    await waitFor(() => calls === afterBurst + 2, 'onChange after a write on the new connection', 30_000);
  } finally {
    stop();
  }

  // stop(): the listener's connection goes away and writes no longer fire.
  const stoppedAt = calls;
  let gone = false;
  for (let i = 0; i < 100 && !gone; i++) {
    gone = (await listeners(reader.channel)).length === 0;
    if (!gone) await sleep(20);
  }
  assert.ok(gone, 'the LISTEN connection is closed');
  await writer.put('a/after-stop.md', 'late');
  await sleep(300);
  assert.equal(calls, stoppedAt);
});

test('a catalog watching the storage follows a write made through another replica', async () => {
  const namespace = uniqueName('catalog');
  const reader = postgresStorage({ pool: poolA, table: env.table, namespace });
  const writer = postgresStorage({ pool: poolB, table: env.table, namespace });
  await writer.put('first/SKILL.md', skillMd('first'));
  const catalog = await SkillCatalog.load(reader);
  let listChanged = 0;
  catalog.onListChanged(() => listChanged++);
  catalog.watch();
  try {
    await writer.put('second/SKILL.md', skillMd('second'));
    await waitFor(() => catalog.entries.length === 2, 'the new skill in the catalog', 5000);
    assert.deepEqual(
      catalog.entries.map((e) => e.uri),
      ['skill://first/SKILL.md', 'skill://second/SKILL.md'],
    );
    assert.ok(listChanged >= 1);
    await writer.remove('first/SKILL.md');
    await waitFor(() => catalog.entries.length === 1, 'the removed skill gone from the catalog', 5000);
  } finally {
    catalog.close();
    await reader.close();
  }
});

test('TRUNCATE notifies every namespace', async () => {
  const table = uniqueName('trunc');
  const reader = postgresStorage({ pool: poolA, table, namespace: 'n' });
  await reader.migrate();
  let calls = 0;
  const stop = reader.watch(() => calls++);
  try {
    await waitFor(() => calls === 1, 'listening');
    await env.admin.query(`TRUNCATE ${pg.escapeIdentifier(table)}`);
    await waitFor(() => calls === 2, 'onChange after TRUNCATE', 2000);
  } finally {
    stop();
    await reader.close();
    await dropMigrated(env.admin, table);
  }
});
