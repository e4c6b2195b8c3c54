import pg from 'pg';
import { OptionError } from '@skillmount/core/catalog';

export const PACKAGE = '@skillmount/storage-postgres';
export const DEFAULT_TABLE = 'skillmount_files';

/** SQL names derived from the table option, quoted and ready to place in statements. */
export interface TableNames {
  /** The option as given, for messages. */
  display: string;
  /** `"schema"."name"` or `"name"`. */
  table: string;
  /** The schema when the option names one. */
  schema: string | undefined;
  /** The trigger function, in the table's schema. */
  notifyFunction: string;
  /** The bare name of the generation table (`<name>_gen`), created in the table's schema. */
  generations: string;
  /** The bare name of the function the generation triggers run (`<name>_bump`). */
  bumpFunction: string;
  /** Channel name as text (for `pg_notify` and message filtering); `<name>_changed`. */
  channel: string;
  /** The channel quoted as an identifier (for `LISTEN`). */
  channelIdentifier: string;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
// PostgreSQL identifiers hold 63 bytes; the derived names add at most "_changed" (8; "_gen", "_bump", "_notify" are shorter).
const MAX_TABLE_NAME = 55;
const MAX_SCHEMA_NAME = 63;

/**
 * Check the table option and derive every name from it. Names are quoted as written, so
 * `Skills` and `skills` are different tables. The channel depends on the table name only, so
 * `skillmount_files` and `public.skillmount_files` agree on it.
 */
export function tableNames(option: unknown, packageName = PACKAGE): TableNames {
  if (option === undefined) option = DEFAULT_TABLE;
  if (typeof option !== 'string') throw new OptionError('invalid-type', 'table', 'must be a string such as "skillmount_files" or "skills.files"', packageName);
  const parts = option.split('.');
  const [schema, name] = parts.length === 2 ? [parts[0]!, parts[1]!] : [undefined, parts[0]!];
  const valid =
    parts.length <= 2 &&
    IDENTIFIER.test(name) &&
    name.length <= MAX_TABLE_NAME &&
    (schema === undefined || (IDENTIFIER.test(schema) && schema.length <= MAX_SCHEMA_NAME));
  if (!valid) {
    throw new OptionError(
      'invalid-value',
      'table',
      `must be a table name, "name" or "schema.name", where each part starts with a letter or "_" and holds ` +
        `only letters, digits and "_" (the name at most ${MAX_TABLE_NAME} characters); got ${JSON.stringify(option)}`,
      packageName,
    );
  }
  const qualify = (identifier: string) =>
    schema === undefined ? pg.escapeIdentifier(identifier) : `${pg.escapeIdentifier(schema)}.${pg.escapeIdentifier(identifier)}`;
  const channel = `${name}_changed`;
  return {
    display: option,
    table: qualify(name),
    schema,
    notifyFunction: qualify(`${name}_notify`),
    generations: `${name}_gen`,
    bumpFunction: `${name}_bump`,
    channel,
    channelIdentifier: pg.escapeIdentifier(channel),
  };
}

/** Which of `expected` the table `table` (a quoted name, as in `TableNames`) has no column for. */
export async function missingColumns(client: pg.PoolClient, table: string, expected: readonly string[]): Promise<string[]> {
  const { rows } = await client.query<{ attname: string }>(
    'SELECT attname FROM pg_attribute WHERE attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped',
    [table],
  );
  return expected.filter((column) => !rows.some((row) => row.attname === column));
}
