/**
 * Public types of @skillmount/storage-postgres. Everything a user names in their own code is declared here.
 */
import type { ListAllOptions, SkillFileListing, SkillFiles, StorageError } from '@skillmount/core/storage-kit';
import type { Pool } from 'pg';

/** Options of `postgresStorage(options)`. Give exactly one of `pool` or `connectionString`. */
export interface PostgresStorageOptions {
  /** A `pg.Pool` you own. The storage never ends it: `close()` leaves it usable. */
  pool?: Pool;
  /**
   * A connection string; the storage then creates its own pool and `close()` ends it. That pool
   * gives up on a connection the server has not completed within 10 s.
   */
  connectionString?: string;
  /**
   * The table holding the files, optionally schema-qualified (`skills.files`). Each part is a plain
   * identifier (letters, digits, `_`; the table name at most 55 characters), used exactly as
   * written. Default `'skillmount_files'`.
   */
  table?: string;
  /** Which tree of the table this storage serves: one table holds many tenants' trees. Default `''`. */
  namespace?: string;
  /** `watch`: notifications arriving within this many milliseconds are reported once. Default 50. */
  debounceMs?: number;
  /**
   * Problems the storage cannot throw to a caller: the LISTEN connection dropped or could not be
   * made (it retries with backoff), an owned pool's idle connection failed, an `onChange` callback
   * threw. Default: `console.warn`.
   */
  onError?: (error: StorageError) => void;
}

/** Options of the standalone `migrate(pool, options)`. */
export interface MigrateOptions {
  /** The table to create, as in `PostgresStorageOptions.table`. Default `'skillmount_files'`. */
  table?: string;
}

/** A PostgreSQL table as skill storage: `SkillFiles` plus schema setup and writes. */
export interface PostgresStorage extends SkillFiles {
  /** The table option as given (`skillmount_files`, `skills.files`). */
  readonly table: string;
  /** The namespace this storage serves. */
  readonly namespace: string;
  /** `PostgreSQL table <table>, namespace "<namespace>"`, as messages name the storage (no connection details). */
  readonly label: string;
  readonly kind: 'postgres';
  /** The LISTEN/NOTIFY channel the table's trigger notifies (`<table name>_changed`). */
  readonly channel: string;
  /** The pool queries run on: the one passed in, or the one created from `connectionString` (ended by `close()`). */
  readonly pool: Pool;
  /**
   * Every file of the namespace in one query, with size, `sha256:` digest and change token, and
   * the bytes of each SKILL.md whose token is not `known` in one more (per thousand).
   */
  listAll(options?: ListAllOptions): Promise<SkillFileListing[]>;
  /**
   * The namespace's generation, which every write bumps in its own transaction (triggers `migrate()`
   * creates), as `<oid>:<n>`: one small query, so a reload with nothing changed lists nothing.
   * `undefined` when the table lacks the generation table or its triggers (migrated by an earlier
   * version: run `migrate()`) or this role may not read it.
   */
  treeToken(): Promise<string | undefined>;
  /**
   * LISTEN for writes to this namespace on a dedicated connection and call `onChange` (debounced),
   * also once the connection is up and again after every reconnection, since writes may have been
   * missed meanwhile. Returns a function that stops listening.
   */
  watch(onChange: () => void): () => void;
  /** Stop every watch and, when the storage created the pool, end it. A pool you passed in stays open. */
  close(): Promise<void>;
  /** Create the table, its triggers and the generation table if missing. Safe to run again and concurrently. */
  migrate(): Promise<void>;
  /**
   * Store a file (insert or replace). Resolves `true` when the stored content changed, `false` when
   * it was already identical (then nothing is written and no change is notified).
   */
  put(path: string, content: string | Uint8Array): Promise<boolean>;
  /** Delete a file. Resolves `true` when a row was deleted. */
  remove(path: string): Promise<boolean>;
}
