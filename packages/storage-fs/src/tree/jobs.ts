/**
 * The two jobs behind `listAll`: listing folders (reading and hashing the files a catalog will
 * read as they are found), and reading and hashing given files. Synchronous on purpose: they run
 * in worker threads, where a blocking call is several times cheaper than a round trip through the
 * thread pool, or on the calling thread in short slices. Node built-ins and the storage kit only
 * (itself dependency-free), so a worker loads nothing else.
 *
 * Every folder and file is opened first and checked after opening (`confine.ts`): nothing is
 * listed, hashed or sent from a descriptor that is not inside the root, whatever was renamed
 * meanwhile. `root` is the root's real path. Which files a catalog reads is the storage kit's rule
 * (`skill-folders`), so these jobs read exactly those.
 */
import { createHash } from 'node:crypto';
import { closeSync, lstatSync, readdirSync, type Stats } from 'node:fs';
import path from 'node:path';
import { canBeSkillFolder, isHiddenName, isSkillMdPath, joinPath, SKILL_MD } from '@skillmount/core/storage-kit';
import { isAtSync, listPath, openSyncChecked, readSizedSync, under } from '../confine.js';
import { folderStamp, isSettled, tokensSum } from './settled.js';

/** A change token from a file's metadata: any write, rename-over or copy changes one of these. */
export const tokenOf = (stat: Stats): string => `${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}:${stat.ino}`;

/** One listing item as it crosses threads (the shape of the core's `SkillFileListing`). */
export interface Listed {
  path: string;
  kind: 'file' | 'directory' | 'unsupported';
  token?: string;
  size?: number;
  digest?: string;
  content?: Uint8Array;
  /** Files a catalog will read, listed by a walk that did not read them: the caller decides. */
  wanted?: true;
  /** Read while its times were too recent to prove the bytes (see `settled.ts`): read again before trusting its token. */
  unsettled?: true;
}

/** A folder to list, and whether it is inside a skill folder (then a catalog reads its files). */
export interface Folder {
  dir: string;
  inSkill: boolean;
}

export const ROOT: Folder = { dir: '', inSkill: false };

/** One folder as a walk saw it: its own entry and its entries (`items`), and the subfolders to list next. */
export interface Walked {
  folder: Folder;
  items: Listed[];
  folders: Folder[];
  /** The folder's stamp before its names were read, when its times were settled (see `settled.ts`). */
  stamp?: string;
  /** With `stamp`: the sum of the tokens of the files a catalog reads (see `tokensSum`). */
  sum?: string;
}

/** A failure, with where it happened: what crosses threads when a job fails. */
export type Failure = Error & { code?: string; relative?: string; action?: 'cannot list' | 'cannot read' };

const failure = (error: unknown, relative: string, action: 'cannot list' | 'cannot read'): Failure => Object.assign(error as Error, { relative, action });

/**
 * List `folders`, each on its own: each folder's own entry (`directory`, or `unsupported` when what is there now is
 * not a folder inside the root), its entries, and the subfolders to list next. Files a catalog will
 * read (inside a folder holding a SKILL.md, not hidden) are read and hashed here when `read` is set,
 * SKILL.md files sent whole; otherwise they get a change token and `wanted`. Other files are
 * listed by name only: nothing reads them. Symlinks and special files are `unsupported`, and
 * names that are not valid UTF-8 too (they would decode to another name); folders whose name
 * starts with "." are listed but not entered, as nothing under them is ever served. `line`: see
 * `settleLine`.
 */
export function walkFolders(root: string, folders: readonly Folder[], read: boolean, line: number): Walked[] {
  return folders.map((folder) => listFolder(root, folder, read, line));
}

