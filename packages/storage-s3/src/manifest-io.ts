import { PutObjectCommand } from '@aws-sdk/client-s3';
import { sha256Digest } from '@skillmount/core/catalog';
import { isHiddenPath, isSkillMdPath, type ListAllOptions, mapLimit, type SkillFileListing, StorageError } from '@skillmount/core/storage-kit';
import { describeS3Error, s3Url } from './errors.js';
import { encodeManifest, filesToVouch, MANIFEST_PATH, type ManifestFile, vouch } from './manifest.js';
import { type ManifestFeed, manifestUrl } from './manifest-feed.js';
import { getObject, type Prefix, type PrefixListing } from './prefix.js';

/** GETs at a time while `writeManifest` reads every object. */
const MANIFEST_READS = 16;

/** The flat listing, with the size, digest and SKILL.md bytes the manifest vouches for filled in. */
export async function listVouched(at: Prefix, feed: ManifestFeed, listed: PrefixListing, options?: ListAllOptions): Promise<SkillFileListing[]> {
  const { listing, etags } = listed;
  const wanted = filesToVouch(listing, options?.known);
  // Nothing the caller does not already hold, or no manifest listed: the listing alone, no GET.
  if (wanted.length === 0 || !etags.has(MANIFEST_PATH)) return listing;
  // The copy the tree token fetched when it is the listed one; else one GET (problems are reported, never thrown).
  const manifest = await feed.entries(etags.get(MANIFEST_PATH));
  if (manifest === undefined || manifest === 'unusable') return listing;
  const stale: string[] = [];
  for (const item of wanted) {
    const vouched = vouch(manifest.get(item.path), etags.get(item.path), item.size ?? 0, item.path);
    if (vouched === 'stale') stale.push(item.path);
    else if (vouched) Object.assign(item, vouched);
  }
  if (stale.length > 0) at.report(staleManifest(at, stale));
  return listing;
}

function staleManifest(at: Prefix, stale: string[]): StorageError {
  const shown =
    stale
      .slice(0, 3)
      .map((p) => `"${p}"`)
      .join(', ') + (stale.length > 3 ? `, and ${stale.length - 3} more` : '');
  const one = stale.length === 1;
  return new StorageError(
    `the manifest ${manifestUrl(at)} is out of date: ${stale.length} ${one ? 'file was' : 'files were'} rewritten since it was written (${shown}) ` +
      `and ${one ? 'is' : 'are'} read instead. To bring it up to date, run skillmount publish again (or call writeManifest() on the storage)`,
    MANIFEST_PATH,
  );
}

/** Read every object under the prefix and write the manifest that vouches for them. */
export async function writeManifest(at: Prefix, listed: PrefixListing): Promise<{ files: number; bytes: number }> {
  const files = listed.listing.filter((item) => item.kind === 'file' && !isHiddenPath(item.path));
  const record = async ({ path }: SkillFileListing): Promise<ManifestFile | undefined> => {
    const key = at.prefix + path;
    let object: Awaited<ReturnType<typeof getObject>>;
    try {
      object = await getObject(at, key);
    } catch (error) {
      throw new StorageError(`cannot write the manifest ${manifestUrl(at)}: ` + `reading ${s3Url(at.bucket, key)} failed: ${describeS3Error(error)}`, path, {
        cause: error,
      });
    }
    // The response's ETag, not the listing's: it goes with exactly these bytes, even if the object changed in between.
    if (object.etag === undefined) return undefined;
    const { bytes, etag } = object;
    return { path, etag, size: bytes.byteLength, sha256: sha256Digest(bytes), ...(isSkillMdPath(path) ? { content: bytes } : {}) };
  };
  const entries = (await mapLimit(files, MANIFEST_READS, record)).filter((file) => file !== undefined);
  const body = encodeManifest(entries);
  try {
    await at.client.send(new PutObjectCommand({ Bucket: at.bucket, Key: at.prefix + MANIFEST_PATH, Body: body, ContentType: 'application/json' }));
  } catch (error) {
    throw new StorageError(`cannot write the manifest ${manifestUrl(at)}: ${describeS3Error(error)}`, MANIFEST_PATH, { cause: error });
  }
  return { files: entries.length, bytes: body.byteLength };
}
