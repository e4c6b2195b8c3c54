import type { Pool } from 'pg';
import {
  isPlainPath,
  isPlainSegment,
  isSkillMdPath,
  type ListAllOptions,
  type SkillFileEntry,
  type SkillFileListing,
  type SkillFileReadOptions,
} from '@skillmount/core/storage-kit';
import { queryError, storageError, type Scope } from './errors.js';

/** One namespace of one table: what every statement below runs against. */
export interface Rows {
  pool: Pool;
  namespace: string;
  scope: Scope;
  sql: Statements;
}

export type Statements = ReturnType<typeof statements>;

interface FileRow {
  path: string;
  size: number;
  sha256: string;
}

interface ChildRow {
  name: string;
  folder: boolean;
  size: number;
  sha256: string;
}

// SKILL.md bodies fetched with the listing, this many paths per query.
const SKILL_MD_BATCH = 1000;

/** `maxBytes` when it is a byte count; anything else bounds nothing. */
const byteCount = (n: unknown): number | undefined => (typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined);

/** Every statement the storage runs, for one quoted table name. Every value travels as a bound parameter. */
export function statements(t: string) {
  return {
    listAll: `SELECT path, size, sha256 FROM ${t} WHERE namespace = $1`,
    // Direct children of a folder, grouped by first segment below it. The bytewise range
    // (path > 'dir/' AND path < 'dir0', as '0' follows '/') is served by the primary key, whose
    // path column sorts bytewise; the explicit COLLATE keeps it correct on any table.
    listRoot: childrenQuery(t, `namespace = $1`, `path`),
    listDir: childrenQuery(t, `namespace = $1 AND path COLLATE "C" > $2 AND path COLLATE "C" < $3`, `substr(path, char_length($2) + 1)`),
    read: `SELECT content FROM ${t} WHERE namespace = $1 AND path = $2`,
    // The stored size decides before any byte is fetched: a row over the limit sends its size only.
    readAtMost: `SELECT size, CASE WHEN size <= $3::bigint THEN content END AS content FROM ${t} WHERE namespace = $1 AND path = $2`,
    readMany: `SELECT path, sha256, content FROM ${t} WHERE namespace = $1 AND path = ANY($2::text[])`,
    put: `INSERT INTO ${t} AS f (namespace, path, content) VALUES ($1, $2, $3)
      ON CONFLICT (namespace, path) DO UPDATE SET content = EXCLUDED.content, updated_at = now()
      WHERE f.content IS DISTINCT FROM EXCLUDED.content`,
    remove: `DELETE FROM ${t} WHERE namespace = $1 AND path = $2`,
  };
}

/**
 * Direct children of a folder, one row per name. Rows with an empty, "." or ".." segment are left
 * out: no entry name could stand for them, and a walk must not enter them (`listAll` reports them
 * as unsupported, so a catalog warns). A backslash in a name comes back as unsupported.
 */
function childrenQuery(table: string, where: string, rest: string): string {
  return `SELECT split_part(rest, '/', 1) AS name, strpos(rest, '/') > 0 AS folder, min(size) AS size, min(sha256) AS sha256
    FROM (SELECT ${rest} AS rest, size, sha256 FROM ${table} WHERE ${where} AND path !~ '(^|/)[.]{0,2}(/|$)') AS below
    GROUP BY 1, 2`;
}

/** A path refused before any query runs. */
export const refuse = (scope: Scope, action: string, path: unknown) =>
  storageError(scope, action, String(path), 'not a relative path of plain segments ("/"-separated, no empty, "." or ".." segment, no backslash or NUL)');

/** A plain Uint8Array view, not a Buffer: callers compare and hash bytes, nothing else. */
const view = (content: Buffer): Uint8Array => new Uint8Array(content.buffer, content.byteOffset, content.byteLength);

