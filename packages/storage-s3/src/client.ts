import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import type { NormalizedOptions } from './options.js';

/**
 * The client the storage creates when none is given. Region and credentials come from the
 * options or, as with any AWS SDK client, from the standard environment and config files. A
 * custom endpoint (option, `AWS_ENDPOINT_URL_S3` or `AWS_ENDPOINT_URL`) turns on path-style
 * addressing, which MinIO and most S3-protocol servers need, and defaults the region to
 * `us-east-1` when none is configured.
 */
export function createClient(config: NormalizedOptions['clientConfig'], env: NodeJS.ProcessEnv = process.env): S3Client {
  const ignoreEnvEndpoint = env.AWS_IGNORE_CONFIGURED_ENDPOINT_URLS?.toLowerCase() === 'true';
  const endpoint = config.endpoint ?? (ignoreEnvEndpoint ? undefined : env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || undefined);
  const settings: S3ClientConfig = {};
  if (endpoint !== undefined) settings.endpoint = endpoint;
  const region = config.region ?? (endpoint !== undefined && !env.AWS_REGION ? 'us-east-1' : undefined);
  if (region !== undefined) settings.region = region;
  const forcePathStyle = config.forcePathStyle ?? (endpoint !== undefined ? true : undefined);
  if (forcePathStyle !== undefined) settings.forcePathStyle = forcePathStyle;
  if (config.credentials !== undefined) settings.credentials = config.credentials;
  if (config.checksums !== undefined) {
    settings.requestChecksumCalculation = config.checksums;
    settings.responseChecksumValidation = config.checksums;
  }
  return new S3Client(settings);
}
