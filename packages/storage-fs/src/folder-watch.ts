/**
 * A recursive watch of a folder tree that reports paths relative to the root, as `fs.watch` with
 * `recursive` does. On macOS and Windows that is the system's own recursive watch, which reports by
 * path. Elsewhere (Linux), Node's recursive watch is made of one watch per file, bound to the
 * file's inode, and drops what its folder watches say about files: once a file is replaced by a
 * rename (`sed -i`, editors, `git checkout`), its later edits give no event. So here, instead, one
 * `fs.watch` per folder, which the system tells of every change to an entry of that folder by name,
 * whatever inode the entry has now. Folders are watched as they appear, and re-watched when one is
 * replaced; hidden folders (`.git`) are not entered, as nothing in them is ever served.
 */
import { type FSWatcher, lstatSync, readdirSync, type Stats, statSync, watch } from 'node:fs';
import path from 'node:path';
import { storageError } from './errors.js';

export interface TreeWatch {
  close(): void;
}

/** `filename`: relative to the root, `''` for the root itself (removed or replaced), null when the system named nothing. */
export type TreeEvent = (filename: string | null) => void;

/** The system's recursive watch reports by path here. */
const NATIVE_RECURSIVE = process.platform === 'darwin' || process.platform === 'win32';

/** Watch `root` and everything below it. A folder that cannot be watched at the start throws a `StorageError` naming it. */
export function watchTree(root: string, onEvent: TreeEvent, onError: (error: unknown) => void): TreeWatch {
  if (!NATIVE_RECURSIVE) return new FolderWatches(root, onEvent, onError);
  let watcher: FSWatcher;
  try {
    watcher = watch(root, { recursive: true }, (_type, filename) => onEvent(filename));
  } catch (error) {
    throw storageError('cannot watch', '', root, error);
  }
  watcher.on('error', onError);
  return watcher;
}

interface Folder {
  /** Raw bytes: a name that is not UTF-8 is watched and looked at as it is on disk. */
  readonly full: Buffer;
  readonly relative: Buffer;
  readonly dev: number;
  readonly ino: number;
  readonly watcher: FSWatcher;
  /** The watched subfolders, by their raw name. */
  readonly children: Map<string, Folder>;
  closed: boolean;
}

/** A folder that could not be watched, for reasons other than being gone. */
class WatchFailure extends Error {
  readonly folder: Folder | { full: Buffer; relative: Buffer };
  override readonly cause: unknown;

  constructor(folder: Folder | { full: Buffer; relative: Buffer }, cause: unknown) {
    super('cannot watch');
    this.folder = folder;
    this.cause = cause;
  }
}

const SEP = Buffer.from(path.sep);
const DOT = '.'.charCodeAt(0);
const join = (parent: Buffer, name: Buffer) => (parent.length === 0 ? name : Buffer.concat([parent, SEP, name]));
const keyOf = (name: Buffer) => name.toString('latin1');
const sameFolder = (a: Stats | undefined, b: { dev: number; ino: number }) => a?.isDirectory() === true && a.dev === b.dev && a.ino === b.ino;

/** Gone, replaced, or not readable by this process: not watched (a listing says why, if it matters). */
const skipped = (error: unknown) => ['ENOENT', 'ENOTDIR', 'EACCES', 'EPERM'].includes((error as NodeJS.ErrnoException)?.code ?? '');

const lookAt = (full: Buffer, follow: boolean): Stats | undefined => {
  try {
    return (follow ? statSync : lstatSync)(full, { throwIfNoEntry: false });
  } catch (error) {
    if (skipped(error)) return undefined;
    throw error;
  }
};

class FolderWatches implements TreeWatch {
  readonly #root: Folder;
  readonly #rootName: Buffer;

  readonly #onEvent: TreeEvent;
  readonly #onError: (error: unknown) => void;
  /**
   * The entries events named since the last turn of the event loop, by folder (null: the folder
   * itself). A flood of events (a folder swapped thousands of times a second) is handled once per
   * entry and turn: looking at each entry on every event kept the process from doing anything else.
   */
  #pending = new Map<Folder, Map<string, Buffer | null>>();
  #flush: NodeJS.Immediate | undefined;

  constructor(root: string, onEvent: TreeEvent, onError: (error: unknown) => void) {
    this.#onEvent = onEvent;
    this.#onError = onError;
    const full = Buffer.from(root);
    let added: Folder | undefined;
    try {
      // The root is watched through a symlink, if it is one: the user chose it.
      added = this.#add(full, Buffer.alloc(0), undefined);
    } catch (error) {
      throw failure(error);
    }
    if (!added) throw storageError('cannot watch', '', root, notAFolder(root));
    this.#root = added;
    this.#rootName = Buffer.from(path.basename(root));
  }

