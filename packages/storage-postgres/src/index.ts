export { postgresStorage, migrate } from './storage.js';
export type { MigrateOptions, PostgresStorage, PostgresStorageOptions } from './types.js';
