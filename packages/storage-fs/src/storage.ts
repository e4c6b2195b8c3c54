import { watch as fsWatch, type FSWatcher } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { isPlainSegment, joinPath, storageError as kitError, StorageError, type ListAllOptions, type SkillFileEntry, type SkillFileListing, type SkillFiles } from '@skillmount/core/storage-kit';
import { OptionError } from '@skillmount/core';
import { isAt, listPath, openChecked, OUTSIDE, realRootOf, under, type EntryKind } from './confine.js';
import { tokenOf } from './tree/jobs.js';
import { listTree } from './tree/list.js';
import { statSync } from 'node:fs';
import { inlineRunner, TreeJobError, WorkerPool, WorkersUnavailable } from './tree/runner.js';

const NAME = '@skillmount/storage-fs';

export interface FsStorageOptions {
  /** Debounce for `watch`: changes within this many milliseconds are reported once. Default 100. */
  debounceMs?: number;
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
  /**
   * The whole tree: files a catalog will read come hashed, SKILL.md files with their bytes;
   * with `known`, only files whose token changed are read.
   */
  listAll(options?: ListAllOptions): Promise<SkillFileListing[]>;
  /**
   * The file's exact bytes. With `maxBytes`, a file larger than that is refused (a `StorageError`
   * naming the path, the limit and the size seen) before more than `maxBytes + 1` bytes are read.
   */
  read(path: string, options?: { maxBytes?: number }): Promise<Uint8Array>;
}

/**
 * A folder as skill storage. Symlinks and special files are listed as `unsupported` and never
 * read; every folder and file is checked to be inside the root after it is opened, so an entry
 * swapped for a symlink meanwhile is refused, not followed; a path that could leave the root throws.
 */
