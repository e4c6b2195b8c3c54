/**
 * `@skillmount/core/client`: the host side of the MCP Skills extension. Loads no server code.
 */
export { SkillsClient } from './skills-client.js';
export { SkillLimitError, SkillResultError, SkillsUnsupportedError, SkillVerificationError } from './errors.js';
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
  SkillResource,
  SkillsClientOptions,
  SkillVerificationReason,
} from './types.js';
export { MAX_BYTES_PER_SKILL, MAX_FILES_PER_SKILL, SKILLS_EXTENSION_ID } from '../protocol/constants.js';
export {
  MAX_FRONTMATTER_ALIASES,
  MAX_FRONTMATTER_BYTES,
  MAX_FRONTMATTER_DEPTH,
  MAX_FRONTMATTER_NODES,
  MAX_SKILL_MD_BYTES,
} from '../skillmd/limits.js';
