/**
 * Opening an entry of the root, checked after opening. Anyone who can rename entries inside the
 * folder can swap a folder on the way for a symlink between any two steps, so a check of the path
 * before opening proves nothing: what counts is what was opened. On Linux the descriptor's own
 * path (`/proc/self/fd/N`) must be exactly the entry's path under the root's real path; elsewhere
 * the opened file's device and inode must be what the path holds, with no symlink on it, just
 * after opening. Node built-ins only: the listing worker threads load this too.
 */
import { close, closeSync, constants, fstatSync, lstatSync, open, openSync, read, readlinkSync, readSync, realpathSync, type Stats } from 'node:fs';
import { realpath } from 'node:fs/promises';
import path from 'node:path';

const { O_RDONLY, O_NOFOLLOW = 0, O_NONBLOCK = 0, O_DIRECTORY = 0 } = constants;
// O_NONBLOCK: opening a FIFO waits for a writer otherwise, holding a thread of the pool for good.
// O_NOFOLLOW: a symlink as the last segment is refused, not followed.
const FLAGS = { file: O_RDONLY | O_NOFOLLOW | O_NONBLOCK, directory: O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_DIRECTORY } as const;

export type EntryKind = keyof typeof FLAGS;

/** What opening an entry came to: open and checked, gone (removed or renamed away), or refused with the reason. */
export type Opening<Fd> = { fd: Fd; stat: Stats } | { gone: true; cause: unknown } | { refused: string; cause?: unknown };

/** Why an opened entry is refused: its descriptor is not at its path inside the root. */
export const OUTSIDE = 'what was opened is not that entry of the folder (a folder on its path was replaced, for example by a symlink); not served';

/** Whether `/proc/self/fd` names open descriptors here: unknown until first tried. */
let procFd: boolean | undefined;

/** `/proc/self/fd` is used when it works; tests turn it off to check the other way. */
export function useProcFd(use: boolean | undefined): void {
  procFd = use === false ? false : undefined;
}

const fdPath = (fd: number) => `/proc/self/fd/${fd}`;
const sameFile = (a: Stats, b: Stats) => a.dev === b.dev && a.ino === b.ino;
const codeOf = (error: unknown) => (error as NodeJS.ErrnoException)?.code;
const missing = (error: unknown) => codeOf(error) === 'ENOENT';
const noProc = (error: unknown) => codeOf(error) === 'ENOENT' || codeOf(error) === 'ENOTDIR';

/**
 * The path to list an opened folder by: its descriptor's `/proc/self/fd` entry where that works
 * (the very folder that was opened, whatever was renamed since), else its path, which the caller
 * checks again afterwards with `isAtSync`.
 */
export function listPath(fd: number, full: string): { path: string; checkAfter: boolean } {
  return procFd ? { path: fdPath(fd), checkAfter: false } : { path: full, checkAfter: true };
}

/** True when descriptor `fd` (with `stat` from its fstat) is the entry at `full`, a path with no symlink in it. */
export function isAtSync(fd: number, full: string, stat: Stats): boolean {
  if (procFd !== false) {
    try {
      const at = readlinkSync(fdPath(fd));
      procFd = true;
      return at === full;
    } catch (error) {
      if (procFd || !noProc(error)) throw error;
      procFd = false;
    }
  }
  // Without /proc: the path holds the same file, resolves to itself, and still holds it. This narrows
  // the window without closing it: a swap back and forth between these steps gets through. What a
  // catalog serves is still checked against the listed digest.
  try {
    return sameFile(lstatSync(full), stat) && realpathSync.native(full) === full && sameFile(lstatSync(full), stat);
  } catch (error) {
    if (missing(error)) return false;
    throw error;
  }
}

/** The outcome of an open that failed; other errors (permissions, I/O) are thrown. */
function failedOpening(error: unknown, kind: EntryKind): Opening<never> {
  const code = codeOf(error);
  if (code === 'ENOENT') return { gone: true, cause: error };
  if (code === 'ELOOP' || code === 'EMLINK') return { refused: 'it is a symlink, which is not served', cause: error };
  // ENOTDIR: a folder expected, or one on the way, is now something else. ENXIO: a socket.
  if (code === 'ENOTDIR') return { refused: kind === 'file' ? 'a folder on its path is not a folder' : 'not a folder', cause: error };
  if (code === 'ENXIO') return { refused: 'not a regular file (a socket)', cause: error };
  throw error;
}

