/**
 * `@skillmount/core/client`: the host side of the MCP Skills extension. Loads no server code and
 * no Node.js built-in (WebCrypto, TextDecoder and its own base64 decoder), so it runs in browsers too.
 *
 * @module @skillmount/core/client
 */
export { SkillsClient } from './skills-client.js';
export {
  checkTrustedKeys,
  generateSigningKey,
  keyFileSigner,
  keyHint,
  SIGNATURE_FILE,
  type SignatureInvalidCode,
  type SkillDigestFile,
  type SkillListingToVerify,
  type SkillSignatureResult,
  type SkillSigner,
  type SkillToSign,
  signedSkillPath,
  signSkill,
  skillDigest,
  skillDigestManifest,
  type TrustedKey,
  verifySkill,
  verifySkillListing,
} from '../trust/index.js';
export { SkillLimitError, SkillResultError, SkillSignatureError, SkillsUnsupportedError, SkillVerificationError } from './errors.js';
export { checkLimits } from './limits.js';
export { OptionError, type OptionErrorCode } from '../option-error.js';
export type {
  CacheFields,
  CacheScope,
  DirectoryListing,
  DirectoryResource,
  InvalidSkillEntry,
  RequestOptions,
  SkillEntry,
  SkillFile,
  SkillFrontmatter,
  SkillLimitProblem,
  SkillLimits,
  SkillListing,
  SkillLookup,
  SkillSearchResult,
  SkillResource,
  SkillSignatureRefusal,
  SkillSignatureVerdict,
  SkillsClientOptions,
  SkillVerificationReason,
} from './types.js';
export {
  MAX_BYTES_PER_SKILL,
  MAX_FILES_PER_SKILL,
  SEARCH_TOOL_NAME,
  SKILL_DIGEST_PATTERN,
  SKILLS_EXTENSION_ID,
} from '../protocol/constants.js';
export { SKILL_LIMITS } from '../protocol/limits.js';
export {
  serverSupportsSkills,
  skillsCapability,
  skillsCapabilityOf,
  type SkillsCapabilitySettings,
  type SkillsServerCapabilities,
} from '../protocol/capability.js';
export {
  DigestSchema,
  GetSkillResultSchema,
  ListSkillsResultSchema,
  MetaSchema,
  SkillEntrySchema,
  SkillFrontmatterSchema,
  SkillResourceSchema,
} from '../protocol/schemas.js';
export {
  MAX_FRONTMATTER_ALIASES,
  MAX_FRONTMATTER_BYTES,
  MAX_FRONTMATTER_DEPTH,
  MAX_FRONTMATTER_NODES,
  MAX_SKILL_MD_BYTES,
} from '../skillmd/limits.js';
export { JsonRpcErrorCode } from '../protocol/error-codes.js';
