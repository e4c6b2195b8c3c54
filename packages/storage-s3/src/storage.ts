import type { S3Client } from '@aws-sdk/client-s3';
import { escapeControls } from '@skillmount/core/catalog';
import { type SkillFileEntry, type SkillFileListing, StorageError } from '@skillmount/core/storage-kit';
import { createClient } from './client.js';
import { s3Url } from './errors.js';
import { checkPath } from './keys.js';
import { listVouched, writeManifest } from './manifest-io.js';
import { manifestFeed } from './manifest-feed.js';
import { listFolder, listPrefix, type Prefix, readObject } from './prefix.js';
import { normalizeOptions } from './options.js';
import { type FolderIndex, indexByFolder } from './tree.js';
import type { S3Storage, S3StorageOptions } from './types.js';
import { poll, stateOf } from './watch.js';

/** How long a flat listing answers `list(dir)` calls: long enough for one walk, short enough to stay current. */
const SNAPSHOT_FRESH_MS = 5_000;

/**
 * The keys under a prefix of an S3 bucket as skill storage. A catalog load lists the prefix flat
 * (`listAll`, about keys/1000 requests) and reads each file with one `GetObject`, unless the
 * prefix's manifest vouches for it (one more `GetObject` for all of them); keys that cannot be
 * relative paths are reported as `unsupported` and never read. With a manifest, a reload or a
 * watch poll first asks whether it changed (one conditional GET, see manifest-feed.ts) and lists
 * only when it did, or once `fullListIntervalMs` has passed.
 *
 * @example
 * ```ts
 * import { SkillCatalog } from '@skillmount/core/catalog';
 * import { s3Storage } from '@skillmount/storage-s3';
 *
 * const storage = s3Storage({ bucket: 'my-skills', prefix: 'prod/', region: 'eu-west-1' });
 * const catalog = await SkillCatalog.load(storage);
 * catalog.watch(); // polls every pollIntervalMs
 * ```
 * @throws {@link @skillmount/core!OptionError | OptionError} when an option is invalid (no `bucket`, a `client` beside client settings…).
 * @throws {@link @skillmount/core!StorageError | StorageError} from its methods (the promises reject) when S3 refuses or fails a request.
 */
export function s3Storage(options: S3StorageOptions): S3Storage {
  const settings = normalizeOptions(options);
  const { bucket, prefix, maxKeys } = settings;
  const owned = settings.client === undefined;
  const client: S3Client = settings.client ?? createClient(settings.clientConfig);
  const where = s3Url(bucket, prefix);
  // Messages quote keys, which may hold control characters: escaped before they reach a terminal or log.
  const report = settings.onError ?? ((error: StorageError) => console.warn(escapeControls(`@skillmount/storage-s3: ${error.message}`)));
  const at: Prefix = { client, bucket, prefix, maxKeys, report };
  const feed = manifestFeed(at, settings);

  // `token`: the tree token handed out before this listing began, which it is current as of.
  let snapshot: { at: number; listing: SkillFileListing[]; folders: FolderIndex; token: string | undefined } | undefined;
  const stops = new Set<() => void>();
  let closed = false;

  // Every flat listing refreshes the snapshot; callers get copies they may fill in.
  const listed = async () => {
    const token = feed.issued;
    const result = await listPrefix(at);
    feed.sawListing(result);
    const { listing, etags } = result;
    snapshot = { at: Date.now(), listing, folders: indexByFolder(listing), token };
    return { listing: listing.map((item) => ({ ...item })), etags };
  };

  const fromSnapshot = (dir: string): SkillFileEntry[] | undefined => {
    if (!snapshot || Date.now() - snapshot.at > SNAPSHOT_FRESH_MS) return undefined;
    return snapshot.folders.get(dir)?.map((entry) => ({ ...entry }));
  };

  const storage: S3Storage = {
    bucket,
    prefix,
    client,
    kind: 's3',
    label: where,

    listAll: async (options) => listVouched(at, feed, await listed(), options),
    treeToken: async () => (closed ? undefined : feed.token()),
    writeManifest: async () => writeManifest(at, await listed()),

    async list(dir) {
      checkPath(dir, where, true);
      const cached = fromSnapshot(dir);
      if (cached) return cached;
      // A walk starts at the root: one flat listing then answers every folder it visits.
      if (dir === '') {
        await listed();
        return fromSnapshot('')!;
      }
      return listFolder(at, dir);
    },

    async read(path, options) {
      checkPath(path, where, false);
      return readObject(at, path, options);
    },
    watch(onChange) {
      if (typeof onChange !== 'function') throw new TypeError('@skillmount/storage-s3: watch(onChange) needs a function');
      if (closed) throw new StorageError(`cannot watch ${where}: the storage is closed`, '');
      const stop = poll({
        intervalMs: settings.pollIntervalMs,
        baseline: snapshot ? { state: stateOf(snapshot.listing), token: snapshot.token } : undefined,
        // With a manifest, a poll is one conditional GET of it; polls compare listing tokens only, never read it.
        token: () => feed.token(),
        list: async () => (await listed()).listing,
        onChange,
        onError:
          settings.onError ??
          ((error) =>
            console.warn(
              escapeControls(
                `@skillmount/storage-s3: watching ${where} (polling every ${settings.pollIntervalMs} ms) failed, will try again: ${error.message}`,
              ),
            )),
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
