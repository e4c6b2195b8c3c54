import pg from 'pg';
import { missingColumns, type TableNames } from './table.js';

/** The statement-level triggers that keep the generation table, by the event each one handles. */
export const GENERATION_TRIGGERS = {
  insert: 'skillmount_gen_insert',
  update: 'skillmount_gen_update',
  delete: 'skillmount_gen_delete',
  truncate: 'skillmount_gen_truncate',
} as const;

const GENERATION_COLUMNS = ['namespace', 'generation'];

/** Where the generation table and its function live: the schema the files table is in. */
export interface GenerationNames {
  /** `"schema"."<name>_gen"`. */
  table: string;
  /** `"schema"."<name>_bump"`. */
  bumpFunction: string;
}

export function generationNames(names: TableNames, schema: string): GenerationNames {
  const qualify = (name: string) => `${pg.escapeIdentifier(schema)}.${pg.escapeIdentifier(name)}`;
  return { table: qualify(names.generations), bumpFunction: qualify(names.bumpFunction) };
}

/**
 * The generation table, its function and triggers. One row per namespace, bumped by the statement
 * that writes it, in its transaction: readers see the new generation exactly when they see the rows.
 * The triggers run once per statement over its transition tables, so a statement writing 40,000 rows
 * of a namespace bumps its counter once. The function runs as its owner (the role that migrated),
 * so a role allowed to write the files table needs no grant on the generation table.
 */
export function generationStatements(names: TableNames, gen: GenerationNames) {
  // Namespaces in order, so two statements bumping the same namespaces lock their counters in the same order.
  const bump = (namespaces: string) => `INSERT INTO ${gen.table} AS g (namespace, generation)
      SELECT DISTINCT namespace COLLATE "C", 1 FROM (${namespaces}) AS written ORDER BY 1
      ON CONFLICT (namespace) DO UPDATE SET generation = g.generation + 1;`;
  const trigger = (name: string, event: string, transition: string) =>
    `CREATE TRIGGER ${name} AFTER ${event} ON ${names.table}${transition} FOR EACH STATEMENT EXECUTE FUNCTION ${gen.bumpFunction}()`;
  return {
    table: `CREATE TABLE IF NOT EXISTS ${gen.table} (
  namespace text COLLATE "C" PRIMARY KEY,
  generation bigint NOT NULL
)`,
    bumpFunction: `CREATE OR REPLACE FUNCTION ${gen.bumpFunction}() RETURNS trigger LANGUAGE plpgsql
SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $skillmount$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE ${gen.table} SET generation = generation + 1;
  ELSIF TG_OP = 'INSERT' THEN
    ${bump('SELECT namespace FROM skillmount_new')}
  ELSIF TG_OP = 'UPDATE' THEN
    ${bump('SELECT namespace FROM skillmount_old UNION ALL SELECT namespace FROM skillmount_new')}
  ELSE
    ${bump('SELECT namespace FROM skillmount_old')}
  END IF;
  RETURN NULL;
END
$skillmount$`,
    // Only ever run as a trigger; nobody needs to attach it elsewhere.
    revoke: `REVOKE ALL ON FUNCTION ${gen.bumpFunction}() FROM PUBLIC`,
    triggers: {
      [GENERATION_TRIGGERS.insert]: trigger(GENERATION_TRIGGERS.insert, 'INSERT', ' REFERENCING NEW TABLE AS skillmount_new'),
      [GENERATION_TRIGGERS.update]: trigger(GENERATION_TRIGGERS.update, 'UPDATE', ' REFERENCING OLD TABLE AS skillmount_old NEW TABLE AS skillmount_new'),
      [GENERATION_TRIGGERS.delete]: trigger(GENERATION_TRIGGERS.delete, 'DELETE', ' REFERENCING OLD TABLE AS skillmount_old'),
      [GENERATION_TRIGGERS.truncate]: trigger(GENERATION_TRIGGERS.truncate, 'TRUNCATE', ''),
    } as Record<string, string>,
    // Writes made while the triggers were missing went uncounted: every namespace gets a new generation.
    catchUp: [
      `UPDATE ${gen.table} SET generation = generation + 1`,
      `INSERT INTO ${gen.table} (namespace, generation) SELECT DISTINCT namespace COLLATE "C", 1 FROM ${names.table} ON CONFLICT (namespace) DO NOTHING`,
    ],
  };
}

/**
 * The generation part of `migrate()`, inside its transaction (so under its advisory lock, and with
 * the files table locked against writes from the first CREATE TRIGGER on). Creates what is missing;
 * when the table or a trigger was missing, writes may have gone uncounted, so every namespace is bumped.
 */
export async function migrateGenerations(client: pg.PoolClient, names: TableNames, triggers: readonly string[]): Promise<void> {
  const { rows } = await client.query<{ schema: string }>(
    'SELECT n.nspname AS schema FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = to_regclass($1)',
    [names.table],
  );
  const gen = generationNames(names, rows[0]!.schema);
  const sql = generationStatements(names, gen);
  const { rows: existing } = await client.query<{ found: boolean }>('SELECT to_regclass($1) IS NOT NULL AS found', [gen.table]);
  await client.query(sql.table);
  const missing = await missingColumns(client, gen.table, GENERATION_COLUMNS);
  if (missing.length > 0) {
    throw new Error(
      `the generation table ${gen.table} exists but lacks the column${missing.length === 1 ? '' : 's'} ${missing.join(', ')}; drop it (migrate() recreates it)`,
    );
  }
  await client.query(sql.bumpFunction);
  await client.query(sql.revoke);
  let created = !existing[0]!.found;
  for (const [name, statement] of Object.entries(sql.triggers)) {
    if (triggers.includes(name)) continue;
    await client.query(statement);
    created = true;
  }
  if (created) for (const statement of sql.catchUp) await client.query(statement);
}
