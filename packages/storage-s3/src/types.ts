/**
 * Public types of @skillmount/storage-s3.
 */
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import type { SkillFiles, StorageError } from '@skillmount/core/storage-kit';

export interface S3StorageOptions {
  /**
   * Your own configured client. It stays yours: `close()` never destroys it. Without it the
   * storage creates one from `region`, `endpoint`, `forcePathStyle`, `credentials` and
   * `checksums` (or the AWS SDK's standard environment) and destroys it on `close()`.
   */
  client?: S3Client;
  /** The bucket holding the skills. */
  bucket: string;
  /**
   * Key prefix of the skills tree: `skills` and `skills/` both serve the keys under `skills/`.
   * Default: the whole bucket.
   */
  prefix?: string;
  /** Region of the client the storage creates. Default: `AWS_REGION`, the AWS config file, or `us-east-1` with a custom endpoint. */
  region?: string;
  /** Endpoint of an S3-protocol server (MinIO, …). Default: `AWS_ENDPOINT_URL_S3`, then `AWS_ENDPOINT_URL`, else AWS. */
  endpoint?: string;
  /** Path-style addressing (`endpoint/bucket/key`). Default: `true` when a custom endpoint is in use. */
  forcePathStyle?: boolean;
  /** Credentials of the client the storage creates. Default: the AWS SDK's credential chain. */
  credentials?: S3ClientConfig['credentials'];
  /**
   * Checksum behaviour of the client the storage creates: `'WHEN_SUPPORTED'` (the SDK's default)
   * or `'WHEN_REQUIRED'` for S3-protocol servers that do not handle the SDK's default checksums.
   */
  checksums?: 'WHEN_SUPPORTED' | 'WHEN_REQUIRED';
  /**
   * How often `watch` looks for changes, in milliseconds: with a manifest, one conditional GET of
   * it (a listing only when it changed); without, a listing of the prefix. Default 30000.
   */
  pollIntervalMs?: number;
  /**
   * With a manifest, the longest a reload or a watch poll goes without listing the whole prefix, in
   * milliseconds. Between full listings a reload asks only whether the manifest changed (one
   * conditional GET), so an object written by another tool without a manifest rewrite is seen
   * after at most this long. `0` lists on every reload (the manifest still spares the reads);
   * `Infinity` lists only when the manifest changes. No effect without a manifest, where every
   * reload lists. Default 300000 (5 minutes).
   */
  fullListIntervalMs?: number;
  /**
   * The largest manifest read, in bytes. A larger one is not fetched past its headers (anyone who
   * can write to the bucket could plant one of any size): `onError` hears why, and the files are
   * read without it. Default 67108864 (64 MiB): 100 000 entries, the most a manifest may hold,
   * × 671 bytes, the largest plausible entry (see the README).
   */
  maxManifestBytes?: number;
  /** Keys per `ListObjectsV2` page, 1–1000. Default 1000 (the most S3 returns). */
  maxKeys?: number;
  /**
   * Called when a `watch` poll fails (polling goes on), and when a listing finds the manifest
   * unusable or out of date (the files are then read without it). Default: `console.warn`.
   */
  onError?: (error: StorageError) => void;
}

/** An S3 prefix as skill storage: every `SkillFiles` method, optional ones included. */
export interface S3Storage extends Required<Pick<SkillFiles, 'list' | 'read' | 'listAll' | 'treeToken' | 'watch' | 'close'>> {
  readonly bucket: string;
  /** The normalised key prefix: `''` or ending in `/`. */
  readonly prefix: string;
  /** The client in use (yours, or the one the storage created). */
  readonly client: S3Client;
  /** `s3://<bucket>/<prefix>`, as messages name the storage. */
  readonly label: string;
  readonly kind: 's3';
  /**
   * Read every object under the prefix (16 at a time), hash it, and write the manifest
   * (`<prefix>.skillmount/manifest.json`) so catalog builds need the listing and one GET. Hidden
   * paths and unsupported keys are left out. Resolves with the number of files recorded and the
   * manifest's size in bytes.
   */
  writeManifest(): Promise<{ files: number; bytes: number }>;
}
