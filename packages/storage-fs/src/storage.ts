import path from 'node:path';
import { OptionError } from '@skillmount/core/catalog';
import {
  isPlainSegment,
  storageError as kitError,
  type ListAllOptions,
  type SkillFileListing,
  type SkillFiles,
  StorageError,
} from '@skillmount/core/storage-kit';
import { type EntryKind, openChecked, realRootOf, under } from './confine.js';
import { storageError } from './errors.js';
import { ChangeFeed } from './feed.js';
import { listOpened, type Opened, readOpened } from './opened.js';
import { sharedWatch } from './watcher.js';
import { wholeTree } from './whole-tree.js';

const NAME = '@skillmount/storage-fs';

export interface FsStorageOptions {
  /** Debounce for `watch`: changes within this many milliseconds are reported once. Default 100. */
  debounceMs?: number;
  /**
   * For `watch`: while changes keep coming less than `debounceMs` apart, they are reported at the
   * latest this many milliseconds after the first of them. Default ten times `debounceMs` (1000);
   * `Infinity`: wait for a pause however long it takes.
   */
  maxWaitMs?: number;
  /**
   * With a watch on, `listAll` lists again only the folders the watcher's events name, and
   * walks the whole folder at least this often (milliseconds), reporting a change so a watching
   * catalog reloads: the bound on how long a change the watcher missed goes unseen. Without a
   * watch, a reload checks each folder by its metadata and lists again only those whose times
   * moved, and lists every folder at least this often: the bound on how long a name added to a
   * folder goes unseen on a file system that does not move a folder's times (files edited in place
   * are checked one by one at every reload). Default 60000. `Infinity`: trust the events or the
   * folders' times alone; `0`: keep nothing, every listing walks everything.
   */
  fullWalkMs?: number;
  /**
   * Walk and hash the tree for a catalog load in worker threads (a pool of up to 4, shared by
   * every folder storage in the process, ended when idle). Default true. With false, the work
   * runs on the calling thread in short slices, several times slower.
   */
  workerThreads?: boolean;
}

export interface FsStorage extends SkillFiles {
  /** The absolute root folder. */
  readonly root: string;
  /** The absolute root folder, as messages name it. */
  readonly label: string;
  readonly kind: 'fs';
  /**
   * The whole tree: files a catalog will read come hashed, SKILL.md files with their bytes;
   * with `known`, only files whose token changed are read, and those read while their times were
   * less than 3 s old (an edit in the same timestamp tick would have kept the token).
   */
  listAll(options?: ListAllOptions): Promise<SkillFileListing[]>;
  /** The same listing in batches, one per job of the walk as it finishes. */
  listAllBatches(options?: ListAllOptions): AsyncIterable<SkillFileListing[]>;
  /**
   * While a `watch` is on: a token that moves on with every event of the watcher (see
   * `fullWalkMs`); undefined once its events cannot be trusted. Without a watch: the last
   * listing's, when a check of every folder and of every file a catalog reads (an `lstat` each)
   * finds them as it saw them; undefined when anything differs, when a file it read is not yet
   * settled (changed less than 3 s before), and with `fullWalkMs: 0`.
   */
  treeToken(): Promise<string | undefined>;
  /**
   * The file's exact bytes. With `maxBytes`, a file larger than that is refused (a `StorageError`
   * naming the path, the limit and the size seen) before more than `maxBytes + 1` bytes are read.
   */
  read(path: string, options?: { maxBytes?: number }): Promise<Uint8Array>;
}

/** The options with their defaults, each checked: a bad one is an OptionError naming it. */
function checkedOptions(options: FsStorageOptions): Required<FsStorageOptions> {
  const debounceMs = options.debounceMs ?? 100;
  if (typeof debounceMs !== 'number' || !Number.isFinite(debounceMs) || debounceMs < 0 || debounceMs > MAX_TIMER_MS) {
    throw new OptionError(
      typeof debounceMs === 'number' ? 'invalid-value' : 'invalid-type',
      'debounceMs',
      `must be a number of milliseconds from 0 to ${MAX_TIMER_MS} (about 24 days), got ${String(options.debounceMs)}`,
      NAME,
    );
  }
  const maxWaitMs = timerOption(options, 'maxWaitMs', Math.min(10 * debounceMs, MAX_TIMER_MS));
  const fullWalkMs = timerOption(options, 'fullWalkMs', 60_000);
  const workerThreads = options.workerThreads ?? true;
  if (typeof workerThreads !== 'boolean')
    throw new OptionError('invalid-type', 'workerThreads', `must be true or false, got ${String(options.workerThreads)}`, NAME);
  return { debounceMs, maxWaitMs, fullWalkMs, workerThreads };
}

