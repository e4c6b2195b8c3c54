/**
 * Many tenants: one process serving `tenantCatalogs`, a PostgreSQL namespace per tenant (all in
 * one table), at several tenant counts. Memory per loaded tenant and the time of a tenant's first
 * request against a warm one, each count in its own fresh process (bench/cases/tenants-child.ts).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { TYPESCRIPT_IMPORT } from '../../scripts/typescript-import.mjs';
import pg from 'pg';
import { postgresStorage } from '@skillmount/storage-postgres';
import { corpusFiles, fileBytes, fileCount, type CorpusSize } from '../corpus.js';
import { mib, ms, table } from '../format.js';
import { median } from '../measure.js';

export interface TenantsResult {
  tenants: number;
  size: string;
  rssPerTenant: number;
  heapPerTenant: number;
  firstMedian: number;
  firstP95: number;
  warmMedian: number;
  warmP95: number;
}

const CHILD = path.join(import.meta.dirname, 'tenants-child.ts');
const run = promisify(execFile);
const BATCH = 2000;

/** The value at or below which 95% of `values` fall (nearest rank). */
export function p95(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(sorted.length * 0.95) - 1)] ?? NaN;
}

/** Seeds `max(counts)` tenants with the corpus `size` in a table of its own, measures each count, drops the table. */
export async function tenantsCase(connectionString: string, size: CorpusSize, counts: readonly number[]): Promise<TenantsResult[]> {
  const pool = new pg.Pool({ connectionString, max: 4 });
  pool.on('error', () => undefined);
  const tableName = `bench_tenants_${process.pid}`;
  const prefix = 'bench-tenant/';
  try {
    await postgresStorage({ pool, table: tableName }).migrate();
    const files = corpusFiles(size).map((f) => ({ path: f.path, content: Buffer.from(fileBytes(size, f.path)) }));
    const rows: { namespace: string; path: string; content: Buffer }[] = [];
    for (let t = 0; t < Math.max(...counts); t++) for (const f of files) rows.push({ namespace: `${prefix}tenant-${t}`, ...f });
    for (let i = 0; i < rows.length; i += BATCH) {
      const batch = rows.slice(i, i + BATCH);
      await pool.query(`INSERT INTO ${tableName} (namespace, path, content) SELECT * FROM unnest($1::text[], $2::text[], $3::bytea[])`, [
        batch.map((r) => r.namespace),
        batch.map((r) => r.path),
        batch.map((r) => r.content),
      ]);
    }
    await pool.query(`ANALYZE ${tableName}`);
    const results: TenantsResult[] = [];
    for (const tenants of counts) {
      const spec = { connectionString, table: tableName, prefix, tenants, skills: size.skills };
      const { stdout } = await run(process.execPath, ['--expose-gc', ...TYPESCRIPT_IMPORT, CHILD, JSON.stringify(spec)], { maxBuffer: 16 << 20 });
      const r = JSON.parse(stdout) as { inMemory: number; rssPerTenant: number; heapPerTenant: number; first: number[]; warm: number[] };
      if (r.inMemory !== tenants) throw new Error(`bench: ${r.inMemory} of ${tenants} tenants stayed in memory`);
      results.push({
        tenants,
        size: `${size.label} (${fileCount(size)} files)`,
        rssPerTenant: r.rssPerTenant,
        heapPerTenant: r.heapPerTenant,
        firstMedian: median(r.first),
        firstP95: p95(r.first),
        warmMedian: median(r.warm),
        warmP95: p95(r.warm),
      });
    }
    return results;
  } finally {
    await pool.query(`DROP TABLE IF EXISTS ${tableName}`).catch(() => undefined);
    await pool.query(`DROP FUNCTION IF EXISTS ${tableName}_notify() CASCADE`).catch(() => undefined);
    await pool.end();
  }
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
const time = (value: number) => (value < 1 ? `${(value * 1000).toFixed(0)} µs` : ms(value));

export function tenantsSection(results: readonly TenantsResult[]): string[] {
  return [
    '## Many tenants',
    '',
    "One process serving `tenantCatalogs` (`storage: (tenant) => postgresStorage({ pool, table, namespace })`, one shared pool of 10 connections, `max` = the tenant count, not watching), each tenant a namespace of one PostgreSQL table holding the same small corpus; each tenant count in its own fresh process (`--expose-gc`). First request: a tenant's first `skills/list` page from the source, in process (no HTTP), which loads its catalog; tenants are asked one after the other. Memory: RSS and heap after a full GC with every tenant loaded, over a baseline taken after the imports, the pool's first connection and a full GC, divided by the tenant count. Warm: the same request again, every tenant in memory.",
    '',
    table(
      ['tenants', 'corpus per tenant', 'RSS per tenant', 'heap per tenant', 'first request: median', 'first: p95', 'warm request: median', 'warm: p95'],
      results.map((r) => [
        String(r.tenants),
        r.size,
        r.rssPerTenant >= 1 << 20 ? mib(r.rssPerTenant) : kib(r.rssPerTenant),
        r.heapPerTenant >= 1 << 20 ? mib(r.heapPerTenant) : kib(r.heapPerTenant),
        time(r.firstMedian),
        time(r.firstP95),
        time(r.warmMedian),
        time(r.warmP95),
      ]),
    ),
    '',
  ];
}
