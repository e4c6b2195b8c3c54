import { sha256Digest } from '@skillmount/core';
import type { PostgresStorage } from '@skillmount/storage-postgres';
import type { PublishTarget, RemoteFile } from './target.js';

/**
 * Publishing into one namespace of a PostgreSQL storage through its own `put` and `remove`. A
 * file is unchanged when the row's size and `sha256` (computed by the database from the stored
 * bytes) equal the file's. The listing is the storage's `listAll`, which covers this namespace
 * only; rows whose path is not a plain relative path come back as `unsupported` and are left alone.
 */
export function postgresTarget(storage: PostgresStorage, options: { missingTableIsEmpty: boolean }): PublishTarget {
  return {
    async list() {
      const files = new Map<string, RemoteFile>();
      let listing;
      try {
        listing = await storage.listAll();
      } catch (error) {
        // A dry run does not create the table: no table, nothing stored yet.
        if (options.missingTableIsEmpty && driverCode(error) === '42P01') return files;
        throw error;
      }
      for (const item of listing) {
        if (item.kind === 'file') files.set(item.path, { size: item.size ?? -1, ...(item.digest !== undefined ? { digest: item.digest } : {}) });
      }
      return files;
    },

    same(remote, bytes) {
      return remote.size === bytes.byteLength && remote.digest === sha256Digest(bytes);
    },

    async put(path, bytes) {
      await storage.put(path, bytes);
    },

    async remove(path) {
      await storage.remove(path);
    },
  };
}

function driverCode(error: unknown): unknown {
  return (error as { cause?: { code?: unknown } })?.cause?.code;
}
