import path from 'node:path';
import { tenantCatalogs, type CatalogOptions, type SkillFiles, type TenantSource } from '@skillmount/core';
import type { OpenedStorage } from './types.js';

export interface TenantServeOptions {
  /** The request header naming the tenant, e.g. `x-tenant`. */
  header: string;
  catalog: CatalogOptions;
  watch: boolean;
  max: number;
  /** S3: how often each tenant's watch looks for changes. */
  pollIntervalMs?: number;
  /** S3 with a manifest: the longest each tenant's reloads go without listing its prefix. */
  fullListIntervalMs?: number;
}

/** The S3 settings every tenant's storage gets: only those given, so the storage's defaults apply to the rest. */
type S3Settings = Pick<TenantServeOptions, 'pollIntervalMs' | 'fullListIntervalMs'>;

/**
 * One catalog per tenant under the opened location: `<folder>/<tenant>`, the S3 sub-prefix
 * `<prefix><tenant>/`, or the PostgreSQL namespace `<tenant>` (`<namespace>/<tenant>` under a
 * namespace). Tenant storages share the location's S3 client or PostgreSQL pool. A request
 * without the header sees no skills; names that are not a plain single segment are refused.
 */
export async function tenantSource(base: OpenedStorage, options: TenantServeOptions): Promise<TenantSource> {
  const header = options.header.toLowerCase();
  const s3: S3Settings = {
    ...(options.pollIntervalMs !== undefined ? { pollIntervalMs: options.pollIntervalMs } : {}),
    ...(options.fullListIntervalMs !== undefined ? { fullListIntervalMs: options.fullListIntervalMs } : {}),
  };
  const storageFor = await tenantStorages(base, s3);
  return tenantCatalogs({
    key: (ctx) => {
      const value = ctx.headers[header];
      return typeof value === 'string' && value !== '' ? value : undefined;
    },
    storage: storageFor,
    catalog: options.catalog,
    watch: options.watch,
    max: options.max,
    // Tenant storages borrow the location's client or pool: closing one must not close those.
    closeStorage: base.kind === 'folder',
    ...(options.catalog.onWarning ? { onWarning: options.catalog.onWarning } : {}),
  });
}

async function tenantStorages(base: OpenedStorage, s3: S3Settings): Promise<(tenant: string) => SkillFiles> {
  if (base.kind === 'folder') {
    const { fsStorage } = await import('@skillmount/storage-fs');
    // A tenant with no folder sees an empty catalog (tenantCatalogs' rule for a storage root that
    // is not found), never kept in memory: a made-up name cannot push a real tenant out.
    return (tenant) => fsStorage(path.join(base.storage.root, tenant));
  }
  if (base.kind === 's3') {
    const { s3Storage } = await import('@skillmount/storage-s3');
    const { client, bucket, prefix } = base.storage;
    return (tenant) => s3Storage({ client, bucket, prefix: `${prefix}${tenant}/`, ...s3 });
  }
  const { postgresStorage } = await import('@skillmount/storage-postgres');
  const { pool, table, namespace } = base.storage;
  return (tenant) => postgresStorage({ pool, table, namespace: namespace === '' ? tenant : `${namespace}/${tenant}` });
}
