import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getBounded, type BoundedBody } from './bounded.js';
import { escapeControls, sha256Digest } from '@skillmount/core';
import { isHiddenPath, isPlainSegment, isSkillMdPath, mapLimit, storageError, StorageError, type ListAllOptions, type SkillFileEntry, type SkillFileListing } from '@skillmount/core/storage-kit';
import { createClient } from './client.js';
import { describeS3Error, isMissingKey, s3Url } from './errors.js';
import { checkPath, classifyObject, tokenOf } from './keys.js';
import { listPages } from './listing.js';
import { decodeManifest, encodeManifest, filesToVouch, MANIFEST_PATH, vouch, type ManifestEntry, type ManifestFile } from './manifest.js';
import { normalizeOptions } from './options.js';
import { indexByFolder, type FolderIndex } from './tree.js';
import type { S3Storage, S3StorageOptions } from './types.js';
import { poll, stateOf } from './watch.js';

/** How long a flat listing answers `list(dir)` calls: long enough for one walk, short enough to stay current. */
const SNAPSHOT_FRESH_MS = 5_000;

/** `maxBytes` when it is a byte count; anything else bounds nothing. */
const byteCount = (n: unknown): number | undefined => (typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined);

/** GETs at a time while `writeManifest` reads every object. */
const MANIFEST_READS = 16;

/**
 * The keys under a prefix of an S3 bucket as skill storage. A catalog load lists the prefix flat
 * (`listAll`, about keys/1000 requests) and reads each file with one `GetObject`, unless the
 * prefix's manifest vouches for it (one more `GetObject` for all of them); keys that cannot be
 * relative paths are reported as `unsupported` and never read.
 */
