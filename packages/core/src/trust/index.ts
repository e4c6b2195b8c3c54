/** Skill digests, signing and verifying: standard JavaScript and WebCrypto, so browsers can verify. */
export { generateSigningKey, keyFileSigner, keyHint, type SkillSigner, type TrustedKey } from './keys.js';
export { SIGNATURE_FILE } from './oms.js';
export { checkTrustedKeys } from './trusted-keys.js';
export { signSkill } from './sign.js';
export { type SkillDigestFile, skillDigest, skillDigestManifest } from './skill-digest.js';
export type { SkillToSign } from './subjects.js';
export {
  type SignatureInvalidCode,
  type SkillListingToVerify,
  type SkillSignatureResult,
  signedSkillPath,
  verifySkill,
  verifySkillListing,
} from './verify.js';
