/**
 * Which files a catalog reads: the files of skill folders. A skill folder is a folder other than
 * the root that holds a file named `SKILL.md`; its files are every file below it, nested skills'
 * files included, except hidden ones. Anything whose name, or a folder's on its path, starts with
 * "." (`.git`, `.DS_Store`) is never part of a skill, as in the Agent Skills tooling and the SDK v2.
 * Storages use these to decide what to read, hash or bring along while listing; the catalog uses
 * the same ones to decide what to serve, so the two never disagree.
 */
export const SKILL_MD = 'SKILL.md';

/**
 * `SKILL.md`, or a path ending in `/SKILL.md`.
 *
 * @example
 * ```ts
 * import { isSkillMdPath } from '@skillmount/core/storage-kit';
 *
 * isSkillMdPath('acme/refunds/SKILL.md'); // true
 * isSkillMdPath('acme/refunds/skill.md'); // false
 * ```
 * @throws Nothing.
 */
export const isSkillMdPath = (path: string): boolean => path === SKILL_MD || path.endsWith(`/${SKILL_MD}`);

/**
 * A name that starts with ".".
 *
 * @example
 * ```ts
 * import { isHiddenName } from '@skillmount/core/storage-kit';
 *
 * isHiddenName('.git'); // true
 * ```
 * @throws Nothing.
 */
export const isHiddenName = (name: string): boolean => name.startsWith('.');

/**
 * A path with any hidden segment (`''`, the root, is not hidden).
 *
 * @example
 * ```ts
 * import { isHiddenPath } from '@skillmount/core/storage-kit';
 *
 * isHiddenPath('refunds/.cache/data.json'); // true
 * isHiddenPath(''); // false
 * ```
 * @throws Nothing.
 */
export const isHiddenPath = (path: string): boolean => path.split('/').some(isHiddenName);

/**
 * A folder that becomes a skill folder when it holds a `SKILL.md` file: not the root, not hidden.
 *
 * @example
 * ```ts
 * import { canBeSkillFolder } from '@skillmount/core/storage-kit';
 *
 * canBeSkillFolder('acme/refunds'); // true
 * canBeSkillFolder(''); // false: the root is never a skill
 * ```
 * @throws Nothing.
 */
export const canBeSkillFolder = (dir: string): boolean => dir !== '' && !isHiddenPath(dir);

/**
 * The skill folder a `SKILL.md` path makes, or undefined (not a SKILL.md, at the root, or hidden).
 *
 * @example
 * ```ts
 * import { skillFolderOf } from '@skillmount/core/storage-kit';
 *
 * skillFolderOf('acme/refunds/SKILL.md'); // 'acme/refunds'
 * skillFolderOf('SKILL.md'); // undefined: at the root
 * ```
 * @throws Nothing.
 */
export function skillFolderOf(path: string): string | undefined {
  if (!isSkillMdPath(path)) return undefined;
  const dir = path.slice(0, Math.max(0, path.length - SKILL_MD.length - 1));
  return canBeSkillFolder(dir) ? dir : undefined;
}

/**
 * Every skill folder of a flat listing (its `SKILL.md` files).
 *
 * @example
 * ```ts
 * import { skillFoldersIn } from '@skillmount/core/storage-kit';
 *
 * const folders = skillFoldersIn([
 *   { path: 'refunds/SKILL.md', kind: 'file' },
 *   { path: 'refunds/notes.md', kind: 'file' },
 * ]); // Set { 'refunds' }
 * ```
 * @throws Nothing.
 */
export function skillFoldersIn(listing: Iterable<{ path: string; kind: string }>): Set<string> {
  const folders = new Set<string>();
  for (const item of listing) {
    if (item.kind !== 'file') continue;
    const folder = skillFolderOf(item.path);
    if (folder !== undefined) folders.add(folder);
  }
  return folders;
}

/**
 * The folders of `folders` that hold `path` (its ancestors among them), innermost first.
 *
 * @example
 * ```ts
 * import { skillFoldersHolding } from '@skillmount/core/storage-kit';
 *
 * skillFoldersHolding('a/b/c/notes.md', new Set(['a', 'a/b/c'])); // ['a/b/c', 'a']
 * ```
 * @throws Nothing.
 */
export function skillFoldersHolding(path: string, folders: ReadonlySet<string>): string[] {
  const holding: string[] = [];
  for (let i = path.lastIndexOf('/'); i > 0; i = path.lastIndexOf('/', i - 1)) {
    const dir = path.slice(0, i);
    if (folders.has(dir)) holding.push(dir);
  }
  return holding;
}

/**
 * True when a catalog reads this file: not hidden, and inside at least one of the skill folders.
 *
 * @example
 * ```ts
 * import { isSkillFile } from '@skillmount/core/storage-kit';
 *
 * const folders = new Set(['refunds']);
 * isSkillFile('refunds/templates/email.md', folders); // true
 * isSkillFile('refunds/.DS_Store', folders); // false: hidden
 * ```
 * @throws Nothing.
 */
export function isSkillFile(path: string, folders: ReadonlySet<string>): boolean {
  if (isHiddenPath(path)) return false;
  for (let i = path.lastIndexOf('/'); i > 0; i = path.lastIndexOf('/', i - 1)) if (folders.has(path.slice(0, i))) return true;
  return false;
}
