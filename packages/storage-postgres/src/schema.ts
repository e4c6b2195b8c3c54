import pg from 'pg';
import { StorageError } from '@skillmount/core/storage-kit';
import { migrateGenerations } from './generations.js';
import { missingColumns, PACKAGE, type TableNames } from './table.js';

const COLUMNS = ['namespace', 'path', 'content', 'size', 'sha256', 'updated_at'];
const ROW_TRIGGER = 'skillmount_notify';
const TRUNCATE_TRIGGER = 'skillmount_notify_truncate';

/**
 * The statements `migrate()` runs, in order. Size and digest are computed by the database from the
 * stored bytes (so a storage can vouch for them without reading bodies); `path` sorts bytewise
 * (COLLATE "C"), which lets the primary key serve prefix ranges for `list(dir)` directly.
 */
export function schemaStatements(names: TableNames): { table: string; notifyFunction: string; rowTrigger: string; truncateTrigger: string } {
  const channel = pg.escapeLiteral(names.channel);
  // Payloads are capped at 8000 bytes by PostgreSQL; a longer namespace notifies everyone ('*').
  const payload = (row: string) => `CASE WHEN octet_length(${row}.namespace) < 7000 THEN ${row}.namespace ELSE '*' END`;
  return {
    table: `CREATE TABLE IF NOT EXISTS ${names.table} (
  namespace text COLLATE "C" NOT NULL DEFAULT '',
  path text COLLATE "C" NOT NULL,
  content bytea NOT NULL,
  size integer GENERATED ALWAYS AS (octet_length(content)) STORED,
  sha256 text GENERATED ALWAYS AS ('sha256:' || encode(sha256(content), 'hex')) STORED,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (namespace, path)
)`,
    notifyFunction: `CREATE OR REPLACE FUNCTION ${names.notifyFunction}() RETURNS trigger LANGUAGE plpgsql AS $skillmount$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify(${channel}, '*');
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_notify(${channel}, ${payload('OLD')});
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_notify(${channel}, ${payload('NEW')});
  END IF;
  RETURN NULL;
END
$skillmount$`,
    rowTrigger: `CREATE TRIGGER ${ROW_TRIGGER} AFTER INSERT OR UPDATE OR DELETE ON ${names.table} FOR EACH ROW EXECUTE FUNCTION ${names.notifyFunction}()`,
    truncateTrigger: `CREATE TRIGGER ${TRUNCATE_TRIGGER} AFTER TRUNCATE ON ${names.table} FOR EACH STATEMENT EXECUTE FUNCTION ${names.notifyFunction}()`,
  };
}

/**
 * Create the schema (when named and missing), the table, the notify function and its triggers,
 * the generation table and its triggers (generations.ts), in one transaction under an advisory
 * lock, so concurrent runs (replicas starting together) wait for each other instead of racing on
 * the catalog. Idempotent.
 */
export async function runMigration(pool: pg.Pool, names: TableNames): Promise<void> {
  const sql = schemaStatements(names);
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw migrateError(names, 'cannot connect', error);
  }
  // A connection whose ROLLBACK failed is discarded rather than returned to the pool.
  let broken = false;
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`skillmount migrate ${names.table}`]);
    if (names.schema !== undefined) {
      const { rowCount } = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [names.schema]);
      // Checked first: CREATE SCHEMA IF NOT EXISTS still needs the CREATE privilege on the database.
      if (rowCount === 0) await client.query(`CREATE SCHEMA IF NOT EXISTS ${pg.escapeIdentifier(names.schema)}`);
    }
    await client.query(sql.table);
    const missing = await missingColumns(client, names.table, COLUMNS);
    if (missing.length > 0) {
      throw new Error(`the table exists but lacks the column${missing.length === 1 ? '' : 's'} ${missing.join(', ')}; use another table name or add them`);
    }
    await client.query(sql.notifyFunction);
    const { rows: triggers } = await client.query<{ tgname: string }>('SELECT tgname FROM pg_trigger WHERE tgrelid = to_regclass($1) AND NOT tgisinternal', [
      names.table,
    ]);
    const has = (name: string) => triggers.some((t) => t.tgname === name);
    if (!has(ROW_TRIGGER)) await client.query(sql.rowTrigger);
    if (!has(TRUNCATE_TRIGGER)) await client.query(sql.truncateTrigger);
    const existing = triggers.map((t) => t.tgname);
    await migrateGenerations(client, names, existing);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {
      broken = true;
    });
    throw migrateError(names, 'failed', error);
  } finally {
    client.release(broken);
  }
}

function migrateError(names: TableNames, what: string, error: unknown): StorageError {
  const reason = (error as Error)?.message ?? String(error);
  return new StorageError(`${PACKAGE}: migrate() of table ${names.display} ${what}: ${reason}`, '', { cause: error });
}
