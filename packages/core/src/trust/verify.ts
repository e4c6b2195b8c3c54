/** Verifying a skill's detached signature: one coded state, so a host can act on each cause. */
import { decodeBase64, derToP1363 } from './encoding.js';
import { importPublicKey, keyHint, SIGNATURE_ALGORITHM, type TrustedKey } from './keys.js';
import { BUNDLE_MEDIA_TYPE, PAYLOAD_TYPE, PREDICATE_TYPE, preAuthEncoding, type Resource, rootDigest, SIGNATURE_FILE, STATEMENT_TYPE } from './oms.js';
import type { SkillDigestFile } from './skill-digest.js';
import { frontmatterDigest, type SkillToSign, type Subjects, subjectsOf, subjectsOfDigests } from './subjects.js';
import { checkTrustedKeys } from './trusted-keys.js';

/** Why a signature is invalid (docs/reference/trust.md lists each). */
export type SignatureInvalidCode =
  | 'malformed-bundle'
  | 'copied-signature'
  | 'changed-file'
  | 'changed-frontmatter'
  | 'file-added'
  | 'file-removed'
  | 'algorithm-mismatch'
  | 'key-hint-mismatch'
  | 'bad-signature';

export type SkillSignatureResult =
  | { state: 'unsigned' }
  | { state: 'invalid'; code: SignatureInvalidCode; detail: string; path?: string }
  | { state: 'untrusted-key'; hint: string }
  | { state: 'verified'; signer: { name: string; hint: string }; skillDigest: string };

/** Bounds before any parsing or hashing of a hostile bundle (a reader can refuse a larger listed size unread). */
export const MAX_BUNDLE_BYTES = 1024 * 1024;

const MAX_HINT_LENGTH = 256;
/** A name from a bundle as a report quotes it: cut, so a hostile bundle cannot make a report long. */
const quoted = (name: string): string => JSON.stringify(name.length > 200 ? `${name.slice(0, 200)}…` : name);

const invalid = (code: SignatureInvalidCode, detail: string, path?: string): SkillSignatureResult => ({
  state: 'invalid',
  code,
  detail,
  ...(path !== undefined ? { path } : {}),
});

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const HEX64 = /^[0-9a-f]{64}$/;

interface Parsed {
  hint: string;
  payload: Uint8Array;
  signature: Uint8Array;
  subjectName: string;
  subjectDigest: string;
  resources: Resource[];
  frontmatterDigest: string | undefined;
}

/** The parts of a bundle a verifier needs, or why it is not a whole OMS bundle of ours. */
function parse(text: string): Parsed | string {
  if (text.length > MAX_BUNDLE_BYTES) return `it is over ${MAX_BUNDLE_BYTES} bytes`;
  let bundle: unknown;
  try {
    bundle = JSON.parse(text);
  } catch (e) {
    return `it is not whole JSON (${(e as Error).message}); was it cut short?`;
  }
  if (!isRecord(bundle) || bundle.mediaType !== BUNDLE_MEDIA_TYPE) return `its mediaType is not ${BUNDLE_MEDIA_TYPE}`;
  const material = bundle.verificationMaterial;
  const hint = isRecord(material) && isRecord(material.publicKey) ? material.publicKey.hint : undefined;
  if (typeof hint !== 'string') return 'it names no public key (verificationMaterial.publicKey.hint)';
  // Reports and warnings quote the hint: a hostile bundle must not make them long.
  if (hint.length > MAX_HINT_LENGTH) return `its public key hint is over ${MAX_HINT_LENGTH} characters (a hint is the key's SHA-256 in hex)`;
  const envelope = bundle.dsseEnvelope;
  if (!isRecord(envelope) || envelope.payloadType !== PAYLOAD_TYPE) return `its dsseEnvelope.payloadType is not ${PAYLOAD_TYPE}`;
  const payload = decodeBase64(envelope.payload);
  if (!payload) return 'its dsseEnvelope.payload is not base64';
  const signatures = envelope.signatures;
  if (!Array.isArray(signatures) || signatures.length !== 1 || !isRecord(signatures[0])) return 'its envelope does not hold exactly one signature';
  const signature = decodeBase64(signatures[0].sig);
  if (!signature) return 'its signature is not base64';
  let statement: unknown;
  try {
    statement = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(payload));
  } catch {
    return 'its payload is not a JSON statement';
  }
  if (!isRecord(statement) || statement._type !== STATEMENT_TYPE || statement.predicateType !== PREDICATE_TYPE) {
    return `its payload is not an in-toto statement with predicate ${PREDICATE_TYPE}`;
  }
  const subjects = statement.subject;
  const subject = Array.isArray(subjects) && subjects.length === 1 ? subjects[0] : undefined;
  if (!isRecord(subject) || typeof subject.name !== 'string' || !isRecord(subject.digest) || typeof subject.digest.sha256 !== 'string') {
    return 'its statement does not have exactly one subject with a name and a sha256 digest';
  }
  const predicate = statement.predicate;
  if (!isRecord(predicate) || !Array.isArray(predicate.resources)) return 'its predicate lists no resources';
  const resources: Resource[] = [];
  for (const resource of predicate.resources) {
    if (
      !isRecord(resource) ||
      typeof resource.name !== 'string' ||
      resource.algorithm !== 'sha256' ||
      typeof resource.digest !== 'string' ||
      !HEX64.test(resource.digest)
    ) {
      return 'a resource of its predicate is not { name, algorithm: "sha256", digest: <64 hex> }';
    }
    resources.push({ name: resource.name, algorithm: 'sha256', digest: resource.digest });
  }
  const skill = predicate.skill;
  const frontmatterDigest = isRecord(skill) && typeof skill.frontmatterDigest === 'string' ? skill.frontmatterDigest : undefined;
  return { hint, payload, signature, subjectName: subject.name, subjectDigest: subject.digest.sha256, resources, frontmatterDigest };
}

