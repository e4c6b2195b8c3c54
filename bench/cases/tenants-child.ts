/**
 * Many tenants in one fresh process, for the tenants case: `tenantCatalogs` over one PostgreSQL
 * table, a namespace per tenant. Each tenant's first request (a `skills/list` page from the source,
 * which loads its catalog), then RSS and heap after a full GC with every tenant loaded, then a
 * warm request per tenant. Run with --expose-gc:
 *
 *   node --expose-gc --import tsx bench/cases/tenants-child.ts <json: connectionString, table, prefix, tenants, skills>
 */
import pg from 'pg';
import { tenantCatalogs } from '@skillmount/core';
import { postgresStorage } from '@skillmount/storage-postgres';
import { now } from '../measure.js';

const { connectionString, table, prefix, tenants, skills } = JSON.parse(process.argv[2] ?? '{}') as {
  connectionString: string;
  table: string;
  prefix: string;
  tenants: number;
  skills: number;
};
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('bench: run with --expose-gc');
const settle = () => {
  gc();
  gc();
};

const pool = new pg.Pool({ connectionString, max: 10 });
const source = tenantCatalogs({
  key: (ctx) => ctx.tenant as string | undefined,
  storage: (tenant) => postgresStorage({ pool, table, namespace: `${prefix}${tenant}` }),
  max: tenants,
  idleMs: Infinity,
  catalog: { onWarning: () => {} },
});
const request = async (tenant: number) => {
  const start = now();
  const page = await source.list({}, { headers: {}, tenant: `tenant-${tenant}` });
  const ms = now() - start;
  if (page.skills.length !== skills) throw new Error(`bench: tenant-${tenant} listed ${page.skills.length} skills, not ${skills}`);
  return ms;
};

// The pool's connection is open before the baseline: it is shared, not a tenant's.
await pool.query('SELECT 1');
settle();
const base = process.memoryUsage();
const first: number[] = [];
for (let i = 0; i < tenants; i++) first.push(await request(i));
settle();
const loaded = process.memoryUsage();
const warm: number[] = [];
for (let i = 0; i < tenants; i++) warm.push(await request(i));
const inMemory = source.loaded.length;
await source.close();
await pool.end();
process.stdout.write(
  JSON.stringify({
    inMemory,
    rssPerTenant: (loaded.rss - base.rss) / tenants,
    heapPerTenant: (loaded.heapUsed - base.heapUsed) / tenants,
    first,
    warm,
  }),
);
