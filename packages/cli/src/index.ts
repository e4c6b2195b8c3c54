export { main } from './main.js';
export { openStorage, parseLocation } from './location.js';
export type { Location, OpenedStorage, OpenStorageOptions } from './types.js';
