import { isSkillFile, isSkillMdPath, skillFoldersIn, type SkillFileListing } from '@skillmount/core/storage-kit';
import { MANIFEST_VERSION, type ManifestEntry } from './manifest-decode.js';

/**
 * The manifest: one JSON object under the prefix that records, for each object, the ETag and size
 * it was written for, its SHA-256 and (SKILL.md only) its bytes. With it a catalog build needs the
 * listing and one GET instead of one GET per file. The leading "." keeps it out of every catalog.
 */
export const MANIFEST_PATH = '.skillmount/manifest.json';
export { MANIFEST_VERSION, type ManifestEntry } from './manifest-decode.js';

/** One file to record: the ETag exactly as a listing reports it, and the bytes' size and digest. */
export interface ManifestFile {
  path: string;
  etag: string;
  size: number;
  /** `sha256:<64 hex>` of the bytes. */
  sha256: string;
  /** The bytes, kept in the manifest for SKILL.md files only (a catalog must parse their frontmatter). */
  content?: Uint8Array;
}

/**
 * The manifest's bytes: paths sorted and keys in a fixed order, so the same files always give the same bytes.
 *
 * @example
 * ```ts
 * import { sha256Digest } from '@skillmount/core';
 * import { encodeManifest } from '@skillmount/storage-s3';
 *
 * const content = new TextEncoder().encode('---\nname: refunds\ndescription: Handle refunds.\n---\n');
 * const bytes = encodeManifest([{ path: 'refunds/SKILL.md', etag: '"9b2cf5…"', size: content.length, sha256: sha256Digest(content), content }]);
 * // upload `bytes` to <prefix>.skillmount/manifest.json (MANIFEST_PATH) after the files it records
 * ```
 * @throws Nothing.
 */
export function encodeManifest(files: Iterable<ManifestFile>): Uint8Array {
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const entries: Record<string, ManifestEntry> = {};
  for (const file of sorted) {
    const entry: ManifestEntry = { etag: file.etag, size: file.size, sha256: file.sha256 };
    if (file.content && isSkillMdPath(file.path)) entry.content = Buffer.from(file.content).toString('base64');
    entries[file.path] = entry;
  }
  return new TextEncoder().encode(JSON.stringify({ version: MANIFEST_VERSION, files: entries }));
}

/** ETags compare without their surrounding quotes, which some servers leave off in one response or another. */
export const bareEtag = (etag: string) => etag.replace(/^"(.*)"$/, '$1');

/**
 * What the manifest vouches for about a listed object: its size and digest, plus the bytes of a
 * SKILL.md. Only when the entry was written for this very object (same ETag and size as the
 * listing shows); an object rewritten since then is `stale` and is read as without a manifest.
 */
export function vouch(
  entry: ManifestEntry | undefined,
  etag: string | undefined,
  size: number,
  path: string,
): Pick<SkillFileListing, 'size' | 'digest' | 'content'> | 'stale' | undefined {
  if (!entry) return undefined;
  if (etag === undefined || bareEtag(entry.etag) !== bareEtag(etag) || entry.size !== size) return 'stale';
  const vouched: Pick<SkillFileListing, 'size' | 'digest' | 'content'> = { size, digest: entry.sha256 };
  if (entry.content !== undefined && isSkillMdPath(path)) {
    const content = new Uint8Array(Buffer.from(entry.content, 'base64'));
    // Base64 that does not decode to the object's size is damaged: leave it out and let the catalog read the file.
    if (content.byteLength === size) vouched.content = content;
  }
  return vouched;
}

/**
 * The listed files a manifest could spare a read: visible files inside a folder holding a
 * SKILL.md (the only files a catalog reads), leaving out those whose token the caller already
 * holds from its previous listing.
 */
export function filesToVouch(listing: readonly SkillFileListing[], known?: (path: string) => string | undefined): SkillFileListing[] {
  const skillFolders = skillFoldersIn(listing);
  return listing.filter((item) => item.kind === 'file' && isSkillFile(item.path, skillFolders) && (!known || known(item.path) !== item.token));
}

/**
 * True when every entry matches an object of the listing (same ETag and size): the manifest
 * describes what is stored. Objects it has no entry for do not count (publish leaves out stored
 * objects that are not local files); an entry for an object that is missing or different means
 * the objects and the manifest were not written in that order, or something rewrote an object since.
 */
export function describesListing(
  entries: ReadonlyMap<string, ManifestEntry>,
  listing: readonly SkillFileListing[],
  etags: ReadonlyMap<string, string | undefined>,
): boolean {
  const sizes = new Map<string, number | undefined>();
  for (const item of listing) if (item.kind === 'file') sizes.set(item.path, item.size);
  for (const [path, entry] of entries) {
    const etag = etags.get(path);
    if (etag === undefined || bareEtag(etag) !== bareEtag(entry.etag) || sizes.get(path) !== entry.size) return false;
  }
  return true;
}
