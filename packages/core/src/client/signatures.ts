/**
 * A skill's signature as the client judges it: the files its entry lists (paths and digests), the
 * skill path to verify against, the verdict (cached per skill digest), and whether the client's
 * policy refuses it. WebCrypto only, as the rest of the client.
 */
import type { OptionFail } from '../option-checks.js';
import { describeValue } from '../option-checks.js';
import type { TrustedKey } from '../trust/keys.js';
import { SIGNATURE_FILE } from '../trust/oms.js';
import { trustedKeysOf } from '../trust/trusted-keys.js';
import { type SkillDigestFile, skillDigest, skillPathProblem } from '../trust/skill-digest.js';
import { MAX_BUNDLE_BYTES, signedSkillPath, verifyListingDigests } from '../trust/verify.js';
import { canonicalUri, parseUri } from '../uri/canonical.js';
import { SkillSignatureError } from './errors.js';
import { skillFolderOf } from './relative.js';
import type { SkillEntry, SkillResource, SkillSignatureVerdict } from './types.js';

/** How the client treats signatures: the keys it trusts, and whether a skill must be signed by one. */
export interface SignaturePolicy {
  trustedKeys: readonly TrustedKey[];
  requireSignature: boolean;
}

/** Verdicts kept per client: one per skill version read, so a long-lived client stays bounded. */
const MAX_VERDICTS = 1000;

/**
 * The `trustedKeys` and `requireSignature` options, checked as `checkTrustedKeys` checks keys (so a
 * wrong file fails at construction), or undefined when neither asks for signatures.
 */
export function signaturePolicy(trustedKeys: unknown, requireSignature: unknown, fail: OptionFail): SignaturePolicy | undefined {
  if (typeof requireSignature !== 'boolean') fail('invalid-type', 'requireSignature', `must be true or false, got ${describeValue(requireSignature)}`);
  if (trustedKeys === undefined) {
    if (requireSignature) {
      fail(
        'missing-option',
        'trustedKeys',
        'is needed with requireSignature: true (no skill could pass without a key to verify it); give the public keys you trust',
      );
    }
    return undefined;
  }
  const keys = trustedKeysOf(trustedKeys, 'trustedKeys', fail);
  if (requireSignature && keys.length === 0) {
    fail('invalid-value', 'trustedKeys', 'is empty, and requireSignature: true refuses every skill without a trusted key; give at least one public key');
  }
  return { trustedKeys: keys, requireSignature };
}

/** What a signature covers, from an entry that lists its files. */
interface Listing {
  files: SkillDigestFile[];
  signature: SkillResource | undefined;
  /** A listed file no signature can name (its path is not one the skill digest accepts). */
  unsignable: { path: string; problem: string } | undefined;
}

function listingOf(folder: readonly string[], resources: readonly SkillResource[]): Listing {
  const files: SkillDigestFile[] = [];
  let signature: SkillResource | undefined;
  let unsignable: Listing['unsignable'];
  for (const resource of resources) {
    const parsed = parseUri(resource.uri);
    // A valid entry lists only files inside its folder, so the relative path is the segments after it.
    const path = parsed.ok ? parsed.segments.slice(folder.length).join('/') : resource.uri;
    const problem = skillPathProblem(path);
    if (problem) unsignable ??= { path, problem };
    else files.push({ path, digest: resource.digest });
    if (path === SIGNATURE_FILE) signature = resource;
  }
  return { files, signature, unsignable };
}

/**
 * The path to verify against: the one the URI names, or, when the signature names a tail of it
 * (whole segments), that tail. A signature for `team/pdf` stays a copy at `other/pdf`.
 */
function verifiedPath(uriPath: readonly string[], signed: string | undefined): string {
  if (signed === undefined) return uriPath.join('/');
  const tail = signed.split('/');
  const at = uriPath.length - tail.length;
  return at >= 0 && tail.every((segment, i) => uriPath[at + i] === segment) ? signed : uriPath.join('/');
}

/** The verdict on each skill version, computed once: concurrent reads share one signature read. */
export class SignatureVerdicts {
  readonly #keys: readonly TrustedKey[];
  readonly #verdicts = new Map<string, Promise<SkillSignatureVerdict>>();

  constructor(keys: readonly TrustedKey[]) {
    this.#keys = keys;
  }

