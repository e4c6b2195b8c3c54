/**
 * `skillmount serve postgres://…` follows its table through LISTEN/NOTIFY: two servers on the same
 * table both follow a publish; a reload while the database refuses connections keeps the old
 * catalog serving and logs the cause; a server whose connections are all terminated recovers on
 * its own and serves the next change. Each server is told apart in `pg_stat_activity` by its
 * `application_name`. The test runs in a database of its own, dropped at the end.
 */
import assert from 'node:assert/strict';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { privatePostgresProblem, startPostgres, testPool, type TestPostgres, uniqueName } from '../support/postgres.js';
import { EXAMPLES } from '../support/skills-suite.js';
import { LIVE_PATIENCE_MS, runCli, sha256, startServe, watchingClient, type Serving } from './helpers.js';
import { waitFor } from '../support/wait.js';

const SKILL = 'skill://acme/billing/refunds/SKILL.md';
const FILE = 'skill://acme/billing/refunds/templates/approved.md';
const FILE_PATH = 'acme/billing/refunds/templates/approved.md';
const NAMESPACE = 'team-a';

let db: TestPostgres;
let admin: pg.Pool;
let writer: pg.Client;
let database: string;
let root: string;
const appA = uniqueName('skillmount_a');
const appB = uniqueName('skillmount_b');
let serverA: Serving;
let serverB: Serving;
let clientA: Awaited<ReturnType<typeof watchingClient>>;
let clientB: Awaited<ReturnType<typeof watchingClient>>;

/** The connection string of the test database, with an application name, and the namespace. */
function location(applicationName?: string): string {
  const url = new URL(db.connectionString);
  url.pathname = `/${database}`;
  if (applicationName) url.searchParams.set('application_name', applicationName);
  url.hash = NAMESPACE;
  return url.href;
}

/** Write a file as another writer would: a plain SQL update, whose trigger notifies every server. */
async function write(content: string): Promise<void> {
  const { rowCount } = await writer.query('UPDATE skillmount_files SET content = $1 WHERE namespace = $2 AND path = $3', [
    Buffer.from(content),
    NAMESPACE,
    FILE_PATH,
  ]);
  assert.equal(rowCount, 1);
}

async function connectWriter(): Promise<void> {
  writer = new pg.Client({ connectionString: location().split('#')[0] });
  writer.on('error', () => {});
  await writer.connect();
}

/** Terminate backends of one server; `listening: false` spares its LISTEN connection. */
async function terminate(applicationName: string, options: { listening: boolean }): Promise<number> {
  const { rows } = await admin.query(
    `SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE application_name = $1 AND ($2 OR query NOT ILIKE 'LISTEN%')`,
    [applicationName, options.listening],
  );
  return rows.length;
}

// Every test here needs a private server; where none can start, each says why it is skipped.
const skip = privatePostgresProblem();

before(async () => {
  if (skip) return;
  // A private server, whatever DATABASE_URL says: the last test restarts it.
  db = await startPostgres({ own: true });
  admin = testPool(db.connectionString, 2);
  database = uniqueName('skillmount_live');
  await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(database)}`);
  root = await mkdtemp(path.join(tmpdir(), 'skillmount-live-pg-'));
  await cp(EXAMPLES, root, { recursive: true });
  const published = await runCli(['publish', root, location()]);
  assert.equal(published.code, 0, published.stderr);
  await connectWriter();
  [serverA, serverB] = await Promise.all([startServe(location(appA)), startServe(location(appB))]);
  [clientA, clientB] = await Promise.all([watchingClient(serverA.url), watchingClient(serverB.url)]);
});

after(async () => {
  if (skip) return;
  await Promise.allSettled([clientA?.close(), clientB?.close()]);
  const codes = await Promise.all([serverA?.stop(), serverB?.stop()]);
  await writer?.end().catch(() => undefined);
  await admin.query(`ALTER DATABASE ${pg.escapeIdentifier(database)} ALLOW_CONNECTIONS true`).catch(() => undefined);
  await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(database)} WITH (FORCE)`);
  await admin.end();
  await db.stop();
  await rm(root, { recursive: true, force: true });
  assert.deepEqual(codes, [0, 0], 'both servers stop cleanly');
});

