export { s3Storage } from './storage.js';
export type { S3Storage, S3StorageOptions } from './types.js';
