import type { Pool } from 'pg';
import { isPlainPath, isPlainSegment, isSkillMdPath, type SkillFileEntry, type SkillFileListing } from '@skillmount/core/storage-kit';
import { queryError, storageError, tableError, type Scope } from './errors.js';
import { listen } from './listen.js';
import { normalizeOptions } from './options.js';
import { runMigration } from './schema.js';
import { PACKAGE, tableNames } from './table.js';
import type { MigrateOptions, PostgresStorage, PostgresStorageOptions } from './types.js';

interface FileRow {
  path: string;
  size: number;
  sha256: string;
}

// SKILL.md bodies fetched with the listing, this many paths per query.
const SKILL_MD_BATCH = 1000;

interface ChildRow {
  name: string;
  folder: boolean;
  size: number;
  sha256: string;
}

/**
 * A PostgreSQL table as skill storage. Each namespace is its own tree of rows
 * `(namespace, path, content, size, sha256, updated_at)`; `size` and `sha256` are computed by the
 * database, so a catalog load is two queries: the listing, and the SKILL.md bodies that changed
 * (`listAll`). Every value
 * travels as a bound parameter. Rows whose path is not a plain relative path are reported as
 * `unsupported` and never read.
 */
/** `maxBytes` when it is a byte count; anything else bounds nothing. */
const byteCount = (n: unknown): number | undefined => (typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined);

export function postgresStorage(options: PostgresStorageOptions): PostgresStorage {
  const { pool, ownsPool, names, namespace, debounceMs, onError } = normalizeOptions(options);
  const scope: Scope = { display: names.display, namespace };
  const t = names.table;

  // An idle client of a pool we created can fail (server restart); unhandled, that would crash.
  if (ownsPool) pool.on('error', (error) => onError(tableError(scope, `an idle pooled connection failed (${error.message}); the pool replaces it`, error)));

  const sql = {
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

  const refuse = (action: string, path: unknown) =>
    storageError(scope, action, String(path), 'not a relative path of plain segments ("/"-separated, no empty, "." or ".." segment, no backslash or NUL)');

  const watchers = new Set<() => Promise<void>>();
  let closed: Promise<void> | undefined;

  return {
    pool,
    table: names.display,
    namespace,
    label: `PostgreSQL table ${names.display}, namespace ${JSON.stringify(namespace)}`,
    channel: names.channel,

    async listAll(options) {
      let rows: FileRow[];
      try {
        ({ rows } = await pool.query<FileRow>(sql.listAll, [namespace]));
      } catch (error) {
        throw queryError(scope, 'cannot list', '', error);
      }
      const listing = rows.map((row): SkillFileListing =>
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
          if (body.sha256 === item.digest) item.content = new Uint8Array(body.content.buffer, body.content.byteOffset, body.content.byteLength);
        }
      }
      return listing;
    },

    async list(dir) {
      if (dir !== '' && !isPlainPath(dir)) throw refuse('cannot list', dir);
      let rows: ChildRow[];
      try {
        ({ rows } = dir === '' ? await pool.query<ChildRow>(sql.listRoot, [namespace]) : await pool.query<ChildRow>(sql.listDir, [namespace, `${dir}/`, `${dir}0`]));
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
    },

    async read(path, options) {
      if (!isPlainPath(path)) throw refuse('cannot read', path);
      const maxBytes = byteCount(options?.maxBytes);
      let rows: { content: Buffer | null; size?: number }[];
      try {
        ({ rows } = maxBytes === undefined ? await pool.query<{ content: Buffer }>(sql.read, [namespace, path]) : await pool.query<{ content: Buffer | null; size: number }>(sql.readAtMost, [namespace, path, maxBytes]));
      } catch (error) {
        throw queryError(scope, 'cannot read', path, error);
      }
      const row = rows[0];
      if (row === undefined) throw storageError(scope, 'cannot read', path, 'no such file');
      const content = row.content;
      if (content === null) {
        throw storageError(scope, 'cannot read', path, `it is ${row.size} bytes, more than the ${maxBytes} it was listed with (it was replaced since), so it was not fetched; reload the catalog (a watch does it on the change notification) to publish the new file`, undefined, 'too-large');
      }
      // A plain Uint8Array view, not a Buffer: callers compare and hash bytes, nothing else.
      return new Uint8Array(content.buffer, content.byteOffset, content.byteLength);
    },

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
    },

    async put(path, content) {
      if (!isPlainPath(path)) throw refuse('cannot write', path);
      const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content instanceof Uint8Array ? Buffer.from(content.buffer, content.byteOffset, content.byteLength) : undefined;
      if (bytes === undefined) throw new TypeError(`put("${path}", content) needs a string or Uint8Array`);
      try {
        const { rowCount } = await pool.query(sql.put, [namespace, path, bytes]);
        return (rowCount ?? 0) > 0;
      } catch (error) {
        throw queryError(scope, 'cannot write', path, error);
      }
    },

    async remove(path) {
      if (!isPlainPath(path)) throw refuse('cannot delete', path);
      try {
        const { rowCount } = await pool.query(sql.remove, [namespace, path]);
        return (rowCount ?? 0) > 0;
      } catch (error) {
        throw queryError(scope, 'cannot delete', path, error);
      }
    },
  };
}

/** Create the table, index and change trigger on a pool you own, e.g. from a deploy script. */
export async function migrate(pool: Pool, options: MigrateOptions = {}): Promise<void> {
  if (pool === null || typeof pool !== 'object' || typeof pool.connect !== 'function') {
    throw new TypeError('@skillmount/storage-postgres: migrate(pool, options) needs a pg.Pool');
  }
  await runMigration(pool, tableNames(options?.table, `${PACKAGE}: migrate()`));
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