function wrongType(stat: Stats, kind: EntryKind): string | undefined {
  if (kind === 'file' ? stat.isFile() : stat.isDirectory()) return undefined;
  return kind === 'file' ? 'not a regular file (a folder, FIFO, socket or device)' : 'not a folder';
}

/** Open `full` (a path under the root's real path) as `kind`, and check it. The caller closes `fd`. */
export function openSyncChecked(full: string, kind: EntryKind): Opening<number> {
  let fd: number;
  try {
    fd = openSync(full, FLAGS[kind]);
  } catch (error) {
    return failedOpening(error, kind);
  }
  return checkOpened(fd, full, kind);
}

/**
 * `openSyncChecked` on the event loop's terms: the open, which walks the path and may wait on the
 * disk, through the thread pool (one round trip); the checks then on this thread, back to back
 * (with no gap for a swap between them), as they ask the kernel about the descriptor it already
 * holds: its fstat and, on Linux, the readlink of its `/proc/self/fd` entry. The caller closes `fd`.
 */
export async function openChecked(full: string, kind: EntryKind): Promise<Opening<number>> {
  let fd: number;
  try {
    fd = await new Promise<number>((resolve, reject) => open(full, FLAGS[kind], (error, opened) => (error ? reject(error) : resolve(opened))));
  } catch (error) {
    return failedOpening(error, kind);
  }
  return checkOpened(fd, full, kind);
}

/** The opened `fd` when it is a `kind` at `full`; else it is closed, and the reason given. */
function checkOpened(fd: number, full: string, kind: EntryKind): Opening<number> {
  try {
    const stat = fstatSync(fd);
    const refused = wrongType(stat, kind) ?? (isAtSync(fd, full, stat) ? undefined : OUTSIDE);
    if (refused === undefined) return { fd, stat };
    closeSync(fd);
    return { refused };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** `read(2)` of `fd` into `buffer` at `offset`, from `position`, through the thread pool (one round trip); resolves with the bytes read. */
export function readAt(fd: number, buffer: Buffer, offset: number, length: number, position: number): Promise<number> {
  return new Promise((resolve, reject) => read(fd, buffer, offset, length, position, (error, bytesRead) => (error ? reject(error) : resolve(bytesRead))));
}

/** `close(2)` of `fd` through the thread pool. */
export function closeFd(fd: number): Promise<void> {
  return new Promise((resolve, reject) => close(fd, (error) => (error ? reject(error) : resolve())));
}

/**
 * Read the `size` bytes fstat gave for `fd` into `onChunk`, asking for one byte more: a file that
 * grew since is not read further (it throws), one that shrank ends early. Returns how many bytes
 * were read. The extra byte rides on the last read, so a small file still costs one read.
 */
export function readSizedSync(fd: number, size: number, scratch: Buffer, onChunk: (chunk: Buffer) => void): number {
  let done = 0;
  for (;;) {
    const want = Math.min(scratch.byteLength, size + 1 - done);
    const n = readSync(fd, scratch, 0, want, done);
    if (done + n > size)
      throw Object.assign(
        new Error(`it grew past the ${size} bytes it had when opened, while it was read (a file being written); list again once it is written`),
        { code: 'EGREW' },
      );
    if (n > 0) onChunk(scratch.subarray(0, n));
    done += n;
    // A read of a regular file that returns less than asked has reached the end.
    if (n < want) return done;
  }
}

/** The root's real path, that every opened descriptor's path must start with. */
export const realRootOf = (root: string): Promise<string> => realpath(root);

/** `path.join`, for the root's real path and a checked relative path. */
export const under = (realRoot: string, relative: string): string => (relative === '' ? realRoot : path.join(realRoot, ...relative.split('/')));
