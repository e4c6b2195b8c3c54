import { ListObjectsV2Command, type ListObjectsV2CommandOutput, type S3Client } from '@aws-sdk/client-s3';
import { StorageError } from '@skillmount/core/storage-kit';
import { describeS3Error, s3Url } from './errors.js';

export interface ListTarget {
  client: S3Client;
  bucket: string;
  maxKeys: number;
}

/**
 * Every page of a `ListObjectsV2` of `prefix` (flat, or one folder level with `delimiter`),
 * following continuation tokens: about keys / maxKeys requests.
 */
export async function listPages(target: ListTarget, prefix: string, delimiter?: string): Promise<ListObjectsV2CommandOutput[]> {
  const pages: ListObjectsV2CommandOutput[] = [];
  let token: string | undefined;
  do {
    let page: ListObjectsV2CommandOutput;
    try {
      page = await target.client.send(
        new ListObjectsV2Command({
          Bucket: target.bucket,
          ...(prefix === '' ? {} : { Prefix: prefix }),
          ...(delimiter === undefined ? {} : { Delimiter: delimiter }),
          MaxKeys: target.maxKeys,
          ...(token === undefined ? {} : { ContinuationToken: token }),
        }),
      );
    } catch (error) {
      throw new StorageError(`cannot list ${s3Url(target.bucket, prefix)}: ${describeS3Error(error)}`, prefix, { cause: error });
    }
    pages.push(page);
    if (page.IsTruncated && !page.NextContinuationToken) {
      // Without a token the next request would repeat the first page forever.
      throw new StorageError(`cannot list ${s3Url(target.bucket, prefix)}: the server said the listing is truncated but gave no continuation token`, prefix);
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token !== undefined);
  return pages;
}
