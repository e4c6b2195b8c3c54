import { type FSWatcher, watch as fsWatch, realpathSync, statSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { storageError } from './errors.js';
import type { ChangeFeed } from './feed.js';

/** The root as the feed knows it: its real path, device and inode. A root re-pointed or replaced has another. */
export const rootIdOf = async (absolute: string, realRoot?: string): Promise<string> => {
  const real = realRoot ?? (await realpath(absolute));
  const { dev, ino } = await stat(real);
  return `${real}\0${dev}:${ino}`;
};

const rootIdSync = (absolute: string): string => {
  const real = realpathSync.native(absolute);
  const { dev, ino } = statSync(real);
  return `${real}\0${dev}:${ino}`;
};

export interface WatchOptions {
  debounceMs: number;
  /** How often the feed is told to walk everything, with a change reported so a watching catalog reloads; Infinity: never. */
  fullWalkMs: number;
  /** The feed the events go to, or undefined when the storage keeps no listings (`fullWalkMs: 0`). */
  feed: ChangeFeed | undefined;
}

/**
 * One recursive `fs.watch` on the root, shared by every `watch(onChange)` of the storage: started
 * with the first, closed with the last. Each caller's `onChange` is debounced on its own.
 */
export function sharedWatch(absolute: string, { debounceMs, fullWalkMs, feed }: WatchOptions): (onChange: () => void) => () => void {
  const callers = new Set<() => void>();
  let watcher: FSWatcher | undefined;
  let rewalk: NodeJS.Timeout | undefined;
  const fireAll = () => {
    for (const fire of callers) fire();
  };
  const open = () => {
    let rootId: string;
    try {
      // Node 24 no longer throws for a missing folder with `recursive`: it silently watches nothing.
      rootId = rootIdSync(absolute);
      watcher = fsWatch(absolute, { recursive: true }, (_type, filename) => {
        feed?.event(filename, path.sep);
        fireAll();
      });
    } catch (error) {
      throw storageError('cannot watch', '', absolute, error);
    }
    // Events may have been lost: nothing the feed kept can be trusted until the watch starts again.
    watcher.on('error', () => {
      feed?.stop();
      fireAll();
    });
    watcher.on('close', () => feed?.stop());
    feed?.start(rootId);
    if (feed && Number.isFinite(fullWalkMs)) {
      rewalk = setInterval(() => {
        feed.walkWhole();
        fireAll();
      }, fullWalkMs);
      rewalk.unref();
    }
  };
  const close = () => {
    clearInterval(rewalk);
    feed?.stop();
    watcher?.close();
    watcher = undefined;
  };
  return (onChange) => {
    if (callers.size === 0) open();
    let timer: NodeJS.Timeout | undefined;
    const fire = () => {
      clearTimeout(timer);
      timer = setTimeout(onChange, debounceMs);
    };
    callers.add(fire);
    return () => {
      clearTimeout(timer);
      if (!callers.delete(fire)) return;
      if (callers.size === 0) close();
    };
  };
}
