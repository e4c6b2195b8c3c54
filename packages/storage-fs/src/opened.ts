import { closeSync, type Dirent, type Stats } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { joinPath, storageError as kitError, type SkillFileEntry, StorageError } from '@skillmount/core/storage-kit';
import { closeFd, isAtSync, listPath, OUTSIDE, readAt } from './confine.js';
import { storageError, tooLarge } from './errors.js';
import { tokenOf } from './tree/jobs.js';

/** An entry opened and checked to be inside the root: its descriptor, what it was when opened, and its paths. */
export interface Opened {
  fd: number;
  stat: Stats;
  /** The path as the user's root spells it, for messages. */
  full: string;
  /** The path under the root's real path, as it was checked. */
  checked: string;
}

/** The children of an opened folder; closes it. */
export async function listOpened(dir: string, { fd, stat, full, checked }: Opened): Promise<SkillFileEntry[]> {
  const entries: SkillFileEntry[] = [];
  try {
    // Listed through the opened folder itself where the system allows, else by path and checked again after.
    const at = listPath(fd, checked);
    let dirents: Dirent<Buffer>[];
    try {
      dirents = await readdir(at.path, { withFileTypes: true, encoding: 'buffer' });
      if (at.checkAfter && !isAtSync(fd, checked, stat)) throw kitError({ action: 'cannot list', path: dir, where: `(${full})`, reason: OUTSIDE });
    } catch (error) {
      throw error instanceof StorageError ? error : storageError('cannot list', dir, full, error);
    }
    const files: string[] = [];
    for (const d of dirents) {
      const raw = d.name;
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
    await closeFd(fd);
  }
  return entries;
}

/**
 * The bytes of an opened file, never more than its size when opened plus one; closes it. A file
 * read whole costs one round trip through the thread pool (the read; the close of a descriptor
 * opened only for reading does not wait on the disk, so it is made here).
 */
export async function readOpened(relative: string, { fd, stat, full }: Opened, maxBytes: number): Promise<Uint8Array> {
  try {
    if (stat.size > maxBytes) throw tooLarge(relative, full, maxBytes, `${stat.size} bytes`);
    // The size of the opened file and one byte more, to see it grew since: never more than that.
    const buffer = Buffer.allocUnsafeSlow(stat.size + 1);
    let size = 0;
    for (;;) {
      const want = buffer.byteLength - size;
      const bytesRead = await readAt(fd, buffer, size, want, size);
      size += bytesRead;
      // A read of a regular file that returns less than asked has reached the end.
      if (bytesRead < want || size === buffer.byteLength) break;
    }
    if (size > maxBytes) throw tooLarge(relative, full, maxBytes, `at least ${size} bytes`);
    if (size > stat.size) {
      const reason = `it grew past the ${stat.size} bytes it had when opened, while it was read (a file being written); read it again once it is written`;
      throw kitError({ action: 'cannot read', path: relative, where: `(${full})`, reason });
    }
    return new Uint8Array(buffer.buffer, 0, size);
  } catch (error) {
    throw error instanceof StorageError ? error : storageError('cannot read', relative, full, error);
  } finally {
    closeSync(fd);
  }
}
