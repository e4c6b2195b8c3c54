import pg from 'pg';
import { postgresStorage } from '@skillmount/storage-postgres';
import { startPostgres, type TestPostgres } from '../../test/support/postgres.js';
import { fileBytes, type CorpusFile, type CorpusSize } from '../corpus.js';
import type { SeededStore, StoreKind } from './store.js';

const BATCH = 1000;

/** Corpora as namespaces of one table (`DATABASE_URL`, else a private embedded server). */
export async function postgresStores(): Promise<StoreKind> {
  const server: TestPostgres = await startPostgres();
  const pool = new pg.Pool({ connectionString: server.connectionString, max: 10 });
  pool.on('error', () => undefined); // an idle client dropped by the server: the pool replaces it
  const table = `bench_files_${process.pid}`;
  const setup = postgresStorage({ pool, table });
  await setup.migrate();
  let namespaces = 0;

  const put = async (namespace: string, size: CorpusSize, files: readonly CorpusFile[], version: number) => {
    for (let i = 0; i < files.length; i += BATCH) {
      const batch = files.slice(i, i + BATCH);
      await pool.query(
        `INSERT INTO ${table} AS f (namespace, path, content) SELECT $1, p, c FROM unnest($2::text[], $3::bytea[]) AS u(p, c)
         ON CONFLICT (namespace, path) DO UPDATE SET content = EXCLUDED.content, updated_at = now()`,
        [namespace, batch.map((f) => f.path), batch.map((f) => Buffer.from(fileBytes(size, f.path, version)))],
      );
    }
  };

  return {
    kind: 'PostgreSQL',
    connectionString: server.connectionString,
    async seed(size, files) {
      const namespace = `bench-${namespaces++}`;
      await put(namespace, size, files, 0);
      await pool.query(`ANALYZE ${table}`);
      const store: SeededStore = {
        kind: 'PostgreSQL',
        size,
        files,
        served: { postgres: { connectionString: server.connectionString, table, namespace } },
        cli: { location: `${server.connectionString}#${encodeURIComponent(namespace)}`, args: ['--table', table], env: {} },
        // One pool for every adapter, as an app would share it; the adapters never end it.
        adapter: () => postgresStorage({ pool, table, namespace }),
        rewrite: (changed, version) => put(namespace, size, changed, version),
        release: async (adapter) => {
          await adapter.close?.();
        },
        remove: async () => {
          await pool.query(`DELETE FROM ${table} WHERE namespace = $1`, [namespace]);
        },
      };
      return store;
    },
    async stop() {
      await pool.query(`DROP TABLE IF EXISTS ${table}`);
      await pool.query(`DROP FUNCTION IF EXISTS ${table}_notify() CASCADE`).catch(() => undefined);
      await pool.query(`DROP TABLE IF EXISTS ${table}_gen`).catch(() => undefined);
      await pool.query(`DROP FUNCTION IF EXISTS ${table}_bump() CASCADE`).catch(() => undefined);
      await pool.end();
      await server.stop();
    },
  };
}
