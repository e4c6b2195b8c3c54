/**
 * The signature phase of a build (the `trust` option): each built skill's `skill.oms.sig` verified
 * from the files' digests the records phase made, reading only the signature. Under
 * `requireSignature` a skill that does not verify is turned into a skipped one; otherwise it is
 * served with a warning. Each served entry carries its result in `_meta`.
 */
import { sha256Digest } from '../bytes/digest.js';
import { SIGNATURE_META_KEY, SKILL_MD } from '../protocol/constants.js';
import { mapLimit } from '../storage-kit/limit.js';
import { toStorageError } from '../storage-kit/errors.js';
import { SIGNATURE_FILE } from '../trust/oms.js';
import { skillDigestManifest, type SkillDigestFile } from '../trust/skill-digest.js';
import { MAX_BUNDLE_BYTES, type SignatureInvalidCode, type SkillSignatureResult, verifyListingDigests } from '../trust/verify.js';
import type { SkillEntry, SkillFiles, SkillWarning } from '../types.js';
import type { Candidate } from './candidates.js';
import type { BuiltSkill } from './skill.js';
import type { CatalogSnapshot, FileRecord, ParsedSkillMd, SignatureMemory } from './snapshot.js';
import type { TrustSettings } from './trust-option.js';

export interface GateInputs {
  files: SkillFiles;
  trust: TrustSettings;
  records: ReadonlyMap<string, FileRecord>;
  skillMds: ReadonlyMap<string, ParsedSkillMd>;
  /** Signatures' bytes the records phase read in this build (see `isSignatureToKeep`). */
  kept: ReadonlyMap<string, Uint8Array>;
  concurrency: number;
  previous: CatalogSnapshot | undefined;
}

export interface Gated {
  built: BuiltSkill[];
  memory: SignatureMemory;
  /** Signatures read from storage. */
  reads: number;
}

/**
 * Check every built skill's signature; `built[i]` is `candidates[i]` built. A skill whose entry is
 * the previous snapshot's (nothing changed), or whose skill digest and signature digest are those
 * of the previous check, keeps its result without a read.
 */
export async function gateSignatures(candidates: readonly Candidate[], built: readonly BuiltSkill[], inputs: GateInputs): Promise<Gated> {
  const memory = new Map<string, { from: string; result: SkillSignatureResult }>();
  let reads = 0;
  const gated = await mapLimit(built, inputs.concurrency, async (b, i) => {
    if (!isServed(b)) return b;
    const dir = b.key.slice(0, -SKILL_MD.length - 1);
    const checked = await checkOne(dir, b, candidates[i]!, inputs, () => reads++);
    memory.set(b.key, checked);
    return admit(b, checked.result, inputs.trust.requireSignature);
  });
  return { built: gated, memory, reads };
}

const isServed = (b: BuiltSkill): b is BuiltSkill & { entry: SkillEntry } => b.entry !== undefined;

async function checkOne(
  dir: string,
  b: BuiltSkill & { entry: SkillEntry },
  candidate: Candidate,
  inputs: GateInputs,
  counted: () => void,
): Promise<{ from: string; result: SkillSignatureResult }> {
  const before = inputs.previous?.reload.signatures?.get(b.key);
  // The same frozen entry as before: the same files, so the same result.
  if (before && inputs.previous?.skills.get(b.key) === b.entry) return before;
  const signature = inputs.records.get(`${dir}/${SIGNATURE_FILE}`);
  if (!signature) return { from: '', result: { state: 'unsigned' } };
  const files: SkillDigestFile[] = candidate.subtree.files.map((path) => ({
    path: path.slice(dir.length + 1),
    digest: inputs.records.get(path)!.resource.digest,
  }));
  const unsigned = files.filter((file) => file.path !== SIGNATURE_FILE);
  const from = `${sha256Digest(skillDigestManifest(unsigned))} ${signature.resource.digest}`;
  if (before?.from === from) return before;
  const bytes = inputs.kept.get(signature.path) ?? (await readSignature(inputs.files, signature, counted));
  if (!(bytes instanceof Uint8Array)) return { from, result: bytes };
  const parsed = inputs.skillMds.get(b.key);
  const frontmatterDigest = parsed?.ok ? parsed.frontmatterDigest : undefined;
  const result = await verifyListingDigests({ path: dir, files: unsigned, signature: bytes, frontmatterDigest }, { trustedKeys: inputs.trust.keys });
  return { from, result };
}

/** For the records phase: a signature's bytes it reads are kept for this phase (the ones a bundle may take). */
export const isSignatureToKeep = (path: string, size: number): boolean =>
  size <= MAX_BUNDLE_BYTES && (path === SIGNATURE_FILE || path.endsWith(`/${SIGNATURE_FILE}`));