/**
 * Verify the skill's detached signature (its `skill.oms.sig`) against the keys the caller trusts.
 * States: `unsigned` (no signature file), `invalid` with a code (the files, the path or the bundle do
 * not match what was signed), `untrusted-key` (whole and consistent, but signed by no key of
 * `trustedKeys`: removing a key from the set revokes it), `verified` with the signer's name.
 *
 * @example
 * ```ts
 * import { verifySkill } from '@skillmount/core';
 *
 * const result = await verifySkill({ path: 'pdf', files: [] }, { trustedKeys: [] });
 * result.state; // 'unsigned'
 * ```
 * @throws {OptionError} (the promise rejects) When `trustedKeys` is not a list of keys {@link checkTrustedKeys}
 *   accepts (a name missing or given twice, a text that is not an ECDSA P-256 public key): a wrong key is
 *   a mistake to fix, not a signer to report as untrusted. Checked on every call, a signature or none.
 * @throws {TypeError} Never for a hostile signature (every refusal is a result); only when a path of the
 *   caller's own file list cannot name a file of a skill (as `skillDigest`), or the runtime lacks WebCrypto.
 */
export async function verifySkill(skill: SkillToSign, options: { trustedKeys: readonly TrustedKey[] }): Promise<SkillSignatureResult> {
  const trustedKeys = checkTrustedKeys(options?.trustedKeys);
  const file = skill.files.find((f) => f.path === SIGNATURE_FILE);
  if (!file) return { state: 'unsigned' };
  return verifyAgainst(skill.path, file.bytes, () => subjectsOf(skill), trustedKeys);
}

/** A skill as a listing shows it: its files' digests, the signature's bytes, and SKILL.md's bytes when at hand. */
export interface SkillListingToVerify {
  /** The skill's path from the root of the skills folder (`pdf`, `team/pdf`). */
  path: string;
  /** Every file of the skill with its `sha256:<hex>` digest; the signature's own entry is ignored. */
  files: readonly SkillDigestFile[];
  /** The bytes of `skill.oms.sig`, or undefined when the skill lists none. */
  signature: Uint8Array | undefined;
  /** SKILL.md's bytes, to tell a changed frontmatter from a changed body; without them both are `changed-file`. */
  skillMd?: Uint8Array;
}

/**
 * {@link verifySkill} from a listing: the files' digests stand for their bytes (a server's catalog and
 * a client checking `skills/get` have the digests; only the signature must be read). The caller
 * must have checked the digests against the bytes it serves or reads, as the catalog and
 * `SkillsClient` do.
 *
 * @example
 * ```ts
 * import { verifySkillListing } from '@skillmount/core';
 *
 * const result = await verifySkillListing({ path: 'pdf', files: [], signature: undefined }, { trustedKeys: [] });
 * result.state; // 'unsigned'
 * ```
 * @throws {OptionError} (the promise rejects) As {@link verifySkill}, when `trustedKeys` is not a list of
 *   keys {@link checkTrustedKeys} accepts.
 * @throws {TypeError} Never for a hostile signature; only for a path or digest the skill digest refuses.
 */
export async function verifySkillListing(listing: SkillListingToVerify, options: { trustedKeys: readonly TrustedKey[] }): Promise<SkillSignatureResult> {
  const trustedKeys = checkTrustedKeys(options?.trustedKeys);
  const { skillMd, ...rest } = listing;
  return verifyListingDigests({ ...rest, frontmatterDigest: skillMd && (await frontmatterDigest(skillMd)) }, { trustedKeys });
}

/**
 * {@link verifySkillListing} with the digest of SKILL.md's frontmatter block in place of its bytes
 * (a catalog keeps that digest from when it parsed the file, and not the bytes), for keys already
 * checked (the catalog's and the client's, at creation): they are not checked again.
 */
