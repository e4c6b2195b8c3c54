import type { S3Client } from '@aws-sdk/client-s3';
import { OptionError, type OptionErrorCode, type StorageError } from '@skillmount/core/catalog';
import { isPlainSegment } from '@skillmount/core/storage-kit';
import { DEFAULT_MAX_MANIFEST_BYTES } from './manifest-decode.js';
import type { S3StorageOptions } from './types.js';

const NAME = '@skillmount/storage-s3';

/** Options checked once, with defaults applied. */
export interface NormalizedOptions {
  bucket: string;
  prefix: string;
  client: S3Client | undefined;
  clientConfig: Pick<S3StorageOptions, 'region' | 'endpoint' | 'forcePathStyle' | 'credentials' | 'checksums'>;
  pollIntervalMs: number;
  fullListIntervalMs: number;
  maxManifestBytes: number;
  maxKeys: number;
  onError: ((error: StorageError) => void) | undefined;
}

// Options that only shape the client the storage creates; with the user's own client they would be ignored.
const CLIENT_OPTIONS = ['region', 'endpoint', 'forcePathStyle', 'credentials', 'checksums'] as const;

export function normalizeOptions(options: S3StorageOptions): NormalizedOptions {
  if (!options || typeof options !== 'object') fail('invalid-type', '', 'must be an object, e.g. s3Storage({ bucket: "skills" })');
  const { bucket, prefix = '', client, pollIntervalMs = 30_000, fullListIntervalMs = 300_000, maxKeys = 1000, onError } = options;
  const { maxManifestBytes = DEFAULT_MAX_MANIFEST_BYTES } = options;

  // Bucket names are 3–63 characters on AWS, but other S3-protocol servers are looser: only refuse what can never work.
  if (bucket === undefined) fail('missing-option', 'bucket', 'must be a non-empty string, e.g. s3Storage({ bucket: "skills" }); none was given');
  if (typeof bucket !== 'string') fail('invalid-type', 'bucket', 'must be a non-empty string, e.g. s3Storage({ bucket: "skills" })');
  if (bucket.trim() === '') fail('invalid-value', 'bucket', 'must be a non-empty string, e.g. s3Storage({ bucket: "skills" })');
  if (bucket.includes('/')) fail('invalid-value', 'bucket', `must be a bucket name without "/" (got "${bucket}"); put the folder in "prefix" instead`);

  if (typeof prefix !== 'string') fail('invalid-type', 'prefix', 'must be a string such as "skills/"');
  const folder = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  if (folder !== '') {
    if (!folder.split('/').every(isPlainSegment)) {
      fail('invalid-value', 'prefix', `must be a folder of plain "/"-separated names, without a leading "/" or "", ".", ".." segments (got "${prefix}")`);
    }
  }

  if (client !== undefined) {
    if (!client || typeof (client as S3Client).send !== 'function') fail('invalid-type', 'client', 'must be an S3Client from @aws-sdk/client-s3');
    const conflicting = CLIENT_OPTIONS.filter((key) => options[key] !== undefined);
    if (conflicting.length > 0) {
      fail(
        'conflicting-options',
        conflicting[0]!,
        `configures the client s3Storage creates${
          conflicting.length > 1
            ? ` (as do ${conflicting
                .slice(1)
                .map((k) => `"${k}"`)
                .join(', ')})`
            : ''
        }; with your own "client", set it on that client instead`,
      );
    }
  }
  if (options.endpoint !== undefined) {
    if (typeof options.endpoint !== 'string')
      fail('invalid-type', 'endpoint', `must be a URL such as "http://127.0.0.1:9000" (got ${JSON.stringify(options.endpoint)})`);
    if (!URL.canParse(options.endpoint))
      fail('invalid-value', 'endpoint', `must be a URL such as "http://127.0.0.1:9000" (got ${JSON.stringify(options.endpoint)})`);
  }
  if (options.region !== undefined && (typeof options.region !== 'string' || options.region === '')) {
    fail(typeof options.region === 'string' ? 'invalid-value' : 'invalid-type', 'region', 'must be a non-empty string such as "eu-west-1"');
  }
  if (options.forcePathStyle !== undefined && typeof options.forcePathStyle !== 'boolean') fail('invalid-type', 'forcePathStyle', 'must be true or false');
  if (options.checksums !== undefined && options.checksums !== 'WHEN_SUPPORTED' && options.checksums !== 'WHEN_REQUIRED') {
    fail(
      typeof options.checksums === 'string' ? 'invalid-value' : 'invalid-type',
      'checksums',
      `must be "WHEN_SUPPORTED" or "WHEN_REQUIRED" (got ${JSON.stringify(options.checksums)})`,
    );
  }

  if (typeof pollIntervalMs !== 'number' || !Number.isFinite(pollIntervalMs) || pollIntervalMs <= 0) {
    fail(numberProblem(pollIntervalMs), 'pollIntervalMs', `must be a positive number of milliseconds (got ${JSON.stringify(pollIntervalMs)})`);
  }
  if (typeof fullListIntervalMs !== 'number' || Number.isNaN(fullListIntervalMs) || fullListIntervalMs < 0) {
    fail(
      numberProblem(fullListIntervalMs),
      'fullListIntervalMs',
      `must be a number of milliseconds from 0 (list on every reload) to Infinity (only when the manifest changes) (got ${JSON.stringify(fullListIntervalMs)})`,
    );
  }
  if (typeof maxManifestBytes !== 'number' || !Number.isSafeInteger(maxManifestBytes) || maxManifestBytes < 1) {
    fail(numberProblem(maxManifestBytes), 'maxManifestBytes', `must be a whole number of bytes, 1 or more (got ${JSON.stringify(maxManifestBytes)})`);
  }
  if (!Number.isInteger(maxKeys) || maxKeys < 1 || maxKeys > 1000)
    fail(numberProblem(maxKeys), 'maxKeys', `must be an integer from 1 to 1000 (got ${JSON.stringify(maxKeys)})`);
  if (onError !== undefined && typeof onError !== 'function') fail('invalid-type', 'onError', 'must be a function');

  const clientConfig: NormalizedOptions['clientConfig'] = {};
  for (const key of CLIENT_OPTIONS) if (options[key] !== undefined) (clientConfig as Record<string, unknown>)[key] = options[key];

  return { bucket, prefix: folder === '' ? '' : `${folder}/`, client, clientConfig, pollIntervalMs, fullListIntervalMs, maxManifestBytes, maxKeys, onError };
}

const numberProblem = (value: unknown): OptionErrorCode => (typeof value === 'number' ? 'invalid-value' : 'invalid-type');

function fail(code: OptionErrorCode, option: string, message: string): never {
  throw new OptionError(code, option, message, NAME);
}
