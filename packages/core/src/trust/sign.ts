/** Signing a skill: the detached OMS bundle (`skill.oms.sig`) over its files and its path. */
import { encodeBase64 } from './encoding.js';
import { keyHint, type SkillSigner } from './keys.js';
import {
  type Bundle,
  BUNDLE_MEDIA_TYPE,
  PAYLOAD_TYPE,
  PREDICATE_TYPE,
  preAuthEncoding,
  rootDigest,
  SIGNATURE_FILE,
  STATEMENT_TYPE,
  type Statement,
} from './oms.js';
import { type SkillToSign, subjectsOf } from './subjects.js';

/**
 * The text of the skill's detached signature (an OMS Sigstore bundle, JSON), to write as
 * `skill.oms.sig` at the top of its folder. It covers every other file of the skill and the
 * skill's path; the signer signs the DSSE pre-authentication encoding of the statement.
 *
 * @example
 * ```ts
 * import { generateSigningKey, keyFileSigner, signSkill } from '@skillmount/core';
 *
 * const signer = await keyFileSigner((await generateSigningKey()).privateKey);
 * const files = [{ path: 'SKILL.md', bytes: new TextEncoder().encode('---\nname: pdf\ndescription: PDFs.\n---\n') }];
 * const signature = await signSkill({ path: 'pdf', files }, signer);
 * ```
 * @throws {TypeError} A file path the skill digest refuses, or a signer whose public key is not SPKI PEM.
 */
export async function signSkill(skill: SkillToSign, signer: SkillSigner): Promise<string> {
  const hint = await keyHint(signer.publicKey);
  if (!hint) throw new TypeError('skillmount: the signer\'s public key is not a PEM "PUBLIC KEY" block');
  const subjects = await subjectsOf(skill);
  const statement: Statement = {
    _type: STATEMENT_TYPE,
    subject: [{ name: skill.path, digest: { sha256: await rootDigest(subjects.resources) } }],
    predicateType: PREDICATE_TYPE,
    predicate: {
      serialization: { method: 'files', hash_type: 'sha256', allow_symlinks: false, ignore_paths: [SIGNATURE_FILE] },
      resources: subjects.resources,
      skill: { digest: subjects.skillDigest, frontmatterDigest: subjects.frontmatterDigest },
    },
  };
  const payload = new TextEncoder().encode(JSON.stringify(statement));
  const signature = await signer.sign(preAuthEncoding(PAYLOAD_TYPE, payload));
  const bundle: Bundle = {
    mediaType: BUNDLE_MEDIA_TYPE,
    verificationMaterial: { publicKey: { hint }, tlogEntries: [] },
    dsseEnvelope: { payload: encodeBase64(payload), payloadType: PAYLOAD_TYPE, signatures: [{ sig: encodeBase64(signature), keyid: '' }] },
  };
  return `${JSON.stringify(bundle, null, 2)}\n`;
}
