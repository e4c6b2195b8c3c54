import { GetObjectCommand } from '@aws-sdk/client-s3';
import {
  isPlainSegment,
  type SkillFileEntry,
  type SkillFileListing,
  type SkillFileReadOptions,
  type StorageError,
  storageError,
} from '@skillmount/core/storage-kit';
import { getBounded } from './bounded.js';
import { describeS3Error, s3Url } from './errors.js';
import { classifyObject, tokenOf } from './keys.js';
import { type ListTarget, listPages } from './listing.js';

/** The bucket, the prefix under it, and where problems that are reported rather than thrown go. */
export interface Prefix extends ListTarget {
  prefix: string;
  report: (error: StorageError) => void;
}

/** The prefix listed flat, and each file's ETag as listed: what manifest entries are matched against. */
export interface PrefixListing {
  listing: SkillFileListing[];
  etags: Map<string, string | undefined>;
}

/** One object's bytes and the ETag that goes with exactly these bytes. Errors are the SDK's own. */
export async function getObject({ client, bucket }: Prefix, key: string): Promise<{ bytes: Uint8Array; etag: string | undefined }> {
  const result = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  if (!result.Body) throw new Error('the response had no body');
  return { bytes: await result.Body.transformToByteArray(), etag: result.ETag };
}

/** Every key under the prefix, with one `ListObjectsV2` per 1000 (or `maxKeys`) keys. */
export async function listPrefix(at: Prefix): Promise<PrefixListing> {
  const listing: SkillFileListing[] = [];
  const etags = new Map<string, string | undefined>();
  for (const page of await listPages(at, at.prefix)) {
    for (const object of page.Contents ?? []) {
      const item = classifyObject(object, at.prefix);
      if (!item) continue;
      listing.push(item);
      if (item.kind === 'file') etags.set(item.path, object.ETag);
    }
  }
  return { listing, etags };
}

/** One folder level with a Delimiter listing: for a `list(dir)` outside a walk. */
export async function listFolder(at: Prefix, dir: string): Promise<SkillFileEntry[]> {
  const { prefix, bucket } = at;
  const folderPrefix = dir === '' ? prefix : `${prefix}${dir}/`;
  const entries = new Map<string, SkillFileEntry>();
  let found = false;
  for (const page of await listPages(at, folderPrefix, '/')) {
    for (const common of page.CommonPrefixes ?? []) {
      if (!common.Prefix?.startsWith(folderPrefix)) continue;
      found = true;
      const rest = common.Prefix.slice(folderPrefix.length);
      const name = rest.slice(0, -1);
      entries.set(isPlainSegment(name) ? name : rest, isPlainSegment(name) ? { name, kind: 'directory' } : { name: rest, kind: 'unsupported' });
    }
    for (const object of page.Contents ?? []) {
      if (!object.Key?.startsWith(folderPrefix)) continue;
      found = true;
      const name = object.Key.slice(folderPrefix.length);
      if (name === '') continue; // the folder's own marker
      if (entries.get(name)?.kind === 'directory') continue;
      entries.set(
        name,
        isPlainSegment(name) ? { name, kind: 'file', token: tokenOf(object.ETag, object.Size), size: object.Size ?? 0 } : { name, kind: 'unsupported' },
      );
    }
  }
  if (!found && dir !== '') {
    throw storageError({
      action: 'cannot list',
      path: dir,
      where: `(${s3Url(bucket, folderPrefix)})`,
      reason: `no such folder (no key starts with "${folderPrefix}")`,
    });
  }
  return [...entries.values()];
}

/** `maxBytes` when it is a byte count; anything else bounds nothing. */
const byteCount = (n: unknown): number | undefined => (typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined);

/** One object's bytes; with `maxBytes`, no more than one byte past it is fetched. */
export async function readObject(at: Prefix, path: string, options?: SkillFileReadOptions): Promise<Uint8Array> {
  const key = at.prefix + path;
  const where = `(${s3Url(at.bucket, key)})`;
  const maxBytes = byteCount(options?.maxBytes);
  let bounded: Awaited<ReturnType<typeof getBounded>>;
  try {
    if (maxBytes === undefined) return (await getObject(at, key)).bytes;
    bounded = await getBounded(at.client, at.bucket, key, maxBytes);
  } catch (error) {
    throw storageError({ action: 'cannot read', path, where, reason: describeS3Error(error), cause: error });
  }
  if ('bytes' in bounded) return bounded.bytes;
  const seen = bounded.tooLarge === undefined ? `more than ${maxBytes}` : String(bounded.tooLarge);
  throw storageError({
    action: 'cannot read',
    path,
    where,
    reason:
      `the object is ${seen} bytes, larger than the ${maxBytes} it was listed with (it was replaced since); ` +
      `only the first ${maxBytes + 1} bytes were fetched. Reload the catalog (a watch does it on its next poll) to publish the new object`,
    code: 'too-large',
  });
}
