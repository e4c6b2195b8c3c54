import { StorageError } from '../errors.js';
import { storageChannel, type StorageCallMessage } from '../telemetry/channels.js';
import { traced } from '../telemetry/trace.js';
import type { SkillFiles } from '../types.js';

/**
 * The same storage, as the catalog calls it: every list, listAll, listAllBatches, treeToken and
 * read bounded in time (a storage that hangs fails the call with a StorageError naming the path
 * instead of holding a request or a reload for ever; the storage call itself cannot be cancelled,
 * and its late answer is ignored), and each a `skillmount:storage` trace while the channel has
 * subscribers (listAllBatches: one per batch it fetches).
 */
export function storageCalls(files: SkillFiles, timeoutMs: number): SkillFiles {
  const storage = typeof files.kind === 'string' ? files.kind : 'custom';
  const timedOut = (path: string, what: string) => new StorageError(`storage did not answer ${what} "${path || '(root)'}" within ${timeoutMs} ms`, path);
  const bounded = <T>(call: () => Promise<T>, path: string, what: string, waitMs = timeoutMs): Promise<T> => {
    if (waitMs === Infinity) return call();
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(timedOut(path, what)), waitMs);
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
  };
  const call = <T>(operation: StorageCallMessage['operation'], path: string, fn: () => Promise<T>, waitMs = timeoutMs): Promise<T> =>
    storageChannel.hasSubscribers
      ? traced(storageChannel, { storage, operation, path }, () => bounded(fn, path, operation, waitMs))
      : bounded(fn, path, operation, waitMs);
  const timed: SkillFiles = {
    list: (dir) => call('list', dir, () => files.list(dir)),
    read: (path, options) => call('read', path, () => (options ? files.read(path, options) : files.read(path))),
  };
  if (typeof files.listAll === 'function') timed.listAll = (options) => call('listAll', '', () => (options ? files.listAll!(options) : files.listAll!()));
  if (typeof files.listAllBatches === 'function') {
    const batches = files.listAllBatches.bind(files);
    // The whole listing within one timeout, as one listAll call.
    timed.listAllBatches = async function* (options) {
      const deadline = Date.now() + timeoutMs;
      const iterator = (options ? batches(options) : batches())[Symbol.asyncIterator]();
      try {
        for (;;) {
          const step = await call('listAllBatches', '', () => iterator.next(), Math.max(0, deadline - Date.now()));
          if (step.done) return;
          yield step.value;
        }
      } finally {
        // Let the storage stop (a failed or abandoned listing); its answer is not awaited.
        Promise.resolve(iterator.return?.()).catch(() => {});
      }
    };
  }
  if (typeof files.treeToken === 'function') timed.treeToken = () => call('treeToken', '', () => files.treeToken!());
  if (typeof files.watch === 'function') timed.watch = (onChange) => files.watch!(onChange);
  if (typeof files.close === 'function') timed.close = () => files.close!();
  if (typeof files.label === 'string') (timed as { label?: string }).label = files.label;
  if (typeof files.kind === 'string') (timed as { kind?: string }).kind = files.kind;
  return timed;
}
