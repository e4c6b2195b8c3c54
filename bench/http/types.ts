export type ServerKind = 'fastify-stateless' | 'fastify-session' | 'express-stateless' | 'express-session' | 'sdk-v2';

/** How a server process opens its skills. */
export type StorageSpec = ({ folder: string } | { postgres: { connectionString: string; table: string; namespace: string } }) & {
  /** Our catalogs' `cacheBytes`; the default when absent. */
  cacheBytes?: number;
};
