/**
 * A skill storage in a PostgreSQL table, with change notifications through LISTEN/NOTIFY.
 *
 * @module @skillmount/storage-postgres
 */
export { postgresStorage, migrate } from './storage.js';
export type { MigrateOptions, PostgresStorage, PostgresStorageOptions } from './types.js';
