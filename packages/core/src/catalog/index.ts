/**
 * The catalog alone: load, verify and read skills from any {@link SkillFiles} storage without the
 * MCP SDK. For hosts, tools and storage packages that build or check catalogs without serving
 * them; importing it loads none of the SDK v1, zod or the HTTP code that `@skillmount/core` brings.
 * Every value here is the same one `@skillmount/core` exports (`instanceof` holds across both).
 *
 * @module @skillmount/core/catalog
 */
export type {
  CatalogOptions,
  ReloadReport,
  SkillEntry,
  SkillFileBytes,
  SkillFileContent,
  SkillFileEntry,
  SkillFileKind,
  SkillFileListing,
  SkillFileReadOptions,
  SkillFileText,
  SkillFiles,
  SkillFrontmatter,
  SkillLimits,
  SkillReadResult,
  SkillResource,
  SkillWarning,
  SkillWarningCode,
  SkillSearchOptions,
  SkillSearchPage,
  SkillSearchSettings,
  SkillSearchRerank,
  SkillSearchCandidate,
} from '../types.js';
export { SkillCatalog } from './catalog.js';
export { memoryStorage, type MemoryStorage } from '../storage/memory.js';
export { CatalogError, SkillNotFoundError, StorageError } from '../errors.js';
export { SkillSearchError, type SkillSearchErrorReason } from '../search/errors.js';
export { SEARCH_LIMITS } from '../search/limits.js';
export { OptionError, type OptionErrorCode } from '../option-error.js';
export { consoleWarning } from '../warnings/console.js';
export { sha256Digest } from '../bytes/digest.js';
export { escapeControls } from '../text/escape.js';
export { SKILL_LIMITS } from '../protocol/limits.js';
