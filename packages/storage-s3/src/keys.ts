import { isPlainSegment, plainPathProblem, StorageError, type SkillFileListing } from '@skillmount/core/storage-kit';

/*
 * S3 keys are opaque strings: `a//b`, `a/./b` and `a/../b` are all distinct, legal keys, so every
 * listed key is checked (`isPlainSegment` on each segment) before it becomes a path.
 */

/** Throws unless `path` is a relative path of plain segments (`''`, the root, only when `allowRoot`). */
export function checkPath(path: string, where: string, allowRoot: boolean): void {
  if (typeof path !== 'string') throw new StorageError(`path must be a string (got ${typeof path}) in ${where}`, String(path));
  if (path === '') {
    if (allowRoot) return;
    throw new StorageError(`"" is not a file path in ${where}; give a path such as "my-skill/SKILL.md"`, path);
  }
  const problem = plainPathProblem(path);
  if (problem) throw new StorageError(`"${path}" is not a relative path inside ${where} (${problem}); paths use "/" between plain names`, path);
}

/** A change token from what a listing says about an object: its ETag and size. */
export function tokenOf(etag: string | undefined, size: number | undefined): string {
  return `${(etag ?? '').replaceAll('"', '')}:${size ?? ''}`;
}

export interface ListedObject {
  Key?: string | undefined;
  Size?: number | undefined;
  ETag?: string | undefined;
}

/**
 * What one listed object is below the prefix: a file, a folder (a zero-size key ending in `/`,
 * as consoles create for empty folders), something that cannot be a relative path
 * (`unsupported`, never read), or nothing at all (the prefix's own folder marker).
 */
export function classifyObject(object: ListedObject, prefix: string): SkillFileListing | undefined {
  const key = object.Key;
  if (key === undefined || !key.startsWith(prefix)) return undefined;
  const rest = key.slice(prefix.length);
  const size = object.Size ?? 0;
  if (rest === '') {
    // The prefix's own folder marker says only that the root exists; one with content cannot be a file.
    return size === 0 ? undefined : { path: '.', kind: 'unsupported' };
  }
  if (rest.endsWith('/')) {
    const folder = rest.slice(0, -1);
    const plain = folder.split('/').every(isPlainSegment);
    return plain && size === 0 ? { path: folder, kind: 'directory' } : { path: rest, kind: 'unsupported' };
  }
  if (!rest.split('/').every(isPlainSegment)) return { path: rest, kind: 'unsupported' };
  return { path: rest, kind: 'file', token: tokenOf(object.ETag, object.Size), size };
}
