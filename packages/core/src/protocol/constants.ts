/** Extension identifier declared under `capabilities.extensions`. */
import { JsonRpcErrorCode } from './error-codes.js';
export const SKILLS_EXTENSION_ID = 'io.modelcontextprotocol/skills';

export const METHOD_SKILLS_LIST = 'skills/list';
export const METHOD_SKILLS_GET = 'skills/get';
export const METHOD_DIRECTORY_READ = 'resources/directory/read';

export const SKILL_SCHEME = 'skill';
export { SKILL_MD } from '../storage-kit/skill-folders.js';
export const SKILL_MD_MIME = 'text/markdown';
export const DIRECTORY_MIME = 'inode/directory';

/** Per-skill limits every conforming host must accept (SEP-2640 "Limits"). */
export const MAX_FILES_PER_SKILL = 512;
export const MAX_BYTES_PER_SKILL = 16 * 1024 * 1024;

/** A file digest on the wire: `sha256:` and 64 lowercase hex digits. */
export const SKILL_DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;

/**
 * The `resources/read` `params._meta` key under which a client names the digest of the entry it
 * holds for the file (skillmount's own reverse-domain prefix: the base protocol reserves those
 * whose second label is `modelcontextprotocol` or `mcp`). A server that keeps earlier bytes
 * serves those; one that knows nothing of the key ignores it.
 */
export const DIGEST_META_KEY = 'io.github.skillmount/digest';

/**
 * The skill entry `_meta` key under which a catalog with the `trust` option gives what it found of
 * the skill's signature (`SkillSignatureMeta`): skillmount's own reverse-domain prefix, as
 * `DIGEST_META_KEY`. Clients that do not know it ignore it (the extension gives such annotations
 * no meaning).
 */
export const SIGNATURE_META_KEY = 'io.github.skillmount/signature';

/** `data.reason` of the `-32602` error for a read that names a digest the server no longer serves. */
export const ENTRY_CHANGED_REASON = 'entry-changed';

export { MAX_COMPATIBILITY_LENGTH, MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH } from '../skillmd/limits.js';

/**
 * Sent when the app sets no cache hint: nothing cached, nothing shared (the official SDK's
 * default). A shareable default is unsafe once results depend on the request's context.
 */
export const DEFAULT_CACHE_HINT = { ttlMs: 0, cacheScope: 'private' } as const;
export const DEFAULT_PAGE_SIZE = 100;

/** JSON-RPC error codes this extension uses. */
export const INVALID_PARAMS = JsonRpcErrorCode.InvalidParams;
export const INTERNAL_ERROR = JsonRpcErrorCode.InternalError;

/** The protocol revision on which `ttlMs` and `cacheScope` are required. */
export const CACHEABLE_PROTOCOL_VERSION = '2026-07-28';

/** The tool that searches the skills a request may see (the `search` option); its bounds are `SEARCH_LIMITS`. */
export const SEARCH_TOOL_NAME = 'search_skills';
