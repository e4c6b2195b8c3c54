import { SkillNotFoundError, type SkillContext, type SkillSource } from '@skillmount/core';

/** The `context` option both adapters take: the tenant named by the `x-tenant` header. */
export const tenantFromHeader = (request: { headers: Record<string, string | string[] | undefined> }) => ({ tenant: request.headers['x-tenant'] });

/**
 * One source answering each request from its tenant's catalog (`ctx.tenant`); a request without a
 * known tenant sees no skills.
 */
export function tenantRouter(sources: Readonly<Record<string, SkillSource>>): SkillSource {
  const of = (ctx: SkillContext): SkillSource | undefined =>
    typeof ctx.tenant === 'string' && Object.hasOwn(sources, ctx.tenant) ? sources[ctx.tenant] : undefined;
  const missing = (uri: string): never => {
    throw new SkillNotFoundError(`Resource ${uri} not found`, uri);
  };
  return {
    list: async (params, ctx) => (of(ctx) ? of(ctx)!.list(params, ctx) : { skills: [] }),
    get: async (uri, ctx) => (of(ctx) ? of(ctx)!.get(uri, ctx) : missing(uri)),
    read: async (uri, ctx) => (of(ctx) ? of(ctx)!.read(uri, ctx) : missing(uri)),
    readDirectory: async (uri, params, ctx) => (of(ctx)?.readDirectory ? of(ctx)!.readDirectory!(uri, params, ctx) : missing(uri)),
    listResources: async (ctx) => (of(ctx)?.listResources ? of(ctx)!.listResources!(ctx) : []),
    cacheHint: () => ({ ttlMs: 60_000, cacheScope: 'private' }),
  };
}
