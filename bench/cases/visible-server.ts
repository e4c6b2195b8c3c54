/**
 * One server of the visibility case in a fresh process (`--expose-gc`), so its memory is its own:
 * Fastify, stateless, over one PostgreSQL table, the user taken from the `x-user` header by the
 * plugin's `context` option.
 *
 *   one-catalog: one SkillCatalog holding every user's skills (loaded before it listens), served
 *                with a `visible` rule showing a user their own skills and the shared ones
 *   tenants:     `tenantCatalogs`, a tenant per user, each loaded on the tenant's first request
 *
 * Reports `{ url, loadMs }` over IPC once it listens, then answers `'memory'` (RSS and heap after
 * a full GC, over a baseline taken after the imports, the pool's first connection and a full GC),
 * `'calls'` (visible() calls so far), `'cpu'` and `'stop'`.
 *
 *   node --expose-gc --import tsx bench/cases/visible-server.ts <json: side, connectionString, table, namespace, prefix, users>
 */
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import pg from 'pg';
import { SkillCatalog, tenantCatalogs, type SkillContext, type SkillVisibility, type TenantSource } from '@skillmount/core';
import skillsPlugin from '@skillmount/fastify';
import { postgresStorage } from '@skillmount/storage-postgres';
import { now } from '../measure.js';
import { seenBy } from '../users-corpus.js';

export type VisibleSideName = 'one-catalog' | 'tenants';

export interface VisibleServerSpec {
  side: VisibleSideName;
  connectionString: string;
  table: string;
  /** The namespace of the one catalog (`one-catalog`). */
  namespace: string;
  /** Tenant namespaces are this prefix and the user (`tenants`). */
  prefix: string;
  users: number;
}

const spec = JSON.parse(process.argv[2] ?? '{}') as VisibleServerSpec;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('bench: run bench/cases/visible-server.ts with --expose-gc');
const settle = () => {
  gc();
  gc();
};
const quiet = { onWarning: () => {} };

const pool = new pg.Pool({ connectionString: spec.connectionString, max: 10 });
pool.on('error', () => undefined);
// The pool's connection is open before the baseline: both sides share one, and it is no user's.
await pool.query('SELECT 1');
settle();
const base = process.memoryUsage();

let calls = 0;
// As an app would write it: the user's own folder, or the shared one.
const visible: SkillVisibility = (entry, ctx) => {
  calls++;
  return typeof ctx.user === 'string' && seenBy(ctx.user, entry.uri);
};
const userOf = (ctx: SkillContext) => (typeof ctx.user === 'string' ? ctx.user : undefined);

let loadMs = 0;
let tenants: TenantSource | undefined;
let catalog: SkillCatalog | undefined;
if (spec.side === 'one-catalog') {
  const start = now();
  catalog = await SkillCatalog.load(postgresStorage({ pool, table: spec.table, namespace: spec.namespace }), quiet);
  loadMs = now() - start;
} else {
  tenants = tenantCatalogs({
    key: userOf,
    storage: (user) => postgresStorage({ pool, table: spec.table, namespace: `${spec.prefix}${user}` }),
    max: spec.users,
    idleMs: Infinity,
    catalog: quiet,
  });
}

// A request timeout, as the plugin advises for a server facing clients; it plays no part in the figures.
const app = Fastify({ requestTimeout: 30_000 });
await app.register(skillsPlugin, {
  ...(catalog ? { catalog, visible } : { source: tenants! }),
  sessions: false,
  context: (request) => ({ user: request.headers['x-user'] }),
});
await app.listen({ port: 0, host: '127.0.0.1' });

const stop = async () => {
  await app.close().catch(() => undefined);
  await tenants?.close().catch(() => undefined);
  await pool.end().catch(() => undefined);
  process.exit(0);
};
process.on('disconnect', () => void stop());
process.on('message', (message) => {
  if (message === 'stop') void stop();
  if (message === 'calls') process.send?.({ calls });
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
  if (message === 'memory') {
    settle();
    const at = process.memoryUsage();
    // Tenants in memory (B), to check that every user's catalog was still held when measured.
    const held = tenants ? tenants.loaded.length : 0;
    process.send?.({ memory: { rssGrowth: at.rss - base.rss, heapGrowth: at.heapUsed - base.heapUsed, tenants: held } });
  }
});
process.send?.({ url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/mcp`, loadMs });
