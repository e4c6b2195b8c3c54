/** `tenantCatalogs(options)`: per-tenant catalogs, the public factory of `TenantCatalogs`. */
import { TenantCatalogs } from './catalogs.js';
import { normalizeTenantOptions } from './options.js';
import type { TenantCatalogsOptions, TenantSource } from './types.js';

/**
 * A `SkillSource` that serves each request from its tenant's catalog. `key(ctx)` names the tenant;
 * each tenant's catalog is loaded on its first request (once, however many arrive together), kept
 * in a bounded least-recently-used cache with an idle timeout, and freed when evicted. A request
 * with no tenant, or a refused key, sees an empty catalog: every URI is unknown to it, with the
 * same `-32602` answer as a URI that exists nowhere. So does a tenant whose storage holds nothing
 * (no skill, nothing to warn about), or whose storage root does not exist (`not-found`): its
 * catalog answers the requests that loaded it and is not kept, so made-up keys never push a
 * tenant with skills out of the cache. Each request resolves its tenant once (`resolve`): its
 * result and that result's cache hint come from the same tenant's source.
 *
 * @example
 * ```ts
 * import path from 'node:path';
 * import { tenantCatalogs } from '@skillmount/core';
 * import { fsStorage } from '@skillmount/storage-fs';
 *
 * const skills = tenantCatalogs({
 *   key: (ctx) => ctx.tenant as string | undefined,
 *   storage: (tenant) => fsStorage(path.join('./tenants', tenant)),
 * });
 * ```
 * @throws {@link OptionError} when an option is invalid (no `key`, both or neither of `storage` and
 * `load`, a `max` that is not a positive integer…). Nothing is loaded here: a tenant's catalog is
 * loaded on its first request, and a failure to load it reaches that request.
 */
export function tenantCatalogs(options: TenantCatalogsOptions): TenantSource {
  return new TenantCatalogs(normalizeTenantOptions(options));
}
