import { watch as fsWatch, type FSWatcher } from 'node:fs';
import { lstat, open, readdir, realpath } from 'node:fs/promises';
import { constants } from 'node:fs';
import path from 'node:path';
import { StorageError, type ListAllOptions, type SkillFileEntry, type SkillFileListing, type SkillFiles } from '@skillmount/core';
import { tokenOf } from './tree/jobs.js';
import { listTree } from './tree/list.js';
import { statSync } from 'node:fs';
import { inlineRunner, TreeJobError, WorkerPool, WorkersUnavailable } from './tree/runner.js';

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
  /**
   * The whole tree: files a catalog will read come hashed, SKILL.md files with their bytes;
   * with `known`, only files whose token changed are read.
   */
  listAll(options?: ListAllOptions): Promise<SkillFileListing[]>;
}

/**
 * A folder as skill storage. Symlinks and special files are listed as `unsupported` and never
 * read; `read` opens only regular files and does not follow a final symlink; a path that could
 * leave the root throws.
 */
export function fsStorage(root: string, options: FsStorageOptions = {}): FsStorage {
  if (typeof root !== 'string' || root.length === 0) throw new TypeError('@skillmount/storage-fs: fsStorage(root) needs a folder path');
  const absolute = path.resolve(root);
  const debounceMs = options.debounceMs ?? 100;
  if (!Number.isFinite(debounceMs) || debounceMs < 0) throw new RangeError(`@skillmount/storage-fs: debounceMs must be a number of milliseconds >= 0, not ${String(options.debounceMs)}`);
  const workerThreads = options.workerThreads ?? true;
  if (typeof workerThreads !== 'boolean') throw new TypeError(`@skillmount/storage-fs: workerThreads must be true or false, not ${String(options.workerThreads)}`);

  const segmentsOf = (relative: string): string[] => {
    if (typeof relative !== 'string') throw new StorageError(`path must be a string`, String(relative));
    if (relative === '') return [];
    const segments = relative.split('/');
    for (const segment of segments) {
      if (segment === '' || segment === '.' || segment === '..' || segment.includes('\\') || segment.includes('\0')) {
        throw new StorageError(`"${relative}" is not a relative path inside ${absolute}; paths use "/" and no "", "." or ".." segments`, relative);
      }
    }
    return segments;
  };

  // The root itself may be a symlink (the user chose it); below it, every folder on the way must be a
  // real folder, or a symlinked folder would lead outside the root. O_NOFOLLOW only guards the last
  // segment. One realpath of the deepest folder answers for all of them: it differs from the path
  // under the real root exactly when one of them is a symlink.
  let realRoot: string | undefined;
  const noSymlinkedFolders = async (relative: string, folders: string[], action: string): Promise<void> => {
    if (folders.length === 0) return;
    const folder = path.join(absolute, ...folders);
    let real: string;
    try {
      real = await realpath(folder);
      realRoot ??= await realpath(absolute);
      // The root may have been re-pointed since (it can be a symlink): look at it again before refusing.
      if (real !== path.join(realRoot, ...folders)) realRoot = await realpath(absolute);
    } catch (error) {
      throw storageError(action, relative, folder, error);
    }
    if (real !== path.join(realRoot, ...folders)) {
      throw new StorageError(`${action} "${relative}" (${folder}): a folder on its path is a symlink, which is not served`, relative);
    }
  };

  return {
    root: absolute,
    async listAll(listOptions) {
      try {
        if (workerThreads) {
          try {
            return await listTree(absolute, sharedPool(), listOptions);
          } catch (error) {
            if (!(error instanceof WorkersUnavailable)) throw error;
          }
        }
        return await listTree(absolute, inlineRunner, listOptions);
      } catch (error) {
        if (!(error instanceof TreeJobError)) throw error;
        const relative = error.detail.relative ?? '';
        throw storageError(error.detail.action ?? 'cannot list', relative, path.join(absolute, relative), error.detail);
      }
    },
    async list(dir) {
      const segments = segmentsOf(dir);
      const full = path.join(absolute, ...segments);
      await noSymlinkedFolders(dir, segments, 'cannot list');
      let dirents;
      try {
        dirents = await readdir(full, { withFileTypes: true, encoding: 'buffer' });
      } catch (error) {
        throw storageError('cannot list', dir, full, error);
      }
      const entries: SkillFileEntry[] = [];
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
      // Size and mtime make a cheap change token, so a reload re-reads only what changed.
      await Promise.all(
        files.map(async (name) => {
          try {
            const stat = await lstat(path.join(full, name));
            entries.push(stat.isFile() ? { name, kind: 'file', token: tokenOf(stat) } : { name, kind: 'unsupported' });
          } catch (error) {
            throw storageError('cannot stat', dir === '' ? name : `${dir}/${name}`, path.join(full, name), error);
          }
        }),
      );
      return entries;
    },
    async read(relative) {
      const segments = segmentsOf(relative);
      const full = path.join(absolute, ...segments);
      await noSymlinkedFolders(relative, segments.slice(0, -1), 'cannot read');
      let handle;
      try {
        // O_NOFOLLOW: a symlink swapped in after listing is refused, not followed.
        handle = await open(full, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
      } catch (error) {
        throw storageError('cannot read', relative, full, error);
      }
      try {
        const stat = await handle.stat();
        if (!stat.isFile()) throw new StorageError(`cannot read "${relative}" (${full}): not a regular file`, relative);
        return new Uint8Array(await handle.readFile());
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

function storageError(action: string, relative: string, full: string, error: unknown): StorageError {
  const code = (error as NodeJS.ErrnoException)?.code;
  const hint =
    code === 'ENOENT' ? 'no such file or folder' : code === 'ELOOP' ? 'it is a symlink, which is not served' : code === 'ENOTDIR' ? 'a parent is not a folder' : (error as Error)?.message ?? String(error);
  return new StorageError(`${action} "${relative || '(root)'}" (${full}): ${hint}`, relative, { cause: error });
}


let pool: WorkerPool | undefined;

/** One pool for the process: folder storages come and go (one per tenant, say), the threads stay few. */
function sharedPool(): WorkerPool {
  pool ??= new WorkerPool(new URL('./tree-worker.js', import.meta.url));
  return pool;
}
