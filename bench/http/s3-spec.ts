import { s3Storage } from '@skillmount/storage-s3';
import type { S3Spec } from './types.js';

/** A storage of its own over the loopback S3-protocol server, as a separate process would open it. */
export function s3StorageOf(spec: S3Spec) {
  return s3Storage({
    bucket: spec.bucket,
    endpoint: spec.endpoint,
    region: spec.region,
    credentials: { accessKeyId: spec.accessKeyId, secretAccessKey: spec.secretAccessKey },
    // The loopback server does not understand the AWS SDK's default checksum trailers.
    checksums: 'WHEN_REQUIRED',
  });
}
