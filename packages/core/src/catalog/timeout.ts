import { StorageError } from '../errors.js';
import type { SkillFiles } from '../types.js';

/**
 * The same storage, with every list, listAll, listAllBatches, treeToken and read bounded in time: a storage that hangs
 * fails the call with a StorageError naming the path instead of holding a request or a reload
 * for ever. (The storage call itself cannot be cancelled; its late answer is ignored.)
 */
export function withTimeouts(files: SkillFiles, timeoutMs: number): SkillFiles {
  if (timeoutMs === Infinity) return files;
  const bounded = <T>(call: () => Promise<T>, path: string, what: string, waitMs = timeoutMs): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new StorageError(`storage did not answer ${what} "${path || '(root)'}" within ${timeoutMs} ms`, path)), waitMs);
      call().then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  const timed: SkillFiles = {
    list: (dir) => bounded(() => files.list(dir), dir, 'list'),
    read: (path, options) => bounded(() => (options ? files.read(path, options) : files.read(path)), path, 'read'),
  };
  if (typeof files.listAll === 'function') timed.listAll = (options) => bounded(() => (options ? files.listAll!(options) : files.listAll!()), '', 'listAll');
  if (typeof files.listAllBatches === 'function') {
    const batches = files.listAllBatches.bind(files);
    // The whole listing within one timeout, as one listAll call.
    timed.listAllBatches = async function* (options) {
      const deadline = Date.now() + timeoutMs;
      const iterator = (options ? batches(options) : batches())[Symbol.asyncIterator]();
      try {
        for (;;) {
          const step = await bounded(() => iterator.next(), '', 'listAllBatches', Math.max(0, deadline - Date.now()));
          if (step.done) return;
          yield step.value;
        }
      } finally {
        // Let the storage stop (a failed or abandoned listing); its answer is not awaited.
        Promise.resolve(iterator.return?.()).catch(() => {});
      }
    };
  }
  if (typeof files.treeToken === 'function') timed.treeToken = () => bounded(() => files.treeToken!(), '', 'treeToken');
  if (typeof files.watch === 'function') timed.watch = (onChange) => files.watch!(onChange);
  if (typeof files.close === 'function') timed.close = () => files.close!();
  if (typeof files.label === 'string') (timed as { label?: string }).label = files.label;
  return timed;
}
