import { storageError as kitError, StorageError } from '@skillmount/core/storage-kit';

/** Which table and namespace an error is about. */
export interface Scope {
  display: string;
  namespace: string;
}

/** A StorageError naming the table, namespace and path, e.g. `cannot read "a/b.md" in PostgreSQL table t, namespace "x": …`. */
export function storageError(scope: Scope, action: string, path: string, reason: string, cause?: unknown, code?: string): StorageError {
  return kitError({ action, path, where: `in PostgreSQL table ${scope.display}, namespace ${JSON.stringify(scope.namespace)}`, reason, cause, code });
}

/** A StorageError about the table and namespace as a whole (watching, pooled connections). */
export function tableError(scope: Scope, reason: string, cause?: unknown): StorageError {
  const message = `PostgreSQL table ${scope.display}, namespace ${JSON.stringify(scope.namespace)}: ${reason}`;
  return new StorageError(message, '', cause === undefined ? undefined : { cause });
}

/** A failed query as a StorageError, with a hint for the mistakes people make first. */
export function queryError(scope: Scope, action: string, path: string, error: unknown): StorageError {
  const code = (error as { code?: unknown })?.code;
  const reason = (error as Error)?.message ?? String(error);
  const hint =
    code === '42P01'
      ? '; create the table once with `await storage.migrate()` (or migrate(pool, { table }))'
      : code === '42703'
        ? '; the table lacks a column this storage needs: was it created by migrate()?'
        : '';
  return storageError(scope, action, path, reason + hint, error);
}
