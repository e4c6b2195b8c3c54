/**
 * zod schemas for the extension's wire shapes. Request schemas keep `params` loose on purpose:
 * the SDK turns a schema mismatch into -32603, and bad params must get -32602, so handlers
 * validate params themselves (see server/params.ts).
 */
import * as z from 'zod';
import { SKILL_DIGEST_PATTERN, METHOD_DIRECTORY_READ, METHOD_SKILLS_GET, METHOD_SKILLS_LIST } from './constants.js';

export const DigestSchema = z.string().regex(SKILL_DIGEST_PATTERN, 'must be "sha256:" and 64 lowercase hex digits');

/** `_meta`: an object of any fields, kept as sent (keys under `io.modelcontextprotocol.skills/` are reserved). */
export const MetaSchema = z.record(z.string(), z.unknown());

// Entries and results are loose objects: `_meta`, and fields a later revision adds, pass through
// unchanged, so what a host validates is what the server sent.

export const SkillResourceSchema = z.looseObject({
  uri: z.string().min(1),
  digest: DigestSchema,
  size: z.number().int().nonnegative(),
  _meta: MetaSchema.optional(),
});

export const SkillFrontmatterSchema = z.looseObject({
  name: z.string(),
  description: z.string(),
});

export const SkillEntrySchema = z.looseObject({
  uri: z.string().min(1),
  frontmatter: SkillFrontmatterSchema,
  resources: z.union([z.array(SkillResourceSchema), z.literal('dynamic')]),
  _meta: MetaSchema.optional(),
});

const CacheFields = {
  resultType: z.string().optional(),
  ttlMs: z.number().int().nonnegative().optional(),
  cacheScope: z.enum(['public', 'private']).optional(),
  _meta: MetaSchema.optional(),
};

/** A whole `skills/list` result, every entry's shape checked (the structural rules are `entryProblems`'). */
export const ListSkillsResultSchema = z.looseObject({
  ...CacheFields,
  skills: z.array(SkillEntrySchema),
  nextCursor: z.string().optional(),
});

/** A whole `skills/get` result. */
export const GetSkillResultSchema = z.looseObject({
  ...CacheFields,
  skill: SkillEntrySchema,
});

/**
 * The client's envelopes: entries stay unknown here so that one invalid entry is reported (or
 * skipped) on its own instead of failing the whole page in the SDK's result parsing.
 */
export const ListSkillsEnvelopeSchema = z.looseObject({
  ...CacheFields,
  skills: z.array(z.unknown()),
  nextCursor: z.string().optional(),
});

export const GetSkillEnvelopeSchema = z.looseObject({
  ...CacheFields,
  skill: z.unknown(),
});

/**
 * The client's `resources/read` envelope: contents checked for shape only, so a blob that is not
 * valid base64 reaches the client's own strict decoder and fails as a verification failure
 * (the SDK's own schema refuses some such blobs, lets others through, and says neither clearly).
 */
export const ReadResourceEnvelopeSchema = z.looseObject({
  ...CacheFields,
  contents: z.array(
    z.looseObject({
      uri: z.string(),
      mimeType: z.string().optional(),
      text: z.string().optional(),
      blob: z.string().optional(),
    }),
  ),
});

export const DirectoryChildSchema = z.looseObject({
  uri: z.string(),
  name: z.string(),
  mimeType: z.string().optional(),
});

export const ReadDirectoryResultSchema = z.looseObject({
  ...CacheFields,
  resources: z.array(DirectoryChildSchema),
  nextCursor: z.string().optional(),
});

const LooseParams = z.unknown().optional();

export const ListSkillsRequestSchema = z.object({ method: z.literal(METHOD_SKILLS_LIST), params: LooseParams });
export const GetSkillRequestSchema = z.object({ method: z.literal(METHOD_SKILLS_GET), params: LooseParams });
export const ReadDirectoryRequestSchema = z.object({ method: z.literal(METHOD_DIRECTORY_READ), params: LooseParams });

/** `resources/list` and `resources/read` with loose params, for the handlers installed on a low-level Server. */
export const LooseListResourcesRequestSchema = z.object({ method: z.literal('resources/list'), params: LooseParams });
export const LooseReadResourceRequestSchema = z.object({ method: z.literal('resources/read'), params: LooseParams });

/** `tools/*` and `prompts/*` with loose params, for the read tool and the prompts on a low-level Server without its own. */
export const LooseListToolsRequestSchema = z.object({ method: z.literal('tools/list'), params: LooseParams });
export const LooseCallToolRequestSchema = z.object({ method: z.literal('tools/call'), params: LooseParams });
export const LooseListPromptsRequestSchema = z.object({ method: z.literal('prompts/list'), params: LooseParams });
export const LooseGetPromptRequestSchema = z.object({ method: z.literal('prompts/get'), params: LooseParams });