/** The signature's bytes as listed, or why they cannot be verified. Storage failures fail the build, as for any file. */
async function readSignature(files: SkillFiles, record: FileRecord, counted: () => void): Promise<Uint8Array | SkillSignatureResult> {
  const { size, digest } = record.resource;
  if (size > MAX_BUNDLE_BYTES) {
    return {
      state: 'invalid',
      code: 'malformed-bundle',
      detail: `${SIGNATURE_FILE} is ${size} bytes, over the ${MAX_BUNDLE_BYTES} a bundle may take`,
      path: SIGNATURE_FILE,
    };
  }
  let bytes: Uint8Array;
  try {
    bytes = await files.read(record.path, { maxBytes: size });
  } catch (error) {
    throw toStorageError(error, 'cannot read', record.path);
  }
  counted();
  if (bytes.byteLength !== size || sha256Digest(bytes) !== digest) {
    const detail = `${SIGNATURE_FILE} changed after it was listed; the next reload checks it again`;
    return { state: 'invalid', code: 'changed-file', detail, path: SIGNATURE_FILE };
  }
  return bytes;
}

/** The built skill as the result lets it be served: its entry with the result in `_meta`, or skipped with a warning. */
function admit(b: BuiltSkill & { entry: SkillEntry }, result: SkillSignatureResult, required: boolean): BuiltSkill {
  const uri = b.entry.uri;
  if (required && result.state !== 'verified') {
    return { key: b.key, entry: undefined, problems: [{ ...refusal(result), path: b.key, uri }], warnings: b.warnings, overLimit: [] };
  }
  const warning = required ? undefined : servedAnyway(result);
  const warnings = warning ? [...b.warnings, { ...warning, path: b.key, uri }] : b.warnings;
  const meta = b.entry._meta?.[SIGNATURE_META_KEY];
  // An entry the previous snapshot served already carries this result.
  const entry = meta === result ? b.entry : { ...b.entry, _meta: { ...b.entry._meta, [SIGNATURE_META_KEY]: result } };
  return { ...b, entry, warnings };
}

const REQUIRED = 'trust.requireSignature is on';
const TRUST_IT = 'add its public key to trust.keys (skillmount serve --trust <file.pub>) if you trust the signer, or sign the skill again with a trusted key';

/** The warning for a skill refused under `requireSignature` (a result other than `verified`). */
function refusal(result: SkillSignatureResult): Omit<SkillWarning, 'path' | 'uri'> {
  if (result.state === 'unsigned') {
    return {
      code: 'signature-missing',
      message:
        `skill refused: it has no signature (${SIGNATURE_FILE}) and ${REQUIRED}; sign it ` +
        `(skillmount sign <folder> --key <private key>) and publish the ${SIGNATURE_FILE} beside its SKILL.md`,
    };
  }
  if (result.state === 'untrusted-key') {
    return {
      code: 'signature-untrusted',
      message: `skill refused: it is signed by a key not in trust.keys (hint ${shortHint(result.hint)}) and ${REQUIRED}; ${TRUST_IT}`,
    };
  }
  if (result.state === 'invalid') {
    return { code: 'signature-invalid', message: `skill refused: its signature is invalid [${result.code}]: ${result.detail}; ${fixFor(result.code)}` };
  }
  throw new TypeError('a verified skill is not refused');
}

/** The warning for a skill served although its signature is invalid or untrusted (`requireSignature` off); none for the other states. */
function servedAnyway(result: SkillSignatureResult): Omit<SkillWarning, 'path' | 'uri'> | undefined {
  if (result.state === 'untrusted-key') {
    return { code: 'signature-untrusted', message: `served, signed by a key not in trust.keys (hint ${shortHint(result.hint)}); ${TRUST_IT}` };
  }
  if (result.state === 'invalid') {
    return { code: 'signature-invalid', message: `served with an invalid signature [${result.code}]: ${result.detail}; ${fixFor(result.code)}` };
  }
  return undefined;
}

const shortHint = (hint: string): string => (hint.length > 16 ? `${hint.slice(0, 16)}…` : hint);

/** What to do about an invalid signature, by its code. */
function fixFor(code: SignatureInvalidCode): string {
  switch (code) {
    case 'malformed-bundle':
      return `replace ${SIGNATURE_FILE} with one \`skillmount sign\` writes`;
    case 'copied-signature':
      return 'a signature names the skill it was made for: sign this skill at its own path';
    case 'changed-file':
    case 'changed-frontmatter':
    case 'file-added':
    case 'file-removed':
      return 'if the change is meant, sign the skill again (skillmount sign); if not, restore the files that were signed';
    default:
      return 'the signature was not made by the key it names: treat the skill as tampered with, and sign it again with that key';
  }
}
