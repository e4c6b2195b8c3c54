/**
 * Public types of the host-side skills client (`@skillmount/core/client`).
 */
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CacheScope, SkillEntry, SkillFrontmatter, SkillLimits, SkillResource } from '../types.js';
import type { SignatureInvalidCode, SkillSignatureResult, TrustedKey } from '../trust/index.js';

export type { CacheScope, RequestOptions, SkillEntry, SkillFrontmatter, SkillLimits, SkillResource };

export interface SkillsClientOptions {
  /**
   * `false` (default): `list()` throws when any entry is invalid or a URI is listed twice.
   * `true`: the valid skills come back and the refused entries are reported in `invalid`.
   */
  skipInvalid?: boolean;
  /**
   * Parses the YAML between the `---` fences of a SKILL.md into a JSON object. Default: YAML 1.2
   * core schema (`yes`, `no`, `on` stay strings; duplicate keys are an error).
   */
  parseFrontmatter?: (yaml: string) => Record<string, unknown>;
  /**
   * The most pages `list()` and `readDirectory()` follow before giving up. Default 1000; `0` turns
   * the cap off (as the SDK v2's `listMaxPages: 0`). A cursor the server repeats is refused either way.
   */
  maxPages?: number;
  /**
   * Per-skill limits a skill may reach before `read()` refuses it. Default 512 files, 16 MiB. For a
   * `"dynamic"` skill, `bytes` bounds what is read under one entry object (one `list()` or `get()`).
   */
  limits?: Partial<SkillLimits>;
  /**
   * The protocol revision to apply result rules for (`2026-07-28` requires `ttlMs` and
   * `cacheScope`). Default: what the client negotiated.
   */
  protocolVersion?: string;
  /**
   * `true` (default): when a file read does not match the entry passed (size, digest), or the
   * server says the entry changed, `read()` asks for the entry again once (`skills/get`) and reads
   * against it, returning the new entry as `skill` beside the file. `false`: the mismatch throws.
   */
  refresh?: boolean;
  /**
   * Public keys whose signatures this client accepts: each `{ name, publicKey }`, the SPKI PEM
   * `skillmount keygen` writes. Several, so a publisher can rotate keys (trust the new one beside
   * the old until every skill is signed again; removing a key revokes it). With keys, `read()`
   * first reads and verifies the skill's `skill.oms.sig` (once per skill digest), refuses a
   * signature that does not match the skill with a `SkillSignatureError`, and returns the verdict
   * as `signature` beside the file. Default: none, and no signature is read.
   */
  trustedKeys?: readonly TrustedKey[];
  /**
   * `true`: `read()` refuses, before reading any of its files, a skill that is not signed by one of
   * `trustedKeys` (unsigned, `"dynamic"`, or signed by another key). Needs `trustedKeys`. Default
   * `false`: such a skill is read, and its verdict says what it is.
   */
  requireSignature?: boolean;
}

/**
 * A skill's signature as this client judged it (`verifySkillListing` over the entry's digests and
 * the signature's verified bytes), with `skillPath`, the skill path it was checked against: the
 * path the URI names (`skill://team/pdf/SKILL.md` → `team/pdf`), or the tail of it (whole
 * segments) the signature names, for a server that serves a signed folder under a base URI or a
 * prefix its signer did not know. (An invalid verdict's `path` is the file at fault.)
 */
export type SkillSignatureVerdict = SkillSignatureResult & { skillPath: string };

/**
 * Why `read()` refused a skill for its signature: `unsigned` (no signature, or a `"dynamic"`
 * skill, with `requireSignature`), `untrusted-key` (with `requireSignature`), or the code of an
 * invalid signature (always).
 */
export type SkillSignatureRefusal = 'unsigned' | 'untrusted-key' | SignatureInvalidCode;

/** A result's freshness hints, where the server sent them (always, on 2026-07-28). */
export interface CacheFields {
  ttlMs?: number;
  cacheScope?: CacheScope;
}

/** A `skills/list` entry the client refused. */
export interface InvalidSkillEntry {
  /** Position of the entry in the listing, counted across pages. */
  index: number;
  /** The entry's `uri`, when it had a string one. */
  uri?: string;
  /** Every problem found, joined by `; `. */
  reason: string;
}

export interface SkillListing extends CacheFields {
  skills: SkillEntry[];
  invalid: InvalidSkillEntry[];
  /** Only when `list()` was given a cursor: where the next page starts. */
  nextCursor?: string;
}

export interface SkillLookup extends CacheFields {
  skill: SkillEntry;
}

/** What `search()` found: entries to read and verify, best first. */
export interface SkillSearchResult {
  /** The matching skills' entries, best first (from `skills/get` when the server ranked them). */
  skills: SkillEntry[];
  /** Where the next page starts: pass it as `cursor` with the same query. */
  nextCursor?: string;
  /**
   * Who ranked them: `'server'`, its `search_skills` tool; `'client'`, this client, over the whole
   * listing (at most `maxPages` pages), for a server without the tool.
   */
  ranked: 'server' | 'client';
}

/** One verified (or, for a `"dynamic"` skill, frontmatter-checked) file of a skill. */
export interface SkillFile {
  /** The URI that was requested: the entry's own spelling for a listed file. */
  uri: string;
  mimeType?: string;
  /** Exactly the bytes that were checked against the entry. */
  bytes: Uint8Array;
  /** The text, when the server sent text; always for the skill's own SKILL.md. */
  text?: string;
  /** `true` when size and digest matched the entry; `false` for a `"dynamic"` skill. */
  verified: boolean;
  /** The skill's own SKILL.md only: its parsed frontmatter (equal to the entry's). */
  frontmatter?: Record<string, unknown>;
  /** The skill's own SKILL.md only: the markdown after the frontmatter. */
  body?: string;
  /**
   * Only when the file did not match the entry passed to `read()` and was verified against the
   * entry asked for again: that newer entry. Hold it in place of the old one (its other files,
   * its frontmatter and what a user approved may have changed too).
   */
  skill?: SkillEntry;
  /**
   * Only on a client with `trustedKeys`: the verdict on the signature of the skill the file was
   * read against (`verified`, or, without `requireSignature`, `unsigned` or `untrusted-key`; an
   * invalid signature throws instead).
   */
  signature?: SkillSignatureVerdict;
}

/** One child in a `resources/directory/read` result. */
export interface DirectoryResource {
  uri: string;
  name: string;
  /** `inode/directory` for a folder. */
  mimeType?: string;
  size?: number;
  [field: string]: unknown;
}

export interface DirectoryListing extends CacheFields {
  resources: DirectoryResource[];
}

/**
 * Why a file failed verification: not listed in the held entry, a different size or digest, a
 * blob that is not valid base64 (`encoding`), or SKILL.md frontmatter that differs from the entry.
 */
export type SkillVerificationReason = 'unlisted' | 'size' | 'digest' | 'encoding' | 'frontmatter';

/** Why a skill is over a per-skill limit, found from its entry (or, for `"dynamic"`, from what was read). */
export interface SkillLimitProblem {
  limit: 'files' | 'bytes';
  /** Files in the entry, or bytes in the entry (or read so far, for `"dynamic"`). */
  actual: number;
  max: number;
  message: string;
}