  /**
   * The verdict on `skill` (a valid entry). `readSignature` reads the listed signature verified
   * against the entry; it is called at most once per skill URI and skill digest while the verdict
   * is kept, and a failed read is not kept.
   */
  async of(skill: SkillEntry, readSignature: (listed: SkillResource) => Promise<Uint8Array>): Promise<SkillSignatureVerdict> {
    const folder = skillFolderOf(skill.uri)!.segments;
    const skillPath = folder.join('/');
    if (skill.resources === 'dynamic') return { state: 'unsigned', skillPath };
    const listing = listingOf(folder, skill.resources);
    if (!listing.signature) return { state: 'unsigned', skillPath };
    if (listing.unsignable) {
      const { path, problem } = listing.unsignable;
      return { state: 'invalid', code: 'file-added', detail: `${path} cannot be among the signed files: ${problem}`, path, skillPath };
    }
    if (listing.signature.size > MAX_BUNDLE_BYTES) {
      const detail = `${SIGNATURE_FILE} is listed as ${listing.signature.size} bytes, over the ${MAX_BUNDLE_BYTES} a signature may be; it was not read`;
      return { state: 'invalid', code: 'malformed-bundle', detail, path: SIGNATURE_FILE, skillPath };
    }
    // The skill digest covers every listed file, the signature's digest too; the URI, where it is served.
    const key = `${canonicalUri(skill.uri) ?? skill.uri} ${await skillDigest(listing.files)}`;
    const kept = this.#verdicts.get(key);
    if (kept) return kept;
    const verdict = this.#judge(folder, listing, listing.signature, readSignature);
    this.#verdicts.set(key, verdict);
    if (this.#verdicts.size > MAX_VERDICTS) this.#verdicts.delete(this.#verdicts.keys().next().value!);
    verdict.catch(() => this.#verdicts.delete(key));
    return verdict;
  }

  async #judge(
    folder: readonly string[],
    listing: Listing,
    listed: SkillResource,
    readSignature: (listed: SkillResource) => Promise<Uint8Array>,
  ): Promise<SkillSignatureVerdict> {
    const signature = await readSignature(listed);
    const skillPath = verifiedPath(folder, signedSkillPath(signature));
    // The keys were checked at construction, so the verifier that checks them on each call is not needed.
    const result = await verifyListingDigests({ path: skillPath, files: listing.files, signature, frontmatterDigest: undefined }, { trustedKeys: this.#keys });
    return { ...result, skillPath };
  }
}

/** What a host can do about an invalid signature: a forged one, or one that is not this skill's as served. */
const FORGED = new Set(['bad-signature', 'key-hint-mismatch', 'algorithm-mismatch']);
const advice = (code: string) =>
  FORGED.has(code)
    ? 'The signature was not made by the key it names: treat the skill as tampered with, and tell its publisher'
    : "The skill is not what was signed (it changed since, or it is served with another skill's or a damaged signature): " +
      "don't use it, and ask its publisher to sign it again (skillmount publish --sign)";

/** The error `read()` throws for this verdict under the client's policy, or undefined when the skill may be read. */
export function signatureRefusal(skill: SkillEntry, verdict: SkillSignatureVerdict, requireSignature: boolean): SkillSignatureError | undefined {
  const uri = skill.uri;
  const notRead = 'none of its files was read';
  switch (verdict.state) {
    case 'verified':
      return undefined;
    case 'unsigned': {
      if (!requireSignature) return undefined;
      const why =
        skill.resources === 'dynamic' ? 'lists its files as "dynamic", so no signature can cover them' : `is not signed (its entry lists no ${SIGNATURE_FILE})`;
      return new SkillSignatureError(
        uri,
        verdict,
        'unsigned',
        `${uri} ${why}, and this client requires a signature (requireSignature); ${notRead}. ` +
          'Ask its publisher to sign it (skillmount publish --sign), or read it with a client that does not require signatures',
      );
    }
    case 'untrusted-key':
      if (!requireSignature) return undefined;
      return new SkillSignatureError(
        uri,
        verdict,
        'untrusted-key',
        `${uri} is signed by a key this client does not trust (key hint ${verdict.hint}), and this client requires a trusted signature ` +
          `(requireSignature); ${notRead}. If you trust its publisher, add their public key to trustedKeys (a key removed from them is revoked)`,
      );
    case 'invalid':
      return new SkillSignatureError(
        uri,
        verdict,
        verdict.code,
        `${uri}: its signature does not verify (${verdict.code}: ${verdict.detail}); ${notRead}. ${advice(verdict.code)}`,
      );
  }
}
