/**
 * Readiness of a skills server, for load balancers and orchestrators: what the endpoint's and the
 * adapters' `health()` answer. A catalog that failed to reload keeps serving, so it is `degraded`
 * and still ready: a storage outage must not take every replica out at once. Not ready: while the
 * first load runs (`loading`), when it failed (`failed`), and from the start of a stop (`stopping`).
 * Bodies hold a status, counts, times and a fixed reason with a warning code, never an error
 * message (a health path is as public as its port, and a storage error may name hosts or paths).
 */
import { isCatalogBuiltHere, type SkillCatalog } from '../catalog/catalog.js';
import type { SkillSource } from '../types.js';

/** What `health()` answers. */
export interface SkillsHealth {
  /** Whether to send requests here: true for `ready` and `degraded`. */
  ready: boolean;
  status: 'loading' | 'ready' | 'degraded' | 'failed' | 'stopping';
  /** With a catalog: how many skills it serves. */
  skills?: number;
  /** With a catalog: when the catalog now serving was built. */
  loadedAt?: string;
  /** `degraded` or `failed`: what went wrong, as a warning code, in a fixed sentence, and when. */
  code?: 'reload-failed' | 'load-failed';
  reason?: string;
  failedAt?: string;
}

/**
 * The health of a server answering from `source`: a catalog's own state (`ready`, or `degraded`
 * while its last reload failed); another source is ready while served.
 *
 * @example
 * ```ts
 * import { SkillCatalog, memoryStorage } from '@skillmount/core';
 * import { healthOf } from '@skillmount/core/adapter';
 *
 * const catalog = await SkillCatalog.load(memoryStorage({}));
 * console.log(healthOf(catalog).status); // 'ready'
 * ```
 * @throws Nothing.
 */
export function healthOf(source: SkillSource): SkillsHealth {
  if (!isCatalogBuiltHere(source)) return { ready: true, status: 'ready' };
  const catalog = source as SkillCatalog;
  const served = { skills: catalog.entries.length, loadedAt: catalog.loadedAt.toISOString() };
  const failedAt = catalog.reloadFailedAt;
  if (failedAt === undefined) return { ready: true, status: 'ready', ...served };
  return {
    ready: true,
    status: 'degraded',
    ...served,
    code: 'reload-failed',
    reason: 'the last reload failed; serving the previous catalog',
    failedAt: failedAt.toISOString(),
  };
}

/** From the start of a stop: not ready. */
export const HEALTH_STOPPING: SkillsHealth = Object.freeze({ ready: false, status: 'stopping' });
/** While the first load runs: not ready. */
export const HEALTH_LOADING: SkillsHealth = Object.freeze({ ready: false, status: 'loading' });

/**
 * The health of a server whose first load failed at `at`: nothing to serve.
 *
 * @example
 * ```ts
 * import { healthLoadFailed } from '@skillmount/core/adapter';
 *
 * console.log(healthLoadFailed(new Date()).status); // 'failed'
 * ```
 * @throws Nothing.
 */
export function healthLoadFailed(at: Date): SkillsHealth {
  return { ready: false, status: 'failed', code: 'load-failed', reason: 'the skills could not be loaded', failedAt: at.toISOString() };
}