// setTimeout and setInterval take at most 2^31 - 1 ms: anything longer would fire at once.
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A number of milliseconds for a timer, from 0 to MAX_TIMER_MS, or Infinity (never). */
function timerOption(options: FsStorageOptions, name: 'maxWaitMs' | 'fullWalkMs', fallback: number): number {
  const value = options[name] ?? fallback;
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0 || (Number.isFinite(value) && value > MAX_TIMER_MS)) {
    throw new OptionError(
      typeof value === 'number' ? 'invalid-value' : 'invalid-type',
      name,
      `must be a number of milliseconds from 0 to ${MAX_TIMER_MS} (about 24 days), or Infinity; got ${String(options[name])}`,
      NAME,
    );
  }
  return value;
}

/**
 * A folder as skill storage. Symlinks and special files are listed as `unsupported` and never
 * read; every folder and file is checked to be inside the root after it is opened, so an entry
 * swapped for a symlink meanwhile is refused, not followed; a path that could leave the root throws.
 *
 * @example
 * ```ts
 * import { SkillCatalog } from '@skillmount/core';
 * import { fsStorage } from '@skillmount/storage-fs';
 *
 * const storage = fsStorage('./skills', { debounceMs: 200 });
 * const catalog = await SkillCatalog.load(storage);
 * catalog.watch();
 * ```
 * @throws TypeError when `root` is not a non-empty string.
 * @throws {@link @skillmount/core!OptionError | OptionError} when an option is invalid.
 * @throws {@link @skillmount/core!StorageError | StorageError} from its methods (the promises reject) for a path that is not plain or leaves the
 * root, a symlink or special file, or a failed read (`code: 'not-found'` for a missing path).
 */
export function fsStorage(root: string, options: FsStorageOptions = {}): FsStorage {
  if (typeof root !== 'string' || root.length === 0) throw new TypeError('@skillmount/storage-fs: fsStorage(root) needs a folder path');
  const absolute = path.resolve(root);
  const { debounceMs, maxWaitMs, fullWalkMs, workerThreads } = checkedOptions(options);
  const feed = fullWalkMs === 0 ? undefined : new ChangeFeed();

  const segmentsOf = (relative: string): string[] => {
    if (typeof relative !== 'string') throw new StorageError(`path must be a string`, String(relative));
    if (relative === '') return [];
    const segments = relative.split('/');
    for (const segment of segments) {
      if (!isPlainSegment(segment)) {
        throw new StorageError(`"${relative}" is not a relative path inside ${absolute}; paths use "/" and no "", "." or ".." segments`, relative);
      }
    }
    return segments;
  };

  // The root itself may be a symlink (the user chose it), re-pointed at any time: its real path is
  // looked up once and again whenever an entry is not found under it.
  let realRoot: string | undefined;
  const opened = async (relative: string, kind: EntryKind, action: string): Promise<Opened> => {
    const full = path.join(absolute, ...segmentsOf(relative));
    let checked: string;
    let opening: Awaited<ReturnType<typeof openChecked>>;
    try {
      const before = realRoot;
      realRoot ??= await realRootOf(absolute);
      checked = under(realRoot, relative);
      opening = await openChecked(checked, kind);
      // Not found under a root looked up earlier: the root may have been re-pointed since.
      if (!('fd' in opening) && before !== undefined) {
        realRoot = await realRootOf(absolute);
        if (realRoot !== before) {
          checked = under(realRoot, relative);
          opening = await openChecked(checked, kind);
        }
      }
    } catch (error) {
      throw storageError(action, relative, full, error);
    }
    if ('gone' in opening) throw storageError(action, relative, full, opening.cause);
    if ('refused' in opening) throw kitError({ action, path: relative, where: `(${full})`, reason: opening.refused, cause: opening.cause });
    return { fd: opening.fd, stat: opening.stat, full, checked };
  };

  // A listing looks the root's real path up again: it may have been re-pointed since.
  const listedRoot = async (): Promise<string> => {
    try {
      realRoot = await realRootOf(absolute);
      return realRoot;
    } catch (error) {
      throw storageError('cannot list', '', absolute, error);
    }
  };

  const whole = wholeTree(absolute, { workerThreads, fullWalkMs, feed, listedRoot });

  return {
    root: absolute,
    kind: 'fs',
    label: absolute,
    ...whole,
    async list(dir) {
      return listOpened(dir, await opened(dir, 'directory', 'cannot list'));
    },
    async read(relative, readOptions) {
      const maxBytes = readOptions?.maxBytes ?? Infinity;
      if (typeof maxBytes !== 'number' || !(maxBytes >= 0)) {
        throw new RangeError(`@skillmount/storage-fs: read(path, { maxBytes }) takes a number of bytes >= 0, not ${String(readOptions?.maxBytes)}`);
      }
      return readOpened(relative, await opened(relative, 'file', 'cannot read'), maxBytes);
    },
    watch: sharedWatch(absolute, { debounceMs, maxWaitMs, fullWalkMs, feed }),
  };
}
