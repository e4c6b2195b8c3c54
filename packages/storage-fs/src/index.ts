/**
 * A skill storage on the local file system: a folder of skill folders, watched for changes.
 *
 * @module @skillmount/storage-fs
 */
export { fsStorage, type FsStorageOptions, type FsStorage } from './storage.js';
