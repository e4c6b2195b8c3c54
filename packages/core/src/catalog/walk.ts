import { StorageError } from '../errors.js';
import type { SkillFileEntry, SkillFiles } from '../types.js';
import { mapLimit } from './limit.js';

/** Every directory of a storage, by relative path (`''` = root), with its children as listed. */
export type StorageTree = Map<string, SkillFileEntry[]>;

export const joinPath = (dir: string, name: string) => (dir === '' ? name : `${dir}/${name}`);

/** List the whole storage breadth-first, `concurrency` listings in flight. A failed listing fails the walk. */
export async function walkStorage(files: SkillFiles, concurrency: number): Promise<StorageTree> {
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
