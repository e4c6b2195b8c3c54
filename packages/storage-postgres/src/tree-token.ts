import pg from 'pg';
import type { StorageError } from '@skillmount/core/storage-kit';
import { queryError, tableError } from './errors.js';
import { GENERATION_TRIGGERS } from './generations.js';
import type { Rows } from './queries.js';
import type { TableNames } from './table.js';

/** How long a table found without its generation table (or without the grant to read it) is not asked again. */
export const RECHECK_MS = 60_000;

export interface TreeTokens {
  /** The namespace's change token, or undefined when this table cannot tell (see `read`). */
  read(): Promise<string | undefined>;
  /** Forget what was found about the table (after `migrate()`), so the next `read` looks again. */
  reset(): void;
}

/**
 * Finds the generation table beside the files table without failing when it is missing, so a table
 * migrated by an earlier version costs no server-side error per reload: `"schema"."<name>_gen"` or none.
 */
const FIND = `SELECT format('%I.%I', n.nspname, $2::text) AS generations FROM pg_catalog.pg_namespace n
  WHERE n.oid = (SELECT relnamespace FROM pg_catalog.pg_class WHERE oid = pg_catalog.to_regclass($1))
    AND EXISTS (SELECT 1 FROM pg_catalog.pg_class g WHERE g.relnamespace = n.oid AND g.relname = $2::text)`;

/**
 * One round trip: how many of the generation triggers are there and fire on ordinary writes (a
 * missing or disabled one means writes go uncounted), the generation table's OID (a recreated table
 * starts counting again) and the namespace's generation (no row yet: never written since migration).
 */
function tokenQuery(table: string, generations: string): string {
  const names = Object.values(GENERATION_TRIGGERS)
    .map((name) => pg.escapeLiteral(name))
    .join(', ');
  return `SELECT (SELECT count(*)::int FROM pg_catalog.pg_trigger WHERE tgrelid = ${pg.escapeLiteral(table)}::regclass
      AND tgname IN (${names}) AND tgenabled IN ('O', 'A')) AS triggers,
    ${pg.escapeLiteral(generations)}::regclass::oid::text AS relation,
    (SELECT generation::text FROM ${generations} WHERE namespace = $1) AS generation`;
}

const TRIGGER_COUNT = Object.keys(GENERATION_TRIGGERS).length;

/**
 * The tree token of one namespace: `<generation table OID>:<generation>`, read in one query. A table
 * without the generation table or its triggers (migrated by an earlier version, or made by hand)
 * resolves undefined, so a reload lists as before; that finding is kept for `RECHECK_MS` or until
 * `reset()`. Any other failure throws a StorageError naming the table and namespace.
 */
export function treeTokens({ pool, namespace, scope }: Rows, names: TableNames, onError: (error: StorageError) => void): TreeTokens {
  let query: string | undefined;
  let generations = '';
  let unknownUntil = 0;
  let warned = false;
  // One rule for failed queries in this package: a refused connection reads as a listing's would.
  const failed = (error: unknown) => queryError(scope, 'cannot read the tree token of', '', error);

  const find = async (): Promise<string | undefined> => {
    try {
      const { rows } = await pool.query<{ generations: string }>(FIND, [names.table, names.generations]);
      return rows[0]?.generations;
    } catch (error) {
      throw failed(error);
    }
  };

  return {
    async read() {
      if (query === undefined) {
        if (Date.now() < unknownUntil) return undefined;
        const found = await find();
        if (found === undefined) {
          unknownUntil = Date.now() + RECHECK_MS;
          return undefined;
        }
        generations = found;
        query = tokenQuery(names.table, generations);
      }
      let row: { triggers: number; relation: string; generation: string | null } | undefined;
      try {
        ({
          rows: [row],
        } = await pool.query<{ triggers: number; relation: string; generation: string | null }>(query, [namespace]));
      } catch (error) {
        const code = (error as { code?: unknown })?.code;
        // Dropped since it was found: look for it again next time.
        if (code === '42P01') {
          query = undefined;
          return undefined;
        }
        if (code === '42501') {
          query = undefined;
          unknownUntil = Date.now() + RECHECK_MS;
          if (!warned) {
            warned = true;
            const grant = `GRANT SELECT ON ${generations} TO <this role>`;
            onError(tableError(scope, `treeToken: ${(error as Error).message}; every reload lists the whole namespace until you run ${grant}`, error));
          }
          return undefined;
        }
        throw failed(error);
      }
      if (row === undefined || row.triggers !== TRIGGER_COUNT) return undefined;
      return `${row.relation}:${row.generation ?? '0'}`;
    },
    reset() {
      query = undefined;
      unknownUntil = 0;
    },
  };
}
