import { realpathSync, statSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { storageError } from './errors.js';
import type { ChangeFeed } from './feed.js';
import { type TreeWatch, watchTree } from './folder-watch.js';

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
  /** The longest a change waits for its call while more keep coming; Infinity: no bound. */
  maxWaitMs: number;
  /** How often the feed is told to walk everything, with a change reported so a watching catalog reloads; Infinity: never. */
  fullWalkMs: number;
  /** The feed the events go to, or undefined when the storage keeps no listings (`fullWalkMs: 0`). */
  feed: ChangeFeed | undefined;
}

/**
 * One recursive watch of the root (see `watchTree`), shared by every `watch(onChange)` of the
 * storage: started with the first, closed with the last. Each caller's `onChange` is debounced on its own.
 */
export function sharedWatch(absolute: string, { debounceMs, maxWaitMs, fullWalkMs, feed }: WatchOptions): (onChange: () => void) => () => void {
  const callers = new Set<() => void>();
  let watcher: TreeWatch | undefined;
  let rewalk: NodeJS.Timeout | undefined;
  const fireAll = () => {
    for (const fire of callers) fire();
  };
  const open = () => {
    let rootId: string;
    try {
      // Node 24 no longer throws for a missing folder with `recursive`: it silently watches nothing.
      rootId = rootIdSync(absolute);
    } catch (error) {
      throw storageError('cannot watch', '', absolute, error);
    }
    watcher = watchTree(
      absolute,
      (filename) => {
        feed?.event(filename, path.sep);
        fireAll();
      },
      // Events may have been lost: nothing the feed kept can be trusted until the watch starts again.
      () => {
        feed?.stop();
        fireAll();
      },
    );
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
    const { fire, cancel } = debounced(onChange, debounceMs, maxWaitMs);
    callers.add(fire);
    return () => {
      cancel();
      if (!callers.delete(fire)) return;
      if (callers.size === 0) close();
    };
  };
}

/**
 * `call` once things stop happening for `debounceMs`, or at the latest `maxWaitMs` after the first
 * of them: a steady trickle of changes (a log written every 50 ms) must not hold back the others.
 */
function debounced(call: () => void, debounceMs: number, maxWaitMs: number) {
  let quiet: NodeJS.Timeout | undefined;
  let deadline: NodeJS.Timeout | undefined;
  const cancel = () => {
    clearTimeout(quiet);
    clearTimeout(deadline);
    quiet = deadline = undefined;
  };
  const now = () => {
    cancel();
    call();
  };
  const fire = () => {
    clearTimeout(quiet);
    quiet = setTimeout(now, debounceMs);
    if (deadline === undefined && Number.isFinite(maxWaitMs)) deadline = setTimeout(now, maxWaitMs);
  };
  return { fire, cancel };
}
