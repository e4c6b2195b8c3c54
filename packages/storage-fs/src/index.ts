export { fsStorage, type FsStorageOptions, type FsStorage } from './storage.js';
