/**
 * zod schemas for the extension's wire shapes. Request schemas keep `params` loose on purpose:
 * the SDK turns a schema mismatch into -32603, and bad params must get -32602, so handlers
 * validate params themselves (see server/params.ts).
 */
import * as z from 'zod';
import { METHOD_DIRECTORY_READ, METHOD_SKILLS_GET, METHOD_SKILLS_LIST } from './constants.js';

export const DigestSchema = z.string().regex(/^sha256:[0-9a-f]{64}$/, 'must be "sha256:" and 64 lowercase hex digits');

export const SkillResourceSchema = z.object({
  uri: z.string().min(1),
  digest: DigestSchema,
  size: z.number().int().nonnegative(),
});

export const SkillFrontmatterSchema = z.looseObject({
  name: z.string(),
  description: z.string(),
});

export const SkillEntrySchema = z.object({
  uri: z.string().min(1),
  frontmatter: SkillFrontmatterSchema,
  resources: z.union([z.array(SkillResourceSchema), z.literal('dynamic')]),
});

const CacheFields = {
  resultType: z.string().optional(),
  ttlMs: z.number().int().nonnegative().optional(),
  cacheScope: z.enum(['public', 'private']).optional(),
};

export const ListSkillsResultSchema = z.looseObject({
  ...CacheFields,
  skills: z.array(z.unknown()),
  nextCursor: z.string().optional(),
});

export const GetSkillResultSchema = z.looseObject({
  ...CacheFields,
  skill: z.unknown(),
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
