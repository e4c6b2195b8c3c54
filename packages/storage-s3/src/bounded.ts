import { GetObjectCommand, type GetObjectCommandOutput, type S3Client } from '@aws-sdk/client-s3';

/** What a bounded GET found: the bytes, or the size of an object larger than the limit (read no further); and its ETag. */
export type BoundedBody = ({ bytes: Uint8Array } | { tooLarge: number | undefined }) & { etag: string | undefined };

/**
 * Get at most `maxBytes + 1` bytes of an object: a ranged GET (`bytes=0-maxBytes`), and a body
 * cut off after `maxBytes + 1` bytes for a server that ignores the range. An object of zero
 * expected bytes is asked for whole (S3 answers 416 to any range over an empty object) and cut
 * off the same way. An object whose headers already say it is larger is refused before any of its
 * body is read. With `ifNoneMatch`, a 304 is the SDK's error, as for a whole GET. `beforeBody` runs
 * once the headers allowed the body, before it is read (it may wait). Errors are the SDK's own.
 */
export async function getBounded(
  client: S3Client,
  bucket: string,
  key: string,
  maxBytes: number,
  ifNoneMatch?: string,
  beforeBody?: (size: number | undefined) => Promise<void>,
): Promise<BoundedBody> {
  const range = maxBytes > 0 ? { Range: `bytes=0-${maxBytes}` } : {};
  const condition = ifNoneMatch === undefined ? {} : { IfNoneMatch: ifNoneMatch };
  const result = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key, ...range, ...condition }));
  if (!result.Body) throw new Error('the response had no body');
  const body = result.Body as AsyncIterable<Uint8Array> & { destroy?(): void };
  const etag = result.ETag;
  const size = objectSize(result);
  if (size !== undefined && size > maxBytes) {
    body.destroy?.();
    return { tooLarge: size, etag };
  }
  if (beforeBody) {
    try {
      await beforeBody(size);
    } catch (error) {
      body.destroy?.();
      throw error;
    }
  }
  return readBody(body, maxBytes, size, etag);
}

async function readBody(body: AsyncIterable<Uint8Array> & { destroy?(): void }, maxBytes: number, size: number | undefined, etag: string | undefined) {
  const chunks: Uint8Array[] = [];
  let received = 0;
  for await (const chunk of body) {
    received += chunk.byteLength;
    if (received > maxBytes) {
      body.destroy?.(); // no more of a body we refuse
      return { tooLarge: size, etag };
    }
    chunks.push(chunk);
  }
  // One exact array of its own (not a view into a shared pool), like a whole read.
  const bytes = new Uint8Array(received);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return { bytes, etag };
}

/** The whole object's size: the total of `Content-Range` (a ranged answer), else `Content-Length`. */
function objectSize(result: GetObjectCommandOutput): number | undefined {
  const total = /\/(\d+)$/.exec(result.ContentRange ?? '')?.[1];
  if (total !== undefined) return Number(total);
  return result.ContentRange === undefined ? result.ContentLength : undefined;
}
