/** A source over a catalog that records the context of every call, for tests of what reaches a source. */
import type { SkillCatalog, SkillContext, SkillSource } from '@skillmount/core';

export function recordingSource(catalog: SkillCatalog): { source: SkillSource; seen: SkillContext[] } {
  const seen: SkillContext[] = [];
  const source: SkillSource = {
    list: async (params, ctx) => {
      seen.push(ctx);
      return catalog.list(params);
    },
    get: async (uri, ctx) => {
      seen.push(ctx);
      return catalog.get(uri);
    },
    read: async (uri, ctx) => {
      seen.push(ctx);
      return catalog.read(uri);
    },
  };
  return { source, seen };
}
