import { getBounded } from './bounded.js';
import { isMissingKey } from './errors.js';
import { MANIFEST_PATH } from './manifest.js';
import type { ManifestEntry } from './manifest-decode.js';
import { decodeInPlace, IN_PLACE_BYTES, parsingThread } from './manifest-parse.js';
import type { Prefix } from './prefix.js';

/** One GET of the manifest: its entries, or the problem that makes it unusable (with its ETag either way); or why there is none. */
export type Got =
  | (({ entries: Map<string, ManifestEntry> } | { problem: string }) & { etag: string | undefined })
  | { notModified: true }
  | { missing: true }
  | { error: unknown };

/**
 * The manifest's entries and ETag, unless it still has the ETag `ifNoneMatch` (a 304: no body),
 * is missing, or the GET fails. A body larger than `maxBytes` is not read (refused from its
 * headers when they tell its size). A body over `IN_PLACE_BYTES` waits for the process's parsing
 * turn before it is read, and is decoded on a thread of its own.
 */
export async function getManifest(at: Prefix, maxBytes: number, maxEntries: number, ifNoneMatch: string | undefined): Promise<Got> {
  let thread: Awaited<ReturnType<typeof parsingThread>> | undefined;
  const beforeBody = async (size: number | undefined) => {
    if (size === undefined || size > IN_PLACE_BYTES) thread = await parsingThread(maxEntries);
  };
  let got: Awaited<ReturnType<typeof getBounded>>;
  try {
    got = await getBounded(at.client, at.bucket, at.prefix + MANIFEST_PATH, maxBytes, ifNoneMatch, beforeBody);
  } catch (error) {
    await thread?.release();
    if (ifNoneMatch !== undefined && statusOf(error) === 304) return { notModified: true };
    return isMissingKey(error) ? { missing: true } : { error };
  }
  const { etag } = got;
  if (!('bytes' in got)) {
    await thread?.release();
    return { problem: tooLargeProblem(got.tooLarge, maxBytes), etag };
  }
  try {
    const entries = thread ? await thread.decode(got.bytes) : decodeInPlace(got.bytes, maxEntries);
    return { entries, etag };
  } catch (error) {
    return { problem: (error as Error).message, etag };
  }
}

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode;
}

function tooLargeProblem(size: number | undefined, maxBytes: number): string {
  const seen = size === undefined ? `more than ${maxBytes}` : String(size);
  return `it is ${seen} bytes, more than maxManifestBytes (${maxBytes}), so it was not read; if the bucket's manifest is that large, raise maxManifestBytes`;
}
