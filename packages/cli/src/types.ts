/**
 * Public types of the skillmount CLI package. Everything a user names in their own code is declared here.
 */
import type { FsStorage } from '@skillmount/storage-fs';
import type { PostgresStorage } from '@skillmount/storage-postgres';
import type { S3Storage } from '@skillmount/storage-s3';

/** A storage location as given on the command line, parsed but not opened. */
export type Location =
  | { kind: 'folder'; path: string; label: string }
  | { kind: 's3'; bucket: string; prefix: string; label: string }
  | {
      kind: 'postgres';
      /** The connection string without its `#namespace` fragment. */
      connectionString: string;
      namespace: string;
      /** The location without its password, for messages. */
      label: string;
    };

export interface OpenStorageOptions {
  /** PostgreSQL only: the table (`--table`). Default the storage package's default, `skillmount_files`. */
  table?: string;
  /** S3 only: how often a watch lists the prefix (`--poll-interval`), in milliseconds. Default 30000. */
  pollIntervalMs?: number;
  /**
   * S3 only, with the manifest `publish` writes: the longest a reload or a watch poll goes without
   * listing the whole prefix (`--full-list-interval`), in milliseconds. `0` lists on every reload,
   * `Infinity` only when the manifest changes. Default 300000 (5 minutes).
   */
  fullListIntervalMs?: number;
  /** PostgreSQL only: create the table when missing (`migrate()`), as `publish` does. Default false. */
  migrate?: boolean;
  /**
   * Problems nobody awaits (a failed S3 poll, a dropped LISTEN connection that is being retried),
   * each as it happens, credentials masked. Default: a warning line on stderr, the same message
   * at most once a minute.
   */
  onError?: (message: string) => void;
}

interface OpenedCommon {
  /** The location without credentials, for messages. */
  label: string;
  /** Release what opening created (connections, clients, watchers). Safe to call twice. */
  close(): Promise<void>;
  /**
   * An error from loading skills out of this storage, restated for the command line: it names the
   * location (without credentials) and says what to do (a missing table: run `publish` first).
   */
  explain(error: unknown, action?: string): Error;
}

/** A storage opened from a command-line location. */
export type OpenedStorage =
  | (OpenedCommon & { kind: 'folder'; storage: FsStorage })
  | (OpenedCommon & { kind: 's3'; storage: S3Storage })
  | (OpenedCommon & { kind: 'postgres'; storage: PostgresStorage });
