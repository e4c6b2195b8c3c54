// An Express MCP endpoint serving each tenant its own skills from one PostgreSQL table, where a
// namespace column tells the tenants apart. The tenant comes from a header your gateway sets.
// Run: DATABASE_URL=postgres://… pnpm start, after publishing each tenant's skills (see the README).
import { tenantCatalogs } from '@skillmount/core';
import { skillsMiddleware } from '@skillmount/express';
import { migrate, postgresStorage } from '@skillmount/storage-postgres';
import express from 'express';
import pg from 'pg';

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';
const connectionString = process.env.DATABASE_URL;
if (!connectionString) {
  console.error('DATABASE_URL is not set: give the PostgreSQL database that holds the skills, e.g. DATABASE_URL=postgres://app@127.0.0.1:5432/app');
  process.exit(2);
}
const table = process.env.SKILLS_TABLE ?? 'skillmount_files';
const tenantHeader = process.env.TENANT_HEADER ?? 'x-tenant';

// One pool for every tenant: the storages below share it, and never end it.
const pool = new pg.Pool({ connectionString });
pool.on('error', (error) => console.warn(`an idle PostgreSQL connection failed: ${error.message}`));
await migrate(pool, { table }); // creates the table, its triggers and generation table if missing; safe on every start

const perTenantSkills = tenantCatalogs({
  key: (ctx) => ctx.tenant as string | undefined,
  // Each tenant's rows: its namespace of the one table. A tenant with no rows sees no skills.
  storage: (tenant) => postgresStorage({ pool, table, namespace: tenant }),
  // LISTEN/NOTIFY: a write to a tenant's rows, by anyone (skillmount publish, SQL), reloads that tenant.
  watch: true,
  max: 100, // tenants kept in memory; the least recently used is dropped (and loaded again on its next request)
});

const skills = skillsMiddleware({
  source: perTenantSkills,
  // Set by your gateway after it has authenticated the caller, never by clients: the gateway must
  // strip any value a client sent, or anyone could name any tenant.
  context: (req) => ({ tenant: req.get(tenantHeader) }),
});

const app = express();
app.use('/mcp', skills);

const listener = app.listen(port, host, () => {
  const address = listener.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  console.log(`listening on http://${host}:${bound}/mcp (skills from table ${table}, the tenant from the ${tenantHeader} header)`);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    await skills.close();
    await perTenantSkills.close(); // stops each tenant's LISTEN; the pool stays ours
    listener.close();
    await pool.end();
  });
}
