/**
 * The `skillmount` command line as a library: run its commands, or open a storage from a location
 * string as the commands do.
 *
 * @module skillmount
 */
export { main } from './main.js';
export { openStorage, parseLocation } from './location.js';
export type { Location, OpenedStorage, OpenStorageOptions } from './types.js';
