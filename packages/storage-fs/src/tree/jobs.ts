/**
 * The two jobs behind `listAll`: listing folders (reading and hashing the files a catalog will
 * read as they are found), and reading and hashing given files. Synchronous on purpose: they run
 * in worker threads, where a blocking call is several times cheaper than a round trip through the
 * thread pool, or on the calling thread in short slices. Node built-ins only, so a worker loads
 * nothing else.
 */
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readSync, type Stats } from 'node:fs';
import path from 'node:path';

const SKILL_MD = 'SKILL.md';

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
}

/** A folder to list, and whether it is inside a skill folder (then a catalog reads its files). */
export interface Folder {
  dir: string;
  inSkill: boolean;
}

export const ROOT: Folder = { dir: '', inSkill: false };

/** A failure, with where it happened: what crosses threads when a job fails. */
export type Failure = Error & { code?: string; relative?: string; action?: 'cannot list' | 'cannot read' };

const failure = (error: unknown, relative: string, action: 'cannot list' | 'cannot read'): Failure => Object.assign(error as Error, { relative, action });

export const isSkillMd = (p: string) => p === SKILL_MD || p.endsWith(`/${SKILL_MD}`);

/**
 * List `folders`: their entries, and the subfolders to list next. Files a catalog will read
 * (inside a folder holding a SKILL.md, not hidden) are read and hashed here when `read` is set,
 * SKILL.md files sent whole; otherwise they get a change token and `wanted`. Other files are
 * listed by name only: nothing reads them. Symlinks and special files are `unsupported`, and
 * names that are not valid UTF-8 too (they would decode to another name); folders whose name
 * starts with "." are listed but not entered, as nothing under them is ever served.
 */
export function walkFolders(root: string, folders: readonly Folder[], read: boolean): { items: Listed[]; folders: Folder[] } {
  const items: Listed[] = [];
  const next: Folder[] = [];
  for (const { dir, inSkill } of folders) {
    const full = path.join(root, dir);
    let dirents;
    try {
      // Its parent listed it as a folder; a symlink swapped in since is not followed.
      if (dir !== '' && lstatSync(full).isSymbolicLink()) throw Object.assign(new Error('it is a symlink, which is not served'), { code: 'ELOOP' });
      dirents = readdirSync(full, { withFileTypes: true, encoding: 'buffer' });
    } catch (error) {
      if (dir !== '' && (error as Failure).code === 'ENOENT') continue; // removed since its parent was listed
      throw failure(error, dir, 'cannot list');
    }
    const names = dirents.map((d) => (d.name as unknown as Buffer).toString('utf8'));
    const childrenInSkill = inSkill || (dir !== '' && dirents.some((d, i) => names[i] === SKILL_MD && d.isFile()));
    dirents.forEach((d, i) => {
      const name = names[i]!;
      const itemPath = dir === '' ? name : `${dir}/${name}`;
      if (!Buffer.from(name, 'utf8').equals(d.name as unknown as Buffer)) items.push({ path: itemPath, kind: 'unsupported' });
      else if (d.isDirectory()) {
        items.push({ path: itemPath, kind: 'directory' });
        if (!name.startsWith('.')) next.push({ dir: itemPath, inSkill: childrenInSkill });
      } else if (!d.isFile()) items.push({ path: itemPath, kind: 'unsupported' });
      else if (!childrenInSkill || name.startsWith('.')) items.push({ path: itemPath, kind: 'file' });
      else {
        const item = read ? readOne(path.join(full, name), itemPath, isSkillMd(itemPath)) : statOne(path.join(full, name), itemPath);
        if (item) items.push(item);
      }
    });
  }
  return { items, folders: next };
}

/** A wanted file's token, not its bytes. Undefined when it is gone since its folder was listed. */
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

/** A wanted file read and hashed (with its bytes when `keep`). Undefined when it is gone since its folder was listed. */
function readOne(full: string, itemPath: string, keep: boolean): Listed | undefined {
  try {
    return readFile(full, itemPath, keep);
  } catch (error) {
    const code = (error as Failure).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') return { path: itemPath, kind: 'unsupported' }; // a symlink swapped in since the listing
    throw failure(error, itemPath, 'cannot read');
  }
}

/**
 * Read and hash each file (with its bytes when `content`), as a reload does for the files whose
 * token changed. A file's folder is checked first: a symlink swapped in since the walk is refused
 * rather than followed, and the file itself is opened with O_NOFOLLOW.
 */
export function readFiles(root: string, files: readonly { path: string; content: boolean }[]): Listed[] {
  const folderIsReal = new Map<string, boolean>();
  const items: Listed[] = [];
  for (const file of files) {
    const folder = file.path.slice(0, Math.max(0, file.path.lastIndexOf('/')));
    let real = folderIsReal.get(folder);
    try {
      if (real === undefined) {
        real = folder === '' || !lstatSync(path.join(root, folder)).isSymbolicLink();
        folderIsReal.set(folder, real);
      }
    } catch (error) {
      if ((error as Failure).code === 'ENOENT') continue;
      throw failure(error, folder, 'cannot list');
    }
    if (!real) throw failure(Object.assign(new Error('its folder is a symlink, which is not served'), { code: 'ELOOP' }), file.path, 'cannot read');
    const item = readOne(path.join(root, file.path), file.path, file.content);
    if (item) items.push(item);
  }
  return items;
}

const CHUNK = 64 * 1024;
// One read buffer per thread: the jobs are synchronous, so it is never shared, and a fresh one
// per file would churn memory that the allocator keeps.
let scratchBuffer: Buffer | undefined;

function readFile(full: string, itemPath: string, keep: boolean): Listed {
  const scratch = (scratchBuffer ??= Buffer.allocUnsafeSlow(CHUNK));
  const fd = openSync(full, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { path: itemPath, kind: 'unsupported' };
    // Read to the end, not to the stat's size: the digest and size must be of the same bytes. A
    // read of a regular file that returns less than asked has reached the end.
    const hash = createHash('sha256');
    const kept: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const n = readSync(fd, scratch, 0, CHUNK, size);
      const chunk = scratch.subarray(0, n);
      hash.update(chunk);
      if (keep && n > 0) kept.push(new Uint8Array(chunk)); // a copy: the scratch buffer is reused
      size += n;
      if (n < CHUNK) break;
    }
    const item: Listed = { path: itemPath, kind: 'file', token: tokenOf(stat), size, digest: `sha256:${hash.digest('hex')}` };
    if (keep) item.content = kept.length === 1 ? kept[0]! : joined(kept, size);
    return item;
  } finally {
    closeSync(fd);
  }
}

/** One exactly sized array (it is posted between threads, where a larger backing buffer would be copied whole). */
function joined(parts: readonly Uint8Array[], size: number): Uint8Array {
  const whole = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    whole.set(part, offset);
    offset += part.byteLength;
  }
  return whole;
}
