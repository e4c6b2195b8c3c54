export type ServerKind = 'fastify-stateless' | 'fastify-session' | 'express-stateless' | 'express-session' | 'sdk-v2';

/** Where the loopback S3-protocol server is, and one bucket of it. */
export interface S3Spec {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  bucket: string;
}

/** How a server (or any child) process opens its skills. */
export type StorageSpec = ({ folder: string } | { postgres: { connectionString: string; table: string; namespace: string } } | { s3: S3Spec }) & {
  /** Our catalogs' `cacheBytes`; the default when absent. */
  cacheBytes?: number;
};