export function s3Storage(options: S3StorageOptions): S3Storage {
  const settings = normalizeOptions(options);
  const { bucket, prefix, maxKeys } = settings;
  const owned = settings.client === undefined;
  const client: S3Client = settings.client ?? createClient(settings.clientConfig);
  const where = s3Url(bucket, prefix);
  const target = { client, bucket, maxKeys };

  let snapshot: { at: number; listing: SkillFileListing[]; folders: FolderIndex } | undefined;
  const stops = new Set<() => void>();
  let closed = false;

  const manifestKey = prefix + MANIFEST_PATH;
  const manifestUrl = s3Url(bucket, manifestKey);
  // Messages quote keys, which may hold control characters: escaped before they reach a terminal or log.
  const report = settings.onError ?? ((error: StorageError) => console.warn(escapeControls(`@skillmount/storage-s3: ${error.message}`)));

  // One object's bytes and the ETag that goes with exactly these bytes. Errors are the SDK's own.
  const getObject = async (key: string): Promise<{ bytes: Uint8Array; etag: string | undefined }> => {
    const result = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    if (!result.Body) throw new Error('the response had no body');
    return { bytes: await result.Body.transformToByteArray(), etag: result.ETag };
  };

  // The prefix listed flat, and each file's ETag as listed: what manifest entries are matched against.
  const listPrefix = async (): Promise<{ listing: SkillFileListing[]; etags: Map<string, string | undefined> }> => {
    const listing: SkillFileListing[] = [];
    const etags = new Map<string, string | undefined>();
    for (const page of await listPages(target, prefix)) {
      for (const object of page.Contents ?? []) {
        const item = classifyObject(object, prefix);
        if (!item) continue;
        listing.push(item);
        if (item.kind === 'file') etags.set(item.path, object.ETag);
      }
    }
    snapshot = { at: Date.now(), listing, folders: indexByFolder(listing) };
    return { listing: listing.map((item) => ({ ...item })), etags };
  };

  const ignoredManifest = (problem: string, cause?: unknown) =>
    new StorageError(
      `ignoring the manifest ${manifestUrl}: ${problem}; the files are read without it. To rewrite it, run skillmount publish again (or call writeManifest() on the storage)`,
      MANIFEST_PATH,
      { cause },
    );

  // The manifest's entries, or undefined when there is none or it cannot be used (then reported, never thrown).
  const fetchManifest = async (): Promise<Map<string, ManifestEntry> | undefined> => {
    let bytes: Uint8Array;
    try {
      bytes = (await getObject(manifestKey)).bytes;
    } catch (error) {
      // Deleted since the listing: the same as no manifest at all.
      if (!isMissingKey(error)) report(ignoredManifest(`it cannot be fetched: ${describeS3Error(error)}`, error));
      return undefined;
    }
    try {
      return decodeManifest(bytes);
    } catch (error) {
      report(ignoredManifest((error as Error).message));
      return undefined;
    }
  };

  const listAll = async (options?: ListAllOptions): Promise<SkillFileListing[]> => {
    const { listing, etags } = await listPrefix();
    const wanted = filesToVouch(listing, options?.known);
    // Nothing the caller does not already hold, or no manifest listed: the listing alone, no GET.
    if (wanted.length === 0 || !etags.has(MANIFEST_PATH)) return listing;
    const manifest = await fetchManifest();
    if (!manifest) return listing;
    const stale: string[] = [];
    for (const item of wanted) {
      const vouched = vouch(manifest.get(item.path), etags.get(item.path), item.size ?? 0, item.path);
      if (vouched === 'stale') stale.push(item.path);
      else if (vouched) Object.assign(item, vouched);
    }
    if (stale.length > 0) {
      const shown = stale.slice(0, 3).map((p) => `"${p}"`).join(', ') + (stale.length > 3 ? `, and ${stale.length - 3} more` : '');
      report(
        new StorageError(
          `the manifest ${manifestUrl} is out of date: ${stale.length} ${stale.length === 1 ? 'file was' : 'files were'} rewritten since it was written (${shown}) and ${stale.length === 1 ? 'is' : 'are'} read instead. To bring it up to date, run skillmount publish again (or call writeManifest() on the storage)`,
          MANIFEST_PATH,
        ),
      );
    }
    return listing;
  };

  const writeManifest = async (): Promise<{ files: number; bytes: number }> => {
    const { listing } = await listPrefix();
    const files = listing.filter((item) => item.kind === 'file' && !isHiddenPath(item.path));
    const record = async ({ path }: SkillFileListing): Promise<ManifestFile | undefined> => {
      const key = prefix + path;
      let object;
      try {
        object = await getObject(key);
      } catch (error) {
        throw new StorageError(`cannot write the manifest ${manifestUrl}: reading ${s3Url(bucket, key)} failed: ${describeS3Error(error)}`, path, { cause: error });
      }
      // The response's ETag, not the listing's: it goes with exactly these bytes, even if the object changed in between.
      if (object.etag === undefined) return undefined;
      const { bytes, etag } = object;
      return { path, etag, size: bytes.byteLength, sha256: sha256Digest(bytes), ...(isSkillMdPath(path) ? { content: bytes } : {}) };
    };
    const entries = (await mapLimit(files, MANIFEST_READS, record)).filter((file) => file !== undefined);
    const body = encodeManifest(entries);
    try {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: manifestKey, Body: body, ContentType: 'application/json' }));
    } catch (error) {
      throw new StorageError(`cannot write the manifest ${manifestUrl}: ${describeS3Error(error)}`, MANIFEST_PATH, { cause: error });
    }
    return { files: entries.length, bytes: body.byteLength };
  };

  // One folder level with a Delimiter listing: for a `list(dir)` outside a walk.
  const listFolder = async (dir: string): Promise<SkillFileEntry[]> => {
    const folderPrefix = dir === '' ? prefix : `${prefix}${dir}/`;
    const entries = new Map<string, SkillFileEntry>();
    let found = false;
    for (const page of await listPages(target, folderPrefix, '/')) {
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
        entries.set(name, isPlainSegment(name) ? { name, kind: 'file', token: tokenOf(object.ETag, object.Size), size: object.Size ?? 0 } : { name, kind: 'unsupported' });
      }
    }
    if (!found && dir !== '') {
      throw storageError({ action: 'cannot list', path: dir, where: `(${s3Url(bucket, folderPrefix)})`, reason: `no such folder (no key starts with "${folderPrefix}")` });
    }
    return [...entries.values()];
  };

  const fromSnapshot = (dir: string): SkillFileEntry[] | undefined => {
    if (!snapshot || Date.now() - snapshot.at > SNAPSHOT_FRESH_MS) return undefined;
    return snapshot.folders.get(dir)?.map((entry) => ({ ...entry }));
  };

  const storage: S3Storage = {
    bucket,
    prefix,
    client,
    label: where,

    listAll,
    writeManifest,

    async list(dir) {
      checkPath(dir, where, true);
      const cached = fromSnapshot(dir);
      if (cached) return cached;
      // A walk starts at the root: one flat listing then answers every folder it visits.
      if (dir === '') {
        await listPrefix();
        return fromSnapshot('')!;
      }
      return listFolder(dir);
    },

    async read(path, options) {
      checkPath(path, where, false);
      const key = prefix + path;
      const maxBytes = byteCount(options?.maxBytes);
      let bounded: BoundedBody;
      try {
        if (maxBytes === undefined) return (await getObject(key)).bytes;
        bounded = await getBounded(client, bucket, key, maxBytes);
      } catch (error) {
        throw storageError({ action: 'cannot read', path, where: `(${s3Url(bucket, key)})`, reason: describeS3Error(error), cause: error });
      }
      if ('bytes' in bounded) return bounded.bytes;
      const seen = bounded.tooLarge === undefined ? `more than ${maxBytes}` : String(bounded.tooLarge);
      throw storageError({
        action: 'cannot read',
        path,
        where: `(${s3Url(bucket, key)})`,
        reason:
          `the object is ${seen} bytes, larger than the ${maxBytes} it was listed with (it was replaced since); ` +
          `only the first ${maxBytes + 1} bytes were fetched. Reload the catalog (a watch does it on its next poll) to publish the new object`,
        code: 'too-large',
      });
    },

    watch(onChange) {
      if (typeof onChange !== 'function') throw new TypeError('@skillmount/storage-s3: watch(onChange) needs a function');
      if (closed) throw new StorageError(`cannot watch ${where}: the storage is closed`, '');
      const stop = poll({
        intervalMs: settings.pollIntervalMs,
        baseline: snapshot ? stateOf(snapshot.listing) : undefined,
        // Polls compare tokens only: the listing without the manifest.
        list: async () => (await listPrefix()).listing,
        onChange,
        onError:
          settings.onError ??
          ((error) => console.warn(escapeControls(`@skillmount/storage-s3: watching ${where} (polling every ${settings.pollIntervalMs} ms) failed, will try again: ${error.message}`))),
      });
      const unsubscribe = () => {
        stop();
        stops.delete(unsubscribe);
      };
      stops.add(unsubscribe);
      return unsubscribe;
    },

    async close() {
      if (closed) return;
      closed = true;
      for (const stop of [...stops]) stop();
      snapshot = undefined;
      // A client the user passed in is theirs to close.
      if (owned) client.destroy();
    },
  };
  return storage;
}
