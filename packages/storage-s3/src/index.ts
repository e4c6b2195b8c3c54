export { s3Storage } from './storage.js';
export { encodeManifest, MANIFEST_PATH, type ManifestFile } from './manifest.js';
export type { S3Storage, S3StorageOptions } from './types.js';