export async function verifyListingDigests(
  listing: Omit<SkillListingToVerify, 'skillMd'> & { frontmatterDigest: string | undefined },
  options: { trustedKeys: readonly TrustedKey[] },
): Promise<SkillSignatureResult> {
  if (!listing.signature) return { state: 'unsigned' };
  const current = async (): Promise<Subjects> => ({ ...(await subjectsOfDigests(listing.files)), frontmatterDigest: listing.frontmatterDigest });
  return verifyAgainst(listing.path, listing.signature, current, options.trustedKeys);
}

/**
 * The skill path a signature names (its statement's subject), read without verifying anything: a
 * verifier that sees a skill under a base URI or a prefix its signer did not know picks the path
 * to verify against with it. Undefined when the bytes are not a whole bundle.
 *
 * @example
 * ```ts
 * import { signedSkillPath } from '@skillmount/core';
 *
 * signedSkillPath(new TextEncoder().encode('{}')); // undefined: not a bundle
 * ```
 * @throws Nothing: bytes that are not a bundle give undefined.
 */
export function signedSkillPath(signature: Uint8Array): string | undefined {
  const text = utf8(signature);
  const parsed = text === undefined ? undefined : parse(text);
  return typeof parsed === 'object' ? parsed.subjectName : undefined;
}

const utf8 = (bytes: Uint8Array): string | undefined => {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
};

async function verifyAgainst(
  path: string,
  bytes: Uint8Array,
  subjects: () => Promise<Subjects>,
  trustedKeys: readonly TrustedKey[],
): Promise<SkillSignatureResult> {
  const text = utf8(bytes);
  if (text === undefined) return invalid('malformed-bundle', `${SIGNATURE_FILE} is not UTF-8 text`, SIGNATURE_FILE);
  const parsed = parse(text);
  if (typeof parsed === 'string') return invalid('malformed-bundle', `${SIGNATURE_FILE}: ${parsed}`, SIGNATURE_FILE);
  if (parsed.subjectName !== path) {
    return invalid('copied-signature', `the signature was made for the skill ${quoted(parsed.subjectName)}, not ${quoted(path)}`);
  }
  if ((await rootDigest(parsed.resources)) !== parsed.subjectDigest) {
    return invalid('malformed-bundle', `${SIGNATURE_FILE}: its subject digest is not the root digest of its resources`, SIGNATURE_FILE);
  }
  const current = await subjects();
  const mismatch = compareFiles(current, parsed);
  if (mismatch) return mismatch;

  const known = await Promise.all(trustedKeys.map(async (key) => ({ key, hint: await keyHint(key.publicKey) })));
  const named = known.find((k) => k.hint === parsed.hint);
  const pae = preAuthEncoding(PAYLOAD_TYPE, parsed.payload);
  if (named) {
    const outcome = await check(named.key, parsed.signature, pae);
    if (outcome === 'algorithm')
      return invalid('algorithm-mismatch', `the signature is not an ECDSA P-256 SHA-256 signature, the algorithm of the key "${named.key.name}"`);
    if (outcome === 'bad') return invalid('bad-signature', `the signature does not verify with the key "${named.key.name}" its bundle names`);
    return { state: 'verified', signer: { name: named.key.name, hint: parsed.hint }, skillDigest: current.skillDigest };
  }
  for (const { key } of known) {
    if ((await check(key, parsed.signature, pae)) === 'ok') {
      return invalid('key-hint-mismatch', `the bundle names the key ${parsed.hint}, which is not the key "${key.name}" that made the signature`);
    }
  }
  return { state: 'untrusted-key', hint: parsed.hint };
}

async function check(key: TrustedKey, signature: Uint8Array, pae: Uint8Array): Promise<'ok' | 'bad' | 'algorithm'> {
  const publicKey = await importPublicKey(key.publicKey);
  if (!publicKey) return 'algorithm';
  const raw = derToP1363(signature);
  if (!raw) return 'algorithm';
  return (await crypto.subtle.verify(SIGNATURE_ALGORITHM, publicKey, raw as Uint8Array<ArrayBuffer>, pae as Uint8Array<ArrayBuffer>)) ? 'ok' : 'bad';
}

/** The first difference between the skill's files and the signed resources, or undefined. */
function compareFiles(current: Subjects, parsed: Parsed): SkillSignatureResult | undefined {
  const signed = new Map(parsed.resources.map((r) => [r.name, r.digest]));
  const present = new Map(current.resources.map((r) => [r.name, r.digest]));
  for (const [name] of present) if (!signed.has(name)) return invalid('file-added', `${name} is not among the signed files`, name);
  for (const [name] of signed) if (!present.has(name)) return invalid('file-removed', `${name} was signed and is missing`, name);
  for (const [name, digest] of signed) {
    if (present.get(name) === digest) continue;
    if (
      name === 'SKILL.md' &&
      parsed.frontmatterDigest !== undefined &&
      current.frontmatterDigest !== undefined &&
      parsed.frontmatterDigest !== current.frontmatterDigest
    ) {
      return invalid('changed-frontmatter', 'the frontmatter of SKILL.md is not the one signed', name);
    }
    return invalid('changed-file', `${name} is not the file signed`, name);
  }
  return undefined;
}
