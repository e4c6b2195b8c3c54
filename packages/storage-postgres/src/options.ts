import pg from 'pg';
import { escapeControls, type StorageError } from '@skillmount/core';
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

const KNOWN = new Set(['pool', 'connectionString', 'table', 'namespace', 'debounceMs', 'onError']);

/** Check every option once, when the storage is created, and create the pool if asked to. */
export function normalizeOptions(options: PostgresStorageOptions | undefined): NormalizedOptions {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`${PACKAGE}: postgresStorage(options) needs an options object, e.g. postgresStorage({ pool }) or postgresStorage({ connectionString })`);
  }
  for (const key of Object.keys(options)) {
    if (!KNOWN.has(key)) throw new TypeError(`${PACKAGE}: unknown option "${key}"; the options are ${[...KNOWN].join(', ')}`);
  }
  const { pool, connectionString } = options;
  if ((pool === undefined) === (connectionString === undefined)) {
    throw new TypeError(`${PACKAGE}: give exactly one of the options pool (a pg.Pool you own) or connectionString (a pool the storage creates and closes)`);
  }
  if (pool !== undefined && (pool === null || typeof pool.query !== 'function' || typeof pool.connect !== 'function')) {
    throw new TypeError(`${PACKAGE}: the pool option must be a pg.Pool (with query() and connect())`);
  }
  if (connectionString !== undefined && (typeof connectionString !== 'string' || connectionString.length === 0)) {
    throw new TypeError(`${PACKAGE}: the connectionString option must be a non-empty string such as "postgres://user@host:5432/db"`);
  }
  const names = tableNames(options.table, 'the');
  const namespace = options.namespace ?? '';
  if (typeof namespace !== 'string' || namespace.includes('\0')) {
    throw new TypeError(`${PACKAGE}: the namespace option must be a string without NUL characters (default "")`);
  }
  const debounceMs = options.debounceMs ?? 50;
  if (typeof debounceMs !== 'number' || !Number.isFinite(debounceMs) || debounceMs < 0) {
    throw new TypeError(`${PACKAGE}: the debounceMs option must be a number of milliseconds, 0 or more (default 50)`);
  }
  if (options.onError !== undefined && typeof options.onError !== 'function') {
    throw new TypeError(`${PACKAGE}: the onError option must be a function receiving a StorageError`);
  }
  const onError = options.onError ?? ((error: StorageError) => console.warn(escapeControls(`${PACKAGE}: ${error.message}`)));

  if (pool !== undefined) return { pool, ownsPool: false, names, namespace, debounceMs, onError };
  const owned = new pg.Pool({ connectionString });
  return { pool: owned, ownsPool: true, names, namespace, debounceMs, onError };
}