/** Every file of the namespace, with the SKILL.md bodies the caller does not hold yet. */
export async function listAllFiles({ pool, namespace, scope, sql }: Rows, options?: ListAllOptions): Promise<SkillFileListing[]> {
  let rows: FileRow[];
  try {
    ({ rows } = await pool.query<FileRow>(sql.listAll, [namespace]));
  } catch (error) {
    throw queryError(scope, 'cannot list', '', error);
  }
  const listing = rows.map(
    (row): SkillFileListing =>
      isPlainPath(row.path) ? { path: row.path, kind: 'file', token: row.sha256, size: row.size, digest: row.sha256 } : { path: row.path, kind: 'unsupported' },
  );
  // A catalog parses every SKILL.md: bring the bodies it does not hold yet along, in a few queries
  // instead of one read each.
  const known = typeof options?.known === 'function' ? options.known : undefined;
  const wanted = new Map<string, SkillFileListing>();
  for (const item of listing) if (item.kind === 'file' && isSkillMdPath(item.path) && known?.(item.path) !== item.token) wanted.set(item.path, item);
  const paths = [...wanted.keys()];
  for (let i = 0; i < paths.length; i += SKILL_MD_BATCH) {
    let bodies: { path: string; sha256: string; content: Buffer }[];
    try {
      ({ rows: bodies } = await pool.query<{ path: string; sha256: string; content: Buffer }>(sql.readMany, [namespace, paths.slice(i, i + SKILL_MD_BATCH)]));
    } catch (error) {
      throw queryError(scope, 'cannot read', paths[i]!, error);
    }
    for (const body of bodies) {
      const item = wanted.get(body.path)!;
      // Written since the listing: left without bytes, so the catalog reads it like any other.
      if (body.sha256 === item.digest) item.content = view(body.content);
    }
  }
  return listing;
}

/** One folder's direct children. */
export async function listChildren({ pool, namespace, scope, sql }: Rows, dir: string): Promise<SkillFileEntry[]> {
  if (dir !== '' && !isPlainPath(dir)) throw refuse(scope, 'cannot list', dir);
  let rows: ChildRow[];
  try {
    ({ rows } =
      dir === '' ? await pool.query<ChildRow>(sql.listRoot, [namespace]) : await pool.query<ChildRow>(sql.listDir, [namespace, `${dir}/`, `${dir}0`]));
  } catch (error) {
    throw queryError(scope, 'cannot list', dir, error);
  }
  if (rows.length === 0 && dir !== '') throw storageError(scope, 'cannot list', dir, 'no such folder (no file path starts with it)');
  const entries: SkillFileEntry[] = [];
  for (const row of rows) {
    if (!isPlainSegment(row.name)) entries.push({ name: row.name, kind: 'unsupported' });
    else if (row.folder) entries.push({ name: row.name, kind: 'directory' });
    else entries.push({ name: row.name, kind: 'file', token: row.sha256, size: row.size, digest: row.sha256 });
  }
  return entries;
}

/** One file's bytes; with `maxBytes`, a row stored larger is refused without fetching its content. */
export async function readFile({ pool, namespace, scope, sql }: Rows, path: string, options?: SkillFileReadOptions): Promise<Uint8Array> {
  if (!isPlainPath(path)) throw refuse(scope, 'cannot read', path);
  const maxBytes = byteCount(options?.maxBytes);
  let rows: { content: Buffer | null; size?: number }[];
  try {
    ({ rows } =
      maxBytes === undefined
        ? await pool.query<{ content: Buffer }>(sql.read, [namespace, path])
        : await pool.query<{ content: Buffer | null; size: number }>(sql.readAtMost, [namespace, path, maxBytes]));
  } catch (error) {
    throw queryError(scope, 'cannot read', path, error);
  }
  const row = rows[0];
  if (row === undefined) throw storageError(scope, 'cannot read', path, 'no such file');
  const content = row.content;
  if (content === null) {
    throw storageError(
      scope,
      'cannot read',
      path,
      `it is ${row.size} bytes, more than the ${maxBytes} it was listed with (it was replaced since), so it was not fetched; ` +
        'reload the catalog (a watch does it on the change notification) to publish the new file',
      undefined,
      'too-large',
    );
  }
  return view(content);
}

/** Write one file; true when its content changed. */
export async function putFile({ pool, namespace, scope, sql }: Rows, path: string, content: string | Uint8Array): Promise<boolean> {
  if (!isPlainPath(path)) throw refuse(scope, 'cannot write', path);
  const bytes =
    typeof content === 'string'
      ? Buffer.from(content, 'utf8')
      : content instanceof Uint8Array
        ? Buffer.from(content.buffer, content.byteOffset, content.byteLength)
        : undefined;
  if (bytes === undefined) throw new TypeError(`put("${path}", content) needs a string or Uint8Array`);
  try {
    const { rowCount } = await pool.query(sql.put, [namespace, path, bytes]);
    return (rowCount ?? 0) > 0;
  } catch (error) {
    throw queryError(scope, 'cannot write', path, error);
  }
}

/** Delete one file; true when there was one. */
export async function removeFile({ pool, namespace, scope, sql }: Rows, path: string): Promise<boolean> {
  if (!isPlainPath(path)) throw refuse(scope, 'cannot delete', path);
  try {
    const { rowCount } = await pool.query(sql.remove, [namespace, path]);
    return (rowCount ?? 0) > 0;
  } catch (error) {
    throw queryError(scope, 'cannot delete', path, error);
  }
}
