import type { Pool } from 'pg';
import { tableError, type Scope } from './errors.js';
import { listen } from './listen.js';
import { normalizeOptions } from './options.js';
import { listAllFiles, listChildren, putFile, readFile, removeFile, type Rows, statements } from './queries.js';
import { runMigration } from './schema.js';
import { PACKAGE, tableNames } from './table.js';
import { treeTokens } from './tree-token.js';
import type { MigrateOptions, PostgresStorage, PostgresStorageOptions } from './types.js';

/**
 * A PostgreSQL table as skill storage. Each namespace is its own tree of rows
 * `(namespace, path, content, size, sha256, updated_at)`; `size` and `sha256` are computed by the
 * database, so a catalog load is two queries: the listing, and the SKILL.md bodies that changed
 * (`listAll`); a reload with nothing changed is one, the namespace's generation (`treeToken`).
 * Every value travels as a bound parameter. Rows whose path is not a plain relative path are
 * reported as `unsupported` and never read.
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * import { SkillCatalog } from '@skillmount/core';
 * import { postgresStorage } from '@skillmount/storage-postgres';
 *
 * const storage = postgresStorage({ pool: new pg.Pool({ connectionString: process.env.DATABASE_URL }), namespace: 'acme' });
 * await storage.migrate(); // once per database; safe to repeat
 * const catalog = await SkillCatalog.load(storage);
 * catalog.watch(); // LISTEN/NOTIFY
 * ```
 * @throws {@link @skillmount/core!OptionError | OptionError} when an option is invalid (neither or both of `pool` and `connectionString`,
 * a `table` that is not a valid name…).
 * @throws {@link @skillmount/core!StorageError | StorageError} from its methods (the promises reject) when a query fails.
 */
export function postgresStorage(options: PostgresStorageOptions): PostgresStorage {
  const { pool, ownsPool, names, namespace, debounceMs, onError } = normalizeOptions(options);
  const scope: Scope = { display: names.display, namespace };
  const rows: Rows = { pool, namespace, scope, sql: statements(names.table) };
  const tokens = treeTokens(rows, names, onError);

  // An idle client of a pool we created can fail (server restart); unhandled, that would crash.
  if (ownsPool) pool.on('error', (error) => onError(tableError(scope, `an idle pooled connection failed (${error.message}); the pool replaces it`, error)));

  const watchers = new Set<() => Promise<void>>();
  let closed: Promise<void> | undefined;

  return {
    pool,
    table: names.display,
    namespace,
    kind: 'postgres',
    label: `PostgreSQL table ${names.display}, namespace ${JSON.stringify(namespace)}`,
    channel: names.channel,

    listAll: (options) => listAllFiles(rows, options),
    list: (dir) => listChildren(rows, dir),
    read: (path, options) => readFile(rows, path, options),
    treeToken: () => tokens.read(),

    watch(onChange) {
      if (closed) throw tableError(scope, 'cannot watch: the storage is closed');
      if (typeof onChange !== 'function') throw new TypeError('watch(onChange) needs a function');
      const stop = listen({ connection: (pool as Pool).options, names, scope, debounceMs, onError }, onChange);
      watchers.add(stop);
      return () => {
        watchers.delete(stop);
        void stop();
      };
    },

    close() {
      closed ??= (async () => {
        const stopping = [...watchers].map((stop) => stop());
        watchers.clear();
        await Promise.all(stopping);
        if (ownsPool) await pool.end();
      })();
      return closed;
    },

    async migrate() {
      await runMigration(pool, names);
      tokens.reset();
    },

    put: (path, content) => putFile(rows, path, content),
    remove: (path) => removeFile(rows, path),
  };
}

/**
 * Create the table, its triggers and the generation table on a pool you own, e.g. from a deploy script.
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * import { migrate } from '@skillmount/storage-postgres';
 *
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * await migrate(pool, { table: 'skills.files' });
 * await pool.end();
 * ```
 * @throws TypeError when `pool` is not a `pg.Pool`.
 * @throws {@link @skillmount/core!OptionError | OptionError} when `table` is not a valid table name.
 * @throws {@link @skillmount/core!StorageError | StorageError} (the promise rejects) when the database cannot be reached, or the table exists
 * without the columns the storage needs.
 */
export async function migrate(pool: Pool, options: MigrateOptions = {}): Promise<void> {
  if (pool === null || typeof pool !== 'object' || typeof pool.connect !== 'function') {
    throw new TypeError('@skillmount/storage-postgres: migrate(pool, options) needs a pg.Pool');
  }
  await runMigration(pool, tableNames(options?.table, `${PACKAGE}: migrate()`));
}
