import { StorageError } from '@skillmount/core/storage-kit';
import { describeS3Error, s3Url } from './errors.js';
import { bareEtag, describesListing, MANIFEST_PATH } from './manifest.js';
import { type ManifestEntry, MAX_MANIFEST_ENTRIES } from './manifest-decode.js';
import { getManifest } from './manifest-read.js';
import type { Prefix, PrefixListing } from './prefix.js';

export const manifestUrl = (at: Prefix) => s3Url(at.bucket, at.prefix + MANIFEST_PATH);

/** What to do about a manifest whose content is the problem: write it again. */
const REWRITE = 'To rewrite it, run skillmount publish again (or call writeManifest() on the storage)';

export const ignoredManifest = (at: Prefix, problem: string, cause?: unknown, fix = REWRITE) =>
  new StorageError(`ignoring the manifest ${manifestUrl(at)}: ${problem}; the files are read without it. ${fix}`, MANIFEST_PATH, { cause });

/** Entries of a manifest; `unusable` when its bytes are not a manifest this package reads. */
export type ManifestEntries = Map<string, ManifestEntry> | 'unusable';

/**
 * The prefix's manifest as a change feed. Every writer this package knows (`skillmount publish`,
 * `writeManifest()`) writes the manifest after the objects, so a manifest whose ETag did not
 * change means no object changed through them; `token()` asks with one conditional GET. Objects
 * written by other tools without a manifest rewrite are caught by a full listing at least every
 * `fullListIntervalMs`, and a listing the held manifest does not describe (a writer that put the
 * manifest first, an object overwritten since) distrusts it until a listing matches again.
 */
export interface ManifestFeed {
  /** A token for the whole tree, or undefined when the manifest cannot vouch for it (then the caller lists). */
  token(): Promise<string | undefined>;
  /** The token handed out last: a listing starting now is current as of that token. */
  readonly issued: string | undefined;
  /** What a flat listing showed: whether there is a manifest, and whether the held one describes it. */
  sawListing(listed: PrefixListing): void;
  /** The entries of the manifest with the listed ETag: the held copy when it is that one, else one GET. */
  entries(listedEtag: string | undefined): Promise<ManifestEntries | undefined>;
}

interface Held {
  /** The ETag as the GET answered it, quotes included: sent back as `If-None-Match`. */
  etag: string;
  entries: ManifestEntries;
}

type Fetched = { held: Held } | { missing: true } | { failed: true };

export interface ManifestFeedSettings {
  fullListIntervalMs: number;
  /** A larger manifest is not read (a bucket writer could plant one of any size): the files are read without it. */
  maxManifestBytes: number;
}

export function manifestFeed(at: Prefix, { fullListIntervalMs, maxManifestBytes }: ManifestFeedSettings, now: () => number = Date.now): ManifestFeed {
  let held: Held | undefined;
  // What the last flat listing said: is there a manifest at all? Unknown until a listing or a GET tells.
  let present: boolean | undefined;
  let distrusted = false;
  let epoch = 0;
  let epochAt = 0;
  let epochEtag: string | undefined;
  let issued: string | undefined;
  // The problem reported last, so one that persists is reported once (until the manifest is fetched cleanly).
  let reported: string | undefined;

  // No usable manifest for a while: the next one starts a new epoch even with the same ETag as before.
  const forget = () => {
    held = undefined;
    epochEtag = undefined;
  };

  const report = (key: string, error: StorageError) => {
    if (reported === key) return;
    reported = key;
    at.report(error);
  };

  /** One GET of the manifest, conditional on the held ETag: a 304 keeps the held copy and carries no body. */
  const fetch = async (): Promise<Fetched> => {
    const got = await getManifest(at, maxManifestBytes, MAX_MANIFEST_ENTRIES, held?.etag);
    if ('notModified' in got) return held ? { held } : { failed: true };
    if ('missing' in got || 'error' in got) {
      forget();
      if ('missing' in got) {
        present = false;
        reported = undefined;
        return { missing: true };
      }
      const problem = `it cannot be fetched: ${describeS3Error(got.error)}`;
      // Rewriting it would not help: the fetch failed, not the manifest.
      const fix = 'It is fetched again at the next check; fix the access or connection the error names';
      report(problem, ignoredManifest(at, problem, got.error, fix));
      return { failed: true };
    }
    present = true;
    let entries: ManifestEntries;
    if ('entries' in got) {
      entries = got.entries;
      reported = undefined;
    } else {
      // Held as unusable under its ETag (nothing of its body is kept), so it is not fetched again until it changes.
      entries = 'unusable';
      epochEtag = undefined;
      report(`${got.etag}:${got.problem}`, ignoredManifest(at, got.problem));
    }
    // Without an ETag the copy cannot be matched to a listing or asked about again: used once, not held.
    if (got.etag === undefined) return { held: { etag: '', entries } };
    held = { etag: got.etag, entries };
    return { held };
  };

  /** The token for a manifest that vouches: its ETag and an epoch that moves on to force a full listing. */
  const tokenFor = (etag: string): string => {
    const stale = now() - epochAt >= fullListIntervalMs;
    if (etag !== epochEtag || distrusted || stale) {
      epoch++;
      epochAt = now();
      epochEtag = etag;
      distrusted = false;
    }
    return `${etag}#${epoch}`;
  };

  const feed: ManifestFeed = {
    get issued() {
      return issued;
    },

    async token() {
      issued = await currentToken();
      return issued;
    },

    sawListing({ etags, listing }) {
      present = etags.has(MANIFEST_PATH);
      if (!present) {
        forget();
        return;
      }
      const listed = etags.get(MANIFEST_PATH);
      if (held && held.entries !== 'unusable' && listed !== undefined && bareEtag(listed) === bareEtag(held.etag)) {
        if (!describesListing(held.entries, listing, etags)) distrusted = true;
      }
    },

    async entries(listedEtag) {
      if (held && listedEtag !== undefined && bareEtag(listedEtag) === bareEtag(held.etag)) return held.entries;
      const fetched = await fetch();
      return 'held' in fetched ? fetched.held.entries : undefined;
    },
  };

  async function currentToken(): Promise<string | undefined> {
    // 0: list on every reload. No manifest in the last listing: nothing to ask (the next listing shows a new one).
    if (fullListIntervalMs === 0 || present === false) return undefined;
    const fetched = await fetch();
    if (!('held' in fetched) || fetched.held.entries === 'unusable' || fetched.held.etag === '') return undefined;
    return tokenFor(bareEtag(fetched.held.etag));
  }

  return feed;
}
