/**
 * Shared pieces for the PostgreSQL storage tests: one server per test file, pools that count
 * their queries, a per-file table, and waiting for callbacks with a deadline.
 */
import type pg from 'pg';
import { migrate, type PostgresStorage } from '@skillmount/storage-postgres';
import { dropMigrated, startPostgres, testPool, type TestPostgres, uniqueName } from '../support/postgres.js';

export const text = (s: string) => new TextEncoder().encode(s);

export interface CountingPool {
  pool: pg.Pool;
  /** SQL text and parameters of every `pool.query` call since the last `reset()`. */
  queries: { text: string; values: unknown[] }[];
  reset(): void;
}

/** A pool whose `query` calls are recorded, so a test can count what a storage asks for. */
export function countingPool(connectionString: string): CountingPool {
  const pool = testPool(connectionString);
  const queries: CountingPool['queries'] = [];
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  (pool as { query: unknown }).query = (...args: unknown[]) => {
    queries.push({ text: String(args[0]), values: (args[1] as unknown[]) ?? [] });
    return query(...args);
  };
  return { pool, queries, reset: () => void queries.splice(0) };
}

/** The database for this test file, an admin pool, and a fresh migrated table dropped at the end. */
export async function setup(
  prefix: string,
  options: { own?: boolean } = {},
): Promise<{ db: TestPostgres; admin: pg.Pool; table: string; teardown(): Promise<void> }> {
  const db = await startPostgres(options);
  const admin = testPool(db.connectionString, 2);
  const table = uniqueName(prefix);
  await migrate(admin, { table });
  return {
    db,
    admin,
    table,
    async teardown() {
      await dropMigrated(admin, table).catch(() => undefined);
      await admin.end();
      await db.stop();
    },
  };
}

/** Store a tree of files through the storage's own `put`. */
export async function putTree(storage: PostgresStorage, files: Record<string, string | Uint8Array>): Promise<void> {
  await Promise.all(Object.entries(files).map(([path, content]) => storage.put(path, content)));
}