test('two servers on one table: a publish reaches both, and each tells its client within 10 s', { skip }, async (t) => {
  assert.match(serverA.stdout(), /\(fastify, sessions, watching\) from postgres/);
  const content = '# Approved refund\n\nPublished while two servers run.\n';
  await writeFile(path.join(root, FILE_PATH), content);
  const [sinceA, sinceB] = [clientA.changes, clientB.changes];
  const started = Date.now();
  const published = await runCli(['publish', root, location()]);
  assert.equal(published.code, 0, published.stderr);
  assert.match(published.stdout, /^published 1 file \(10 unchanged, 0 removed\)/);
  await Promise.all([clientA.changed(sinceA), clientB.changed(sinceB)]);
  t.diagnostic(`both servers told their clients ${Date.now() - started} ms after publish started`);
  assert.equal(await clientA.digestOf(SKILL, FILE), sha256(content));
  assert.equal(await clientB.digestOf(SKILL, FILE), sha256(content));

  // A write from SQL, by neither server, is followed the same way.
  const again = '# Approved refund\n\nUpdated from SQL.\n';
  const [a, b] = [clientA.changes, clientB.changes];
  await write(again);
  await Promise.all([clientA.changed(a), clientB.changed(b)]);
  assert.equal(await clientB.digestOf(SKILL, FILE), sha256(again));
  assert.equal(await clientA.digestOf(SKILL, FILE), sha256(again));
});

test('a reload while the database refuses connections keeps the old catalog serving and logs the cause; the next change is served', { skip }, async () => {
  const served = await clientA.digestOf(SKILL, FILE);
  const mark = serverA.stderr().length;
  // New connections are refused; the LISTEN connection (and the writer's) stay up, so the change is noticed.
  await admin.query(`ALTER DATABASE ${pg.escapeIdentifier(database)} ALLOW_CONNECTIONS false`);
  try {
    await terminate(appA, { listening: false });
    await write('# Approved refund\n\nWritten while the database refuses connections.\n');
    const logged = await serverA.waitForStderr(
      /warning: reload failed, still serving the previous catalog: .*not currently accepting connections/,
      LIVE_PATIENCE_MS,
      mark,
    );
    assert.match(logged, /PostgreSQL table skillmount_files, namespace "team-a"/, 'the warning names the table and namespace');
    assert.equal(await clientA.digestOf(SKILL, FILE), served, 'the old catalog is still served');
    assert.equal((await clientA.call('skills/list', {})).skills.length, 3);
  } finally {
    await admin.query(`ALTER DATABASE ${pg.escapeIdentifier(database)} ALLOW_CONNECTIONS true`);
  }
  const content = '# Approved refund\n\nThe database is back.\n';
  const since = clientA.changes;
  await write(content);
  await clientA.changed(since);
  assert.equal(await clientA.digestOf(SKILL, FILE), sha256(content));
});

test('every connection of a running server terminated: it recovers on its own and serves the next change within 10 s', { skip }, async (t) => {
  const mark = serverA.stderr().length;
  const killed = await terminate(appA, { listening: true });
  assert.ok(killed >= 1, 'the server had connections to terminate');
  await serverA.waitForStderr(/warning: .*LISTEN .*connection lost/, LIVE_PATIENCE_MS, mark);

  const content = '# Approved refund\n\nAfter every connection was terminated.\n';
  const since = clientA.changes;
  const started = Date.now();
  await write(content);
  await clientA.changed(since);
  t.diagnostic(`served ${Date.now() - started} ms after the write`);
  assert.equal(await clientA.digestOf(SKILL, FILE), sha256(content));
  await waitFor(
    async () => (await admin.query('SELECT 1 FROM pg_stat_activity WHERE application_name = $1 AND query ILIKE $2', [appA, 'LISTEN%'])).rowCount === 1,
    'the server to LISTEN again',
    LIVE_PATIENCE_MS,
  );
});

test('PostgreSQL restarted under a running server: it recovers on its own and serves the next change', { skip }, async (t) => {
  const mark = serverA.stderr().length;
  await db.restart!();
  await serverA.waitForStderr(/warning: .*LISTEN .*(connection lost|cannot connect)/, LIVE_PATIENCE_MS, mark);
  await writer.end().catch(() => undefined);
  await connectWriter();

  const content = '# Approved refund\n\nAfter a restart of PostgreSQL.\n';
  const [a, b] = [clientA.changes, clientB.changes];
  const started = Date.now();
  await write(content);
  await Promise.all([clientA.changed(a), clientB.changed(b)]);
  t.diagnostic(`both servers served the change ${Date.now() - started} ms after the write`);
  assert.equal(await clientA.digestOf(SKILL, FILE), sha256(content));
  assert.equal(await clientB.digestOf(SKILL, FILE), sha256(content));
});
