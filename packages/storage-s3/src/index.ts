/**
 * A skill storage in an S3-compatible bucket (an AWS SDK v3 `S3Client`), with an optional manifest
 * (`skillmount publish` writes it) that spares the per-file reads.
 *
 * @module @skillmount/storage-s3
 */
export { s3Storage } from './storage.js';
export { encodeManifest, MANIFEST_PATH, type ManifestFile } from './manifest.js';
export type { S3Storage, S3StorageOptions } from './types.js';
