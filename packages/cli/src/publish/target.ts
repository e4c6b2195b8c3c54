import type { LocalFile } from './local.js';

/** A local file as a finished run left it stored, with its bytes when it is a SKILL.md (small, and kept by the S3 manifest). */
export interface StoredFile extends LocalFile {
  bytes?: Uint8Array;
}

/** What a destination says about one stored file, enough to tell whether it needs uploading. */
export interface RemoteFile {
  size: number;
  /** S3: the object's ETag, unquoted and lower-cased (the hex MD5 of the bytes for a single-part upload). */
  etag?: string;
  /** PostgreSQL: the `sha256:<hex>` the database computed from the stored bytes. */
  digest?: string;
}

/** A place `publish` writes to: one S3 prefix or one PostgreSQL namespace, and nothing outside it. */
export interface PublishTarget {
  /** Every file under the prefix or namespace whose name is a plain relative path, by path. */
  list(): Promise<Map<string, RemoteFile>>;
  /** True when the stored file already holds exactly these bytes. */
  same(remote: RemoteFile, bytes: Uint8Array): boolean;
  put(path: string, bytes: Uint8Array): Promise<void>;
  remove(path: string): Promise<void>;
  /** Optional: told, once a run that writes has finished, every local file the target now holds (S3 writes its manifest from it). */
  finish?(stored: StoredFile[]): Promise<void>;
}
