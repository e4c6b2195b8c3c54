import { CACHEABLE_PROTOCOL_VERSION } from '../protocol/constants.js';
import { SkillResultError } from './errors.js';
import type { CacheFields, CacheScope } from './types.js';

/** From this revision on, `skills/list` and `skills/get` results extend CacheableResult. */
export function requiresCacheFields(protocolVersion: string | undefined): boolean {
  return protocolVersion !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(protocolVersion) && protocolVersion >= CACHEABLE_PROTOCOL_VERSION;
}

/** Refuse a result without `ttlMs` and `cacheScope` on a revision that requires them. */
export function checkCacheFields(method: string, result: CacheFields, protocolVersion: string | undefined, where = 'the result'): void {
  if (!requiresCacheFields(protocolVersion)) return;
  const missing = (['ttlMs', 'cacheScope'] as const).filter((field) => result[field] === undefined);
  if (missing.length > 0) {
    throw new SkillResultError(
      method,
      `${method}: ${where} has no ${missing.join(' or ')}, which protocol ${protocolVersion} requires; the server does not follow that revision`,
    );
  }
}

/**
 * One set of hints for several pages: the shortest `ttlMs`, and `private` if any page is private,
 * so a cached listing is never kept longer or shared wider than any page allows.
 */
export function mergeCacheFields(results: readonly CacheFields[]): CacheFields {
  const ttls = results.map((r) => r.ttlMs).filter((t): t is number => t !== undefined);
  const scopes = results.map((r) => r.cacheScope).filter((s): s is CacheScope => s !== undefined);
  const merged: CacheFields = {};
  if (ttls.length > 0) merged.ttlMs = Math.min(...ttls);
  if (scopes.length > 0) merged.cacheScope = scopes.includes('private') ? 'private' : 'public';
  return merged;
}
