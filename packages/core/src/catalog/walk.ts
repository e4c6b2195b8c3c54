import { StorageError } from '../errors.js';
import type { SkillFileEntry, SkillFileListing, SkillFiles } from '../types.js';
import { mapLimit } from './limit.js';

/** Every directory of a storage, by relative path (`''` = root), with its children as listed. */
export type StorageTree = Map<string, SkillFileEntry[]>;

export const joinPath = (dir: string, name: string) => (dir === '' ? name : `${dir}/${name}`);

/**
 * List the whole storage: one `listAll()` call when the storage has it, else breadth-first with
 * `concurrency` listings in flight. A failed listing fails the walk.
 */
export async function walkStorage(files: SkillFiles, concurrency: number): Promise<StorageTree> {
  if (typeof files.listAll === 'function') {
    let all: SkillFileListing[];
    try {
      all = await files.listAll();
    } catch (error) {
      if (error instanceof StorageError) throw error;
      throw new StorageError(`cannot list the storage: ${(error as Error)?.message ?? error}`, '', { cause: error });
    }
    return treeFromListing(all);
  }
  const tree: StorageTree = new Map();
  let level = [''];
  while (level.length > 0) {
    const listed = await mapLimit(level, concurrency, async (dir) => {
      try {
        return await files.list(dir);
      } catch (error) {
        if (error instanceof StorageError) throw error;
        throw new StorageError(`cannot list "${dir || '(root)'}": ${(error as Error)?.message ?? error}`, dir, { cause: error });
      }
    });
    const nextLevel: string[] = [];
    level.forEach((dir, i) => {
      const children = listed[i]!;
      tree.set(dir, children);
      for (const child of children) {
        if (child.kind === 'directory' && isPlainName(child.name)) nextLevel.push(joinPath(dir, child.name));
      }
    });
    level = nextLevel;
  }
  return tree;
}

/** A name a storage may legitimately return as one path segment. */
export function isPlainName(name: string): boolean {
  return name.length > 0 && name !== '.' && name !== '..' && !name.includes('/');
}

/** Rebuild per-folder listings from a flat one, adding the folders that paths imply. */
export function treeFromListing(listing: readonly SkillFileListing[]): StorageTree {
  const tree: StorageTree = new Map([['', []]]);
  const names = new Map<string, Set<string>>([['', new Set()]]);
  const add = (dir: string, entry: SkillFileEntry) => {
    let seen = names.get(dir);
    if (!seen) {
      seen = new Set();
      names.set(dir, seen);
      tree.set(dir, []);
    }
    if (seen.has(entry.name)) return;
    seen.add(entry.name);
    tree.get(dir)!.push(entry);
  };
  for (const item of listing) {
    const segments = item.path.split('/');
    // A path with an empty, "." or ".." segment could not be a relative path: never walk into it.
    if (segments.some((s) => !isPlainName(s))) {
      const dir = segments.slice(0, -1).join('/');
      add(segments.slice(0, -1).every(isPlainName) ? dir : '', { name: item.path, kind: 'unsupported' });
      continue;
    }
    for (let i = 0; i < segments.length - 1; i++) {
      add(segments.slice(0, i).join('/'), { name: segments[i]!, kind: 'directory' });
    }
    const { path: _path, ...entry } = item;
    add(segments.slice(0, -1).join('/'), { ...entry, name: segments.at(-1)! });
    if (item.kind === 'directory' && !tree.has(item.path)) {
      tree.set(item.path, []);
      names.set(item.path, new Set());
    }
  }
  return tree;
}
