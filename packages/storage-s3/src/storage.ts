import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { StorageError, type SkillFileEntry, type SkillFileListing } from '@skillmount/core';
import { createClient } from './client.js';
import { describeS3Error, s3Url } from './errors.js';
import { badSegment, checkPath, classifyObject, tokenOf } from './keys.js';
import { listPages } from './listing.js';
import { normalizeOptions } from './options.js';
import { indexByFolder, type FolderIndex } from './tree.js';
import type { S3Storage, S3StorageOptions } from './types.js';
import { poll, stateOf } from './watch.js';

/** How long a flat listing answers `list(dir)` calls: long enough for one walk, short enough to stay current. */
const SNAPSHOT_FRESH_MS = 5_000;

/**
 * The keys under a prefix of an S3 bucket as skill storage. A catalog load lists the prefix flat
 * (`listAll`, about keys/1000 requests) and reads each file with one `GetObject`; keys that
 * cannot be relative paths are reported as `unsupported` and never read.
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

  const listAll = async (): Promise<SkillFileListing[]> => {
    const listing: SkillFileListing[] = [];
    for (const page of await listPages(target, prefix)) {
      for (const object of page.Contents ?? []) {
        const item = classifyObject(object, prefix);
        if (item) listing.push(item);
      }
    }
    snapshot = { at: Date.now(), listing, folders: indexByFolder(listing) };
    return listing.map((item) => ({ ...item }));
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
        entries.set(badSegment(name) ? rest : name, badSegment(name) ? { name: rest, kind: 'unsupported' } : { name, kind: 'directory' });
      }
      for (const object of page.Contents ?? []) {
        if (!object.Key?.startsWith(folderPrefix)) continue;
        found = true;
        const name = object.Key.slice(folderPrefix.length);
        if (name === '') continue; // the folder's own marker
        if (entries.get(name)?.kind === 'directory') continue;
        entries.set(name, badSegment(name) ? { name, kind: 'unsupported' } : { name, kind: 'file', token: tokenOf(object.ETag, object.Size), size: object.Size ?? 0 });
      }
    }
    if (!found && dir !== '') {
      throw new StorageError(`cannot list "${dir}" (${s3Url(bucket, folderPrefix)}): no such folder (no key starts with "${folderPrefix}")`, dir);
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

    listAll,

    async list(dir) {
      checkPath(dir, where, true);
      const cached = fromSnapshot(dir);
      if (cached) return cached;
      // A walk starts at the root: one flat listing then answers every folder it visits.
      if (dir === '') {
        await listAll();
        return fromSnapshot('')!;
      }
      return listFolder(dir);
    },

    async read(path) {
      checkPath(path, where, false);
      const key = prefix + path;
      try {
        const result = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        if (!result.Body) throw new Error('the response had no body');
        return await result.Body.transformToByteArray();
      } catch (error) {
        throw new StorageError(`cannot read "${path}" (${s3Url(bucket, key)}): ${describeS3Error(error)}`, path, { cause: error });
      }
    },

    watch(onChange) {
      if (typeof onChange !== 'function') throw new TypeError('@skillmount/storage-s3: watch(onChange) needs a function');
      if (closed) throw new StorageError(`cannot watch ${where}: the storage is closed`, '');
      const stop = poll({
        intervalMs: settings.pollIntervalMs,
        baseline: snapshot ? stateOf(snapshot.listing) : undefined,
        list: listAll,
        onChange,
        onError:
          settings.onError ??
          ((error) => console.warn(`@skillmount/storage-s3: watching ${where} (polling every ${settings.pollIntervalMs} ms) failed, will try again: ${error.message}`)),
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
