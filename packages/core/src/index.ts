/**
 * Serve Agent Skills over MCP (`io.modelcontextprotocol/skills`) from a server built on the MCP
 * TypeScript SDK v1: the catalog, `attach`, the framework-neutral HTTP endpoint, memory storage,
 * per-tenant catalogs, the protocol's constants and schemas, and the errors they throw.
 *
 * @module @skillmount/core
 */
export type {
  CacheHint,
  CacheScope,
  CatalogOptions,
  DirectoryChild,
  DirectoryPage,
  ListSkillsPage,
  ListSkillsParams,
  ReloadReport,
  SkillContext,
  SkillEntry,
  SkillFileBytes,
  SkillFileContent,
  SkillFileText,
  SkillReadResult,
  PublishedFile,
  SkillFileEntry,
  SkillFileListing,
  SkillFileReadOptions,
  ListAllOptions,
  SkillFileKind,
  SkillFiles,
  SkillFrontmatter,
  SkillLimits,
  SkillResource,
  SkillResourceListing,
  SkillSource,
  SkillVisibility,
  InstructionsOption,
  SkillsService,
  SearchSkillsResult,
  SkillsCallExtra,
  SkillsResultEnvelope,
  ListSkillsResult,
  GetSkillResult,
  ReadSkillFileResult,
  ReadDirectoryResult,
  SkillFileContents,
  SkillWarning,
  SkillWarningCode,
  SkillReadVia,
  SkillClientInfo,
  SkillReadEvent,
  SkillReadHooks,
  SkillSearchCandidate,
  SkillSearchOptions,
  SkillSearchPage,
  SkillSearchRerank,
  SkillSearchSettings,
  SkillSignatureMeta,
  SkillTrustOptions,
} from './types.js';
export {
  DIRECTORY_MIME,
  MAX_BYTES_PER_SKILL,
  MAX_FILES_PER_SKILL,
  METHOD_DIRECTORY_READ,
  METHOD_SKILLS_GET,
  METHOD_SKILLS_LIST,
  SEARCH_TOOL_NAME,
  SIGNATURE_META_KEY,
  SKILL_DIGEST_PATTERN,
  SKILLS_EXTENSION_ID,
} from './protocol/constants.js';
export { SKILL_LIMITS } from './protocol/limits.js';
export {
  serverSupportsSkills,
  skillsCapability,
  skillsCapabilityOf,
  type SkillsCapabilitySettings,
  type SkillsServerCapabilities,
} from './protocol/capability.js';
export {
  DigestSchema,
  GetSkillResultSchema,
  ListSkillsResultSchema,
  MetaSchema,
  SkillEntrySchema,
  SkillFrontmatterSchema,
  SkillResourceSchema,
} from './protocol/schemas.js';
export { CatalogError, SkillNotFoundError, SkillProtocolError, StorageError } from './errors.js';
export { SkillSearchError, type SkillSearchErrorReason } from './search/errors.js';
export { SEARCH_LIMITS } from './search/limits.js';
export { searchEntries, type SearchEntriesOptions } from './search/search.js';
export { parseFrontmatter } from './skillmd/parse.js';
export {
  MAX_FRONTMATTER_ALIASES,
  MAX_FRONTMATTER_BYTES,
  MAX_FRONTMATTER_DEPTH,
  MAX_FRONTMATTER_NODES,
  MAX_SKILL_MD_BYTES,
} from './skillmd/limits.js';
export { isValidSkillName } from './skillmd/rules.js';
export { buildSkillUri, canonicalUri, parseUri } from './uri/canonical.js';
export { sha256Digest } from './bytes/digest.js';
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
} from './trust/index.js';
export { escapeControls } from './text/escape.js';
export { visibleLine } from './text/visible.js';
export { skillVersion } from './text/skill-version.js';
export { formatBytes } from './text/size.js';
export { SkillCatalog } from './catalog/catalog.js';
export { consoleWarning } from './warnings/console.js';
export { OptionError, type OptionErrorCode } from './option-error.js';
export { buildSkillEntry } from './entry/build.js';
export { entryProblems } from './entry/validate.js';
export { memoryStorage, type MemoryStorage } from './storage/memory.js';
export { attach, type AttachOptions, type AttachedSkills } from './server/attach.js';
export { runWithSkillContext } from './context/store.js';
export { createSkillsEndpoint, type SkillsEndpoint, type SkillsEndpointOptions } from './http/endpoint.js';
export type { SkillsHealth } from './health/readiness.js';
export { createWellKnownHandler, type WellKnownHandler, type WellKnownHandlerOptions } from './http/well-known-handler.js';
export { isModernRequest } from './modern/envelope.js';
export { VERSION } from './version.js';
export {
  SKILLS_CHANNELS,
  type SkillRequestMessage,
  type CatalogBuildMessage,
  type TenantLoadMessage,
  type WellKnownAnswerMessage,
  type TenantCacheMessage,
  type EvictionReason,
} from './telemetry/channels.js';
export { tenantCatalogs } from './tenants/source.js';
export { tenantKeyProblem, MAX_TENANT_KEY_LENGTH } from './tenants/key.js';
export type {
  ClosableSkillSource,
  TenantCatalogsOptions,
  TenantKeyFunction,
  TenantLoadOptions,
  TenantSource,
  TenantStorageOptions,
} from './tenants/types.js';
// The type of the allowedHosts option; the request checks themselves are on @skillmount/core/adapter.
export type { AllowedHosts } from './http/types.js';
export { MCP_CORS_OPTIONS, type McpCorsOptions } from './http/cors.js';
export { JsonRpcErrorCode } from './protocol/error-codes.js';
