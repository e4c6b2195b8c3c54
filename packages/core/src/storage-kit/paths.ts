/**
 * The path rules every storage keeps. Paths are relative to the storage root, `/`-separated,
 * with `''` as the root; a segment that could step out of the root or name something else on
 * another system (`.`, `..`, a backslash, NUL) is never part of one.
 */

/**
 * Why `segment` cannot be one segment of a relative path, or undefined when it can: empty, `.` or
 * `..`, or containing `/`, a backslash or NUL. A phrase to put in parentheses after the path.
 *
 * @example
 * ```ts
 * import { plainSegmentProblem } from '@skillmount/core/storage-kit';
 *
 * plainSegmentProblem('notes.md'); // undefined
 * plainSegmentProblem('..'); // '".." segment'
 * ```
 * @throws Nothing: every problem is the returned phrase.
 */
export function plainSegmentProblem(segment: string): string | undefined {
  if (segment.length === 0) return 'empty path segment';
  if (segment === '.' || segment === '..') return `"${segment}" segment`;
  if (segment.includes('/')) return 'a "/" inside a name';
  if (segment.includes('\\')) return 'a backslash';
  if (segment.includes('\0')) return 'a NUL character';
  return undefined;
}

/**
 * A segment of a relative path: see `plainSegmentProblem`.
 *
 * @example
 * ```ts
 * import { isPlainSegment } from '@skillmount/core/storage-kit';
 *
 * isPlainSegment('refunds'); // true
 * isPlainSegment('a\\b'); // false
 * ```
 * @throws Nothing.
 */
export const isPlainSegment = (segment: string): boolean => plainSegmentProblem(segment) === undefined;

/**
 * A name that stands for exactly one path segment: not empty, `.` or `..`, no `/`. Looser than
 * `isPlainSegment`: what a catalog accepts from a listing as a child's name, so that a name with a
 * backslash or NUL is reported for what it holds rather than walked into or dropped.
 */
export const isSingleSegment = (name: string): boolean => name.length > 0 && name !== '.' && name !== '..' && !name.includes('/');

/**
 * Why `path` is not a relative path of plain segments, or undefined when it is. The root `''` is
 * one only with `root: true` (a folder to list); a file path never is.
 *
 * @example
 * ```ts
 * import { plainPathProblem } from '@skillmount/core/storage-kit';
 *
 * plainPathProblem('refunds/SKILL.md'); // undefined
 * plainPathProblem('', { root: true }); // undefined: the root, as a folder to list
 * plainPathProblem('refunds//SKILL.md'); // 'empty path segment'
 * ```
 * @throws Nothing: every problem is the returned phrase.
 */
export function plainPathProblem(path: unknown, options: { root?: boolean } = {}): string | undefined {
  if (typeof path !== 'string') return `a path must be a string, not ${path === null ? 'null' : typeof path}`;
  if (path === '') return options.root ? undefined : 'the root "" is not a file';
  for (const segment of path.split('/')) {
    const problem = plainSegmentProblem(segment);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * A relative, `/`-separated path of plain segments; the root `''` only with `root: true`.
 *
 * @example
 * ```ts
 * import { isPlainPath } from '@skillmount/core/storage-kit';
 *
 * isPlainPath('refunds/SKILL.md'); // true
 * isPlainPath('../secrets'); // false
 * ```
 * @throws Nothing.
 */
export const isPlainPath = (path: unknown, options: { root?: boolean } = {}): path is string => plainPathProblem(path, options) === undefined;

/**
 * `dir/name` (`name` alone in the root). Built with join, which makes one flat string: a template
 * literal makes a rope, and a catalog keeps one path per file, where the rope would stay beside
 * its flattened copy.
 *
 * @example
 * ```ts
 * import { joinPath } from '@skillmount/core/storage-kit';
 *
 * joinPath('', 'refunds'); // 'refunds'
 * joinPath('refunds', 'SKILL.md'); // 'refunds/SKILL.md'
 * ```
 * @throws Nothing.
 */
export const joinPath = (dir: string, name: string): string => (dir === '' ? name : [dir, name].join('/'));