  close(): void {
    clearImmediate(this.#flush);
    this.#pending.clear();
    closeAll(this.#root);
  }

  /**
   * Watch the folder at `full` and every folder below it. The watch starts before the listing, so
   * anything made meanwhile gives an event; the folder is looked at before and after the watch
   * starts, so a folder swapped meanwhile (for a symlink, say) is left to the event the swap gives.
   */
  #add(full: Buffer, relative: Buffer, parent: Folder | undefined): Folder | undefined {
    const before = lookAt(full, parent === undefined);
    if (!before?.isDirectory()) return undefined;
    let watcher: FSWatcher;
    try {
      watcher = watch(full, { encoding: 'buffer' }, (_type, name) => this.#queue(folder, name));
    } catch (error) {
      if (parent && skipped(error)) return undefined;
      throw new WatchFailure({ full, relative }, error);
    }
    let after: Stats | undefined;
    try {
      after = lookAt(full, parent === undefined);
    } finally {
      if (!sameFolder(after, before)) watcher.close();
    }
    if (!sameFolder(after, before)) return undefined;
    const folder: Folder = { full, relative, dev: before.dev, ino: before.ino, watcher, children: new Map(), closed: false };
    watcher.on('error', (error) => this.#onError(failure(new WatchFailure(folder, error))));
    try {
      for (const entry of readdirSync(full, { withFileTypes: true, encoding: 'buffer' })) {
        if (entry.isDirectory() && entry.name[0] !== DOT) this.#add(join(full, entry.name), join(relative, entry.name), folder);
      }
    } catch (error) {
      closeAll(folder);
      if (parent && skipped(error)) return undefined; // gone meanwhile: its parent's event says so
      throw error instanceof WatchFailure ? error : new WatchFailure(folder, error);
    }
    parent?.children.set(keyOf(relative.subarray(relative.lastIndexOf(SEP) + 1)), folder);
    return folder;
  }

  /** An event of `folder`'s watch, handled with the others of this turn. */
  #queue(folder: Folder, name: Buffer | null): void {
    const names = this.#pending.get(folder) ?? new Map<string, Buffer | null>();
    this.#pending.set(folder, names);
    names.set(name === null || name.length === 0 ? '' : keyOf(name), name);
    this.#flush ??= setImmediate(() => {
      this.#flush = undefined;
      const pending = this.#pending;
      this.#pending = new Map();
      for (const [folder, names] of pending) for (const name of names.values()) this.#changed(folder, name);
    });
  }

  /** An event of `folder`'s watch: `name` is the entry that changed, or (the system cannot tell them apart) the folder itself. */
  #changed(folder: Folder, name: Buffer | null): void {
    if (folder.closed) return;
    if (name === null || name.length === 0) {
      this.#onEvent(folder.relative.length > 0 ? folder.relative.toString() : null);
      return;
    }
    if (folder === this.#root && name.equals(this.#rootName) && !sameFolder(lookAt(folder.full, true), folder)) {
      this.#onEvent(''); // the root itself was removed, renamed or replaced
      return;
    }
    if (name[0] !== DOT) {
      try {
        this.#follow(folder, name);
      } catch (error) {
        this.#onError(failure(error));
      }
    }
    this.#onEvent(join(folder.relative, name).toString());
  }

  /** Keep the watch of the entry `name` of `folder` in step with it: a new folder is watched, a removed or replaced one dropped. */
  #follow(folder: Folder, name: Buffer): void {
    const key = keyOf(name);
    const full = join(folder.full, name);
    const kept = folder.children.get(key);
    const now = lookAt(full, false);
    if (kept && sameFolder(now, kept)) return;
    if (kept) {
      folder.children.delete(key);
      closeAll(kept);
    }
    if (now?.isDirectory()) this.#add(full, join(folder.relative, name), folder);
  }
}

function closeAll(folder: Folder): void {
  folder.closed = true;
  folder.watcher.close();
  for (const child of folder.children.values()) closeAll(child);
  folder.children.clear();
}

function notAFolder(root: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOTDIR: not a folder, watch '${root}'`), { code: 'ENOTDIR' });
}

function failure(error: unknown): unknown {
  if (!(error instanceof WatchFailure)) return error;
  return storageError('cannot watch', error.folder.relative.toString(), error.folder.full.toString(), error.cause);
}
