import type { SkillFileEntry } from '../types.js';
import type { FileRecord, ParsedSkillMd } from './snapshot.js';

/**
 * Bytes a batched listing brought along, hashed (and a SKILL.md parsed) as they arrived, so that
 * they are not held until the records phase: what a `content` decision would make of them.
 */
export interface TakenContent {
  size: number;
  digest: string;
  /** Set for a SKILL.md. */
  parsed?: ParsedSkillMd;
  /** A SKILL.md's bytes, kept only when the build was asked for them (`BuildOptions.skillMdBytes`). */
  bytes?: Uint8Array;
}

/** A listed entry, whose `content` may have been taken already (see `TakenContent`). */
export type ListedEntry = SkillFileEntry & { taken?: TakenContent };

/** What the previous snapshot knew of one file, and what the storage lists for it now. */
export interface FileFacts {
  /** The file's entry in its folder's listing (or the whole-tree listing). */
  listed: ListedEntry | undefined;
  /** The previous snapshot's record of the file, served or not. */
  before: FileRecord | undefined;
  /** The previous snapshot's parse of the file, when it is a SKILL.md. */
  parsedBefore: ParsedSkillMd | undefined;
  /** Whether the file is a SKILL.md: its frontmatter is needed, so a vouched digest is not enough. */
  skillMd: boolean;
}

/** How a build gets one file's record. */
export type FileDecision =
  /** The change token is unchanged: the previous record (and parse) still hold, nothing is read. */
  | { take: 'previous'; record: FileRecord; parsed: ParsedSkillMd | undefined }
  /** The listing brought the bytes along: hash them (this counts as a read). */
  | { take: 'content'; bytes: Uint8Array }
  /** The same, for bytes taken as the listing arrived (this counts as a read). */
  | { take: 'taken'; taken: TakenContent }
  /** The storage vouches for size and digest: trusted now, and every read is verified against it when served. */
  | { take: 'vouched'; size: number; digest: string }
  /** Read the body and hash it; a listed size bounds the read. */
  | { take: 'read'; maxBytes: number | undefined };

const DIGEST = /^sha256:[0-9a-f]{64}$/;

/**
 * The one per-file reuse decision of a build, in order of cost: reuse, listed bytes, vouched digest,
 * read. An unchanged token is trusted unless the listing gives the bytes' digest and it is not the
 * record's: a storage may read a file again whatever its token (a folder does, for a file whose
 * token could not prove its bytes when it was read), and what it read is what is there now.
 */
export function decideFile({ listed, before, parsedBefore, skillMd }: FileFacts): FileDecision {
  const token = listed?.token;
  if (token !== undefined && before && before.token === token && (!skillMd || parsedBefore) && sameBytes(listed!, before))
    return { take: 'previous', record: before, parsed: parsedBefore };
  if (listed?.taken) return { take: 'taken', taken: listed.taken };
  const content = listed?.content;
  if (content instanceof Uint8Array) return { take: 'content', bytes: content };
  const size = byteCount(listed?.size);
  if (!skillMd && size !== undefined && typeof listed?.digest === 'string' && DIGEST.test(listed.digest))
    return { take: 'vouched', size, digest: listed.digest };
  return { take: 'read', maxBytes: size };
}

/** False when the listing gives the file's digest (or bytes taken and hashed on arrival) and it is not the record's. */
function sameBytes(listed: ListedEntry, before: FileRecord): boolean {
  const digest = listed.taken?.digest ?? listed.digest;
  return digest === undefined || digest === before.resource.digest;
}

/** A listed size, when it is a plain byte count. */
function byteCount(size: unknown): number | undefined {
  return typeof size === 'number' && Number.isSafeInteger(size) && size >= 0 ? size : undefined;
}
