import pg from 'pg';
import { escapeControls, OptionError, type OptionErrorCode, type StorageError } from '@skillmount/core/catalog';
import { PACKAGE, tableNames, type TableNames } from './table.js';
import type { PostgresStorageOptions } from './types.js';

export interface NormalizedOptions {
  pool: pg.Pool;
  /** True when the storage created the pool and so ends it on close. */
  ownsPool: boolean;
  names: TableNames;
  namespace: string;
  debounceMs: number;
  onError: (error: StorageError) => void;
}

/** How long a pool made from `connectionString` waits for a new connection before failing. */
const CONNECT_TIMEOUT_MS = 10_000;

const KNOWN = new Set(['pool', 'connectionString', 'table', 'namespace', 'debounceMs', 'onError']);

const fail = (code: OptionErrorCode, option: string, detail: string): never => {
  throw new OptionError(code, option, detail, PACKAGE);
};

/** Check every option once, when the storage is created, and create the pool if asked to. */
export function normalizeOptions(options: PostgresStorageOptions | undefined): NormalizedOptions {
  if (options === null || typeof options !== 'object') {
    fail('invalid-type', '', 'must be an object, e.g. postgresStorage({ pool }) or postgresStorage({ connectionString })');
  }
  for (const key of Object.keys(options!)) {
    if (!KNOWN.has(key)) fail('unknown-option', key, `is not an option; the options are ${[...KNOWN].join(', ')}`);
  }
  const { pool, connectionString } = options!;
  // Given, but undefined: most often an unset environment variable, which deserves its own answer.
  for (const name of ['connectionString', 'pool'] as const) {
    if (Object.hasOwn(options!, name) && options![name] === undefined && options![name === 'pool' ? 'connectionString' : 'pool'] === undefined) {
      const hint = name === 'connectionString' ? ': is DATABASE_URL (or whichever variable you read it from) set?' : '; pass a pg.Pool';
      fail('missing-option', name, `is undefined${hint}`);
    }
  }
  if (pool === undefined && connectionString === undefined) {
    fail(
      'missing-option',
      'connectionString',
      'or "pool" is required: give exactly one of the options pool (a pg.Pool you own) or connectionString (a pool the storage creates and closes)',
    );
  }
  if (pool !== undefined && connectionString !== undefined) {
    fail(
      'conflicting-options',
      'connectionString',
      'cannot be combined with "pool": give exactly one of the options pool (a pg.Pool you own) or connectionString (a pool the storage creates and closes)',
    );
  }
  if (pool !== undefined && (pool === null || typeof pool.query !== 'function' || typeof pool.connect !== 'function')) {
    fail('invalid-type', 'pool', 'must be a pg.Pool (with query() and connect())');
  }
  if (connectionString !== undefined && (typeof connectionString !== 'string' || connectionString.length === 0)) {
    fail(
      typeof connectionString === 'string' ? 'invalid-value' : 'invalid-type',
      'connectionString',
      'must be a non-empty string such as "postgres://user@host:5432/db"',
    );
  }
  const names = tableNames(options!.table);
  const namespace = options!.namespace ?? '';
  if (typeof namespace !== 'string' || namespace.includes('\0')) {
    fail(typeof namespace === 'string' ? 'invalid-value' : 'invalid-type', 'namespace', 'must be a string without NUL characters (default "")');
  }
  const debounceMs = options!.debounceMs ?? 50;
  if (typeof debounceMs !== 'number' || !Number.isFinite(debounceMs) || debounceMs < 0) {
    fail(typeof debounceMs === 'number' ? 'invalid-value' : 'invalid-type', 'debounceMs', 'must be a number of milliseconds, 0 or more (default 50)');
  }
  if (options!.onError !== undefined && typeof options!.onError !== 'function') {
    fail('invalid-type', 'onError', 'must be a function receiving a StorageError');
  }
  const onError = options!.onError ?? ((error: StorageError) => console.warn(escapeControls(`${PACKAGE}: ${error.message}`)));

  if (pool !== undefined) return { pool, ownsPool: false, names, namespace, debounceMs, onError };
  // A server that accepts the connection and never answers (or a half-open network path) must not
  // hold a load, or `skillmount serve`'s start-up check, forever: pg waits without bound by default.
  const owned = new pg.Pool({ connectionString, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  return { pool: owned, ownsPool: true, names, namespace, debounceMs, onError };
}
