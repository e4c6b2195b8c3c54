import { brand, isBranded } from '../brand.js';

/**
 * A storage operation failed; names the storage path and keeps the cause.
 *
 * @example
 * ```ts
 * import { StorageError } from '@skillmount/core';
 *
 * try {
 *   // … a storage's readFile()
 * } catch (error) {
 *   if (error instanceof StorageError && error.code === 'not-found') console.error(`${error.path} is gone`);
 * }
 * ```
 * @throws Nothing: the constructor only records the message, path, code and cause.
 */
export class StorageError extends Error {
  readonly path: string;
  /**
   * What callers may branch on, when a storage says: `'too-large'` for a read refused under
   * `maxBytes` (the file is larger than it was listed: it changed since); `'not-found'` for a
   * path that does not exist (with `path: ''`, the storage's root itself: a folder never created).
   */
  readonly code?: string;
  constructor(message: string, path: string, options?: { cause?: unknown; code?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'StorageError';
    this.path = path;
    if (options?.code !== undefined) this.code = options.code;
  }
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isBranded(this, value);
  }
  static {
    brand(this, '@skillmount/core/StorageError');
  }
}