function listFolder(root: string, folder: Folder, read: boolean, line: number): Walked {
  const walked: Walked = { folder, items: [], folders: [] };
  const { dir, inSkill } = folder;
  const { items, folders: next } = walked;
  const full = under(root, dir);
  let opened;
  try {
    opened = openSyncChecked(full, 'directory');
  } catch (error) {
    throw failure(error, dir, 'cannot list');
  }
  if (dir === '' && !('fd' in opened)) {
    const reason = 'gone' in opened ? Object.assign(new Error('no such file or folder'), { code: 'ENOENT' }) : new Error(opened.refused);
    throw failure(reason, dir, 'cannot list');
  }
  if ('gone' in opened) return walked; // removed since its parent was listed
  if ('refused' in opened) {
    items.push({ path: dir, kind: 'unsupported' });
    return walked;
  }
  try {
    const at = listPath(opened.fd, full);
    let dirents;
    try {
      dirents = readdirSync(at.path, { withFileTypes: true, encoding: 'buffer' });
    } catch (error) {
      if (dir !== '' && (error as Failure).code === 'ENOENT') return walked;
      throw failure(error, dir, 'cannot list');
    }
    if (at.checkAfter && !isAtSync(opened.fd, full, opened.stat)) {
      if (dir === '') throw failure(new Error('the folder was replaced while it was listed'), dir, 'cannot list');
      items.push({ path: dir, kind: 'unsupported' });
      return walked;
    }
    if (dir !== '') items.push({ path: dir, kind: 'directory' });
    const names = dirents.map((d) => (d.name as unknown as Buffer).toString('utf8'));
    const childrenInSkill = inSkill || (canBeSkillFolder(dir) && dirents.some((d, i) => names[i] === SKILL_MD && d.isFile()));
    dirents.forEach((d, i) => {
      const name = names[i]!;
      const itemPath = joinPath(dir, name);
      if (!Buffer.from(name, 'utf8').equals(d.name as unknown as Buffer)) items.push({ path: itemPath, kind: 'unsupported' });
      else if (d.isDirectory()) {
        // A folder entered lists itself once it is opened and checked; a hidden one is only named.
        if (isHiddenName(name)) items.push({ path: itemPath, kind: 'directory' });
        else next.push({ dir: itemPath, inSkill: childrenInSkill });
      } else if (!d.isFile()) items.push({ path: itemPath, kind: 'unsupported' });
      else if (!childrenInSkill || isHiddenName(name)) items.push({ path: itemPath, kind: 'file' });
      else {
        const item = read ? readOne(root, itemPath, isSkillMdPath(itemPath), line) : statOne(path.join(at.path, name), itemPath);
        if (item) items.push(item);
      }
    });
    // Taken before the names were read: a name added since moves it, so the next listing sees it.
    if (isSettled(opened.stat, line)) {
      walked.stamp = folderStamp(opened.stat);
      walked.sum = tokensSum(items.flatMap((item) => (item.kind === 'file' && item.token !== undefined ? [item.token] : [])).join('/'));
    }
  } finally {
    closeSync(opened.fd);
  }
  return walked;
}

/**
 * A wanted file's token, not its bytes (metadata only; the bytes are read, checked, once its token
 * changed). Undefined when it is gone since its folder was listed.
 */
function statOne(full: string, itemPath: string): Listed | undefined {
  let stat: Stats;
  try {
    stat = lstatSync(full);
  } catch (error) {
    if ((error as Failure).code === 'ENOENT') return undefined;
    throw failure(error, itemPath, 'cannot read');
  }
  return stat.isFile() ? { path: itemPath, kind: 'file', token: tokenOf(stat), wanted: true } : { path: itemPath, kind: 'unsupported' };
}

/**
 * A wanted file opened, checked, read and hashed (with its bytes when `keep`). Undefined when it
 * is gone since its folder was listed; `unsupported` when what is there now is not a regular file
 * inside the root.
 */
function readOne(root: string, itemPath: string, keep: boolean, line: number): Listed | undefined {
  let opened;
  try {
    opened = openSyncChecked(under(root, itemPath), 'file');
  } catch (error) {
    throw failure(error, itemPath, 'cannot read');
  }
  if ('gone' in opened) return undefined;
  if ('refused' in opened) return { path: itemPath, kind: 'unsupported' };
  try {
    return hashed(opened.fd, opened.stat, itemPath, keep, line);
  } catch (error) {
    throw failure(error, itemPath, 'cannot read');
  } finally {
    closeSync(opened.fd);
  }
}

/** Read and hash each file (with its bytes when `content`), as a reload does for the files whose token changed. */
export function readFiles(root: string, files: readonly { path: string; content: boolean }[], line: number): Listed[] {
  const items: Listed[] = [];
  for (const file of files) {
    const item = readOne(root, file.path, file.content, line);
    if (item) items.push(item);
  }
  return items;
}

const CHUNK = 64 * 1024;
// One read buffer per thread: the jobs are synchronous, so it is never shared, and a fresh one
// per file would churn memory that the allocator keeps.
let scratchBuffer: Buffer | undefined;

/**
 * The size fstat gave the opened file, and no more, hashed; the digest and size are of the same
 * bytes. `unsettled` when its times are not before `line`: an edit in the same tick could follow.
 */
function hashed(fd: number, stat: Stats, itemPath: string, keep: boolean, line: number): Listed {
  scratchBuffer ??= Buffer.allocUnsafeSlow(CHUNK);
  const scratch = scratchBuffer;
  const hash = createHash('sha256');
  // One exactly sized array when kept: a worker packs those of a reply into one buffer (worker.ts).
  const kept = keep ? new Uint8Array(stat.size) : undefined;
  let offset = 0;
  const size = readSizedSync(fd, stat.size, scratch, (chunk) => {
    hash.update(chunk);
    kept?.set(chunk, offset);
    offset += chunk.byteLength;
  });
  const item: Listed = { path: itemPath, kind: 'file', token: tokenOf(stat), size, digest: `sha256:${hash.digest('hex')}` };
  if (kept) item.content = size === stat.size ? kept : kept.slice(0, size);
  if (!isSettled(stat, line)) item.unsettled = true;
  return item;
}
