import { storageError as kitError, type StorageError } from '@skillmount/core/storage-kit';

/** A StorageError for a failed system call, with the usual causes said plainly. */
export function storageError(action: string, relative: string, full: string, error: unknown): StorageError {
  const code = (error as NodeJS.ErrnoException)?.code;
  const hint =
    code === 'ENOENT'
      ? 'no such file or folder'
      : code === 'ELOOP'
        ? 'it is a symlink, which is not served'
        : code === 'ENOTDIR'
          ? 'a parent is not a folder'
          : ((error as Error)?.message ?? String(error));
  // Coded so callers can tell "nothing there" (a tenant's folder never created) from a failure.
  return kitError({ action, path: relative, where: `(${full})`, reason: hint, cause: error, ...(code === 'ENOENT' ? { code: 'not-found' } : {}) });
}

/** A file larger than the caller's `maxBytes`. */
export function tooLarge(relative: string, full: string, maxBytes: number, seen: string): StorageError {
  const hint = 'if that is the size it was listed with, it changed since: reload to serve it';
  const reason = `it is ${seen}, larger than the ${maxBytes} bytes expected (maxBytes); ${hint}`;
  return kitError({ action: 'cannot read', path: relative, where: `(${full})`, reason, code: 'too-large' });
}
