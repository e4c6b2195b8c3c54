export { main } from './main.js';
export { openStorage, type OpenedStorage } from './location.js';