export function fsStorage(root: string, options: FsStorageOptions = {}): FsStorage {
  if (typeof root !== 'string' || root.length === 0) throw new TypeError('@skillmount/storage-fs: fsStorage(root) needs a folder path');
  const absolute = path.resolve(root);
  const debounceMs = options.debounceMs ?? 100;
  if (typeof debounceMs !== 'number' || !Number.isFinite(debounceMs) || debounceMs < 0) {
    throw new OptionError(typeof debounceMs === 'number' ? 'invalid-value' : 'invalid-type', 'debounceMs', `must be a number of milliseconds >= 0, got ${String(options.debounceMs)}`, NAME);
  }
  const workerThreads = options.workerThreads ?? true;
  if (typeof workerThreads !== 'boolean') throw new OptionError('invalid-type', 'workerThreads', `must be true or false, got ${String(options.workerThreads)}`, NAME);

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
  const opened = async (relative: string, kind: EntryKind, action: string) => {
    const full = path.join(absolute, ...segmentsOf(relative));
    let checked: string;
    let opening;
    try {
      const before = realRoot;
      checked = under((realRoot ??= await realRootOf(absolute)), relative);
      opening = await openChecked(checked, kind);
      if (!('fd' in opening) && before !== undefined && (realRoot = await realRootOf(absolute)) !== before) {
        checked = under(realRoot, relative);
        opening = await openChecked(checked, kind);
      }
    } catch (error) {
      throw storageError(action, relative, full, error);
    }
    if ('gone' in opening) throw storageError(action, relative, full, opening.cause);
    if ('refused' in opening) throw kitError({ action, path: relative, where: `(${full})`, reason: opening.refused, cause: opening.cause });
    return { handle: opening.fd, stat: opening.stat, full, checked };
  };

  return {
    root: absolute,
    label: absolute,
    async listAll(listOptions) {
      let root: string;
      try {
        root = realRoot = await realRootOf(absolute);
      } catch (error) {
        throw storageError('cannot list', '', absolute, error);
      }
      try {
        if (workerThreads) {
          try {
            return await listTree(root, sharedPool(), listOptions);
          } catch (error) {
            if (!(error instanceof WorkersUnavailable)) throw error;
          }
        }
        return await listTree(root, inlineRunner, listOptions);
      } catch (error) {
        if (!(error instanceof TreeJobError)) throw error;
        const relative = error.detail.relative ?? '';
        throw storageError(error.detail.action ?? 'cannot list', relative, path.join(absolute, relative), error.detail);
      }
    },
    async list(dir) {
      const { handle, stat, full, checked } = await opened(dir, 'directory', 'cannot list');
      const entries: SkillFileEntry[] = [];
      try {
        // Listed through the opened folder itself where the system allows, else by path and checked again after.
        const at = listPath(handle.fd, checked);
        let dirents;
        try {
          dirents = await readdir(at.path, { withFileTypes: true, encoding: 'buffer' });
          if (at.checkAfter && !(await isAt(handle.fd, checked, stat))) throw kitError({ action: 'cannot list', path: dir, where: `(${full})`, reason: OUTSIDE });
        } catch (error) {
          throw error instanceof StorageError ? error : storageError('cannot list', dir, full, error);
        }
        const files: string[] = [];
        for (const d of dirents) {
          const raw = d.name as unknown as Buffer;
          const name = raw.toString('utf8');
          // A name that is not valid UTF-8 decodes to another name, which could not be read back.
          if (!Buffer.from(name, 'utf8').equals(raw)) entries.push({ name, kind: 'unsupported' });
          else if (d.isFile()) files.push(name);
          else if (d.isDirectory()) entries.push({ name, kind: 'directory' });
          else entries.push({ name, kind: 'unsupported' });
        }
        // Size and mtime make a cheap change token, so a reload re-reads only what changed. All settle
        // before the folder is closed: `at.path` may name its descriptor, whose number is then reused.
        const stats = await Promise.allSettled(files.map((name) => lstat(path.join(at.path, name))));
        stats.forEach((result, i) => {
          const name = files[i]!;
          if (result.status === 'rejected') throw storageError('cannot stat', joinPath(dir, name), path.join(full, name), result.reason);
          entries.push(result.value.isFile() ? { name, kind: 'file', token: tokenOf(result.value) } : { name, kind: 'unsupported' });
        });
      } finally {
        await handle.close();
      }
      return entries;
    },
    async read(relative, readOptions) {
      const maxBytes = readOptions?.maxBytes ?? Infinity;
      if (typeof maxBytes !== 'number' || !(maxBytes >= 0)) throw new RangeError(`@skillmount/storage-fs: read(path, { maxBytes }) takes a number of bytes >= 0, not ${String(readOptions?.maxBytes)}`);
      const { handle, stat, full } = await opened(relative, 'file', 'cannot read');
      try {
        if (stat.size > maxBytes) throw tooLarge(relative, full, maxBytes, `${stat.size} bytes`);
        // The size of the opened file and one byte more, to see it grew since: never more than that.
        const buffer = Buffer.allocUnsafeSlow(stat.size + 1);
        let size = 0;
        for (;;) {
          const want = buffer.byteLength - size;
          const { bytesRead } = await handle.read(buffer, size, want, size);
          size += bytesRead;
          // A read of a regular file that returns less than asked has reached the end.
          if (bytesRead < want || size === buffer.byteLength) break;
        }
        if (size > maxBytes) throw tooLarge(relative, full, maxBytes, `at least ${size} bytes`);
        if (size > stat.size) throw kitError({ action: 'cannot read', path: relative, where: `(${full})`, reason: `it grew past the ${stat.size} bytes it had when opened, while it was read (a file being written); read it again once it is written` });
        return new Uint8Array(buffer.buffer, 0, size);
      } catch (error) {
        throw error instanceof StorageError ? error : storageError('cannot read', relative, full, error);
      } finally {
        await handle.close();
      }
    },
    watch(onChange) {
      let timer: NodeJS.Timeout | undefined;
      const fire = () => {
        clearTimeout(timer);
        timer = setTimeout(onChange, debounceMs);
      };
      let watcher: FSWatcher;
      try {
        // Node 24 no longer throws for a missing folder with `recursive`: it silently watches nothing.
        statSync(absolute);
        watcher = fsWatch(absolute, { recursive: true }, fire);
      } catch (error) {
        throw storageError('cannot watch', '', absolute, error);
      }
      watcher.on('error', fire);
      return () => {
        clearTimeout(timer);
        watcher.close();
      };
    },
  };
}

function tooLarge(relative: string, full: string, maxBytes: number, seen: string): StorageError {
  const reason = `it is ${seen}, larger than the ${maxBytes} bytes expected (maxBytes); if that is the size it was listed with, it changed since: reload to serve it`;
  return kitError({ action: 'cannot read', path: relative, where: `(${full})`, reason, code: 'too-large' });
}

function storageError(action: string, relative: string, full: string, error: unknown): StorageError {
  const code = (error as NodeJS.ErrnoException)?.code;
  const hint =
    code === 'ENOENT' ? 'no such file or folder' : code === 'ELOOP' ? 'it is a symlink, which is not served' : code === 'ENOTDIR' ? 'a parent is not a folder' : (error as Error)?.message ?? String(error);
  // Coded so callers can tell "nothing there" (a tenant's folder never created) from a failure.
  return kitError({ action, path: relative, where: `(${full})`, reason: hint, cause: error, ...(code === 'ENOENT' ? { code: 'not-found' } : {}) });
}


let pool: WorkerPool | undefined;

/** One pool for the process: folder storages come and go (one per tenant, say), the threads stay few. */
function sharedPool(): WorkerPool {
  pool ??= new WorkerPool(new URL('./tree-worker.js', import.meta.url));
  return pool;
}
