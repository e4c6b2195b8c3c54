import { StorageError } from './storage-error.js';

/** What failed, where: the parts of every storage error message. */
export interface StorageFailure {
  /** What was attempted, e.g. `cannot read`, `cannot list`. */
  action: string;
  /** The storage path, relative to its root (`''` = the root). */
  path: string;
  /** Where the storage keeps it, e.g. `(/srv/skills/a/SKILL.md)` or `in PostgreSQL table t, namespace "x"`. */
  where?: string;
  /** Why, in words a user can act on. */
  reason: string;
  cause?: unknown;
  /** What callers branch on, e.g. `'too-large'`. */
  code?: string;
}

/**
 * A `StorageError` reading `<action> "<path>" <where>: <reason>`, with the path (the root shown
 * as `(root)`), the cause and the code, so every storage names what failed the same way.
 *
 * @example
 * ```ts
 * import { storageError } from '@skillmount/core/storage-kit';
 *
 * throw storageError({ action: 'cannot read', path: 'refunds/SKILL.md', where: 'in bucket skills', reason: 'access denied', code: 'denied' });
 * // StorageError: cannot read "refunds/SKILL.md" in bucket skills: access denied
 * ```
 * @throws Nothing: it returns the error for the caller to throw.
 */
export function storageError(failure: StorageFailure): StorageError {
  const { action, path, where, reason, cause, code } = failure;
  const message = `${action} "${path || '(root)'}"${where ? ` ${where}` : ''}: ${reason}`;
  return new StorageError(message, path, { ...(cause === undefined ? {} : { cause }), ...(code === undefined ? {} : { code }) });
}

/**
 * `error` when it is a `StorageError` already, else one saying `<action> "<path>": <its message>`, with it as the cause.
 *
 * @example
 * ```ts
 * import { readFile } from 'node:fs/promises';
 * import { toStorageError } from '@skillmount/core/storage-kit';
 *
 * try {
 *   await readFile('/srv/skills/refunds/SKILL.md');
 * } catch (error) {
 *   throw toStorageError(error, 'cannot read', 'refunds/SKILL.md');
 * }
 * ```
 * @throws Nothing: it returns the error for the caller to throw.
 */
export function toStorageError(error: unknown, action: string, path: string): StorageError {
  if (error instanceof StorageError) return error;
  return storageError({ action, path, reason: String((error as Error)?.message ?? error), cause: error });
}
