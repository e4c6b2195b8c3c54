/**
 * One MCP server under test, in its own process so its CPU and memory are its own: started by
 * `bench/http/servers.ts`, it loads the skills, listens on 127.0.0.1 (a free port), reports its
 * URL over IPC and serves until told to stop.
 *
 *   node --import tsx bench/http/server.ts <kind> <storage-json>
 *   kind: fastify-stateless | fastify-session | express-stateless | express-session | sdk-v2
 *   storage: {"folder": "/tmp/…"}, {"postgres": {"connectionString": "…", "table": "…", "namespace": "…"}}
 *            or {"s3": {"endpoint": "…", "bucket": "…", …}},
 *            optionally with "cacheBytes" for our catalogs
 */
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import type { SkillFiles } from '@skillmount/core';
import type { ServerKind, StorageSpec } from './types.js';

const [kind, spec] = [process.argv[2] as ServerKind, JSON.parse(process.argv[3] ?? '{}') as StorageSpec];
const quiet = { onWarning: () => {} };
let pool: pg.Pool | undefined;

// Each kind and storage imports only what it serves with: the server's start-up is not measured,
// and a process that loads every framework, both SDKs and the AWS SDK spends most of its CPU there.
async function storage(): Promise<SkillFiles> {
  if ('folder' in spec) return (await import('@skillmount/storage-fs')).fsStorage(spec.folder);
  if ('s3' in spec) return (await import('./s3-spec.js')).s3StorageOf(spec.s3);
  const [{ default: pgModule }, { postgresStorage }] = await Promise.all([import('pg'), import('@skillmount/storage-postgres')]);
  pool ??= new pgModule.Pool({ connectionString: spec.postgres.connectionString, max: 10 });
  pool.on('error', () => undefined);
  return postgresStorage({ pool, table: spec.postgres.table, namespace: spec.postgres.namespace });
}

async function start(): Promise<{ url: string; close(): Promise<void> }> {
  if (kind === 'sdk-v2') {
    const [{ McpServer, createMcpHandler }, { SkillsExtension }, { loadSkills }, { serveFetchHandler }] = await Promise.all([
      import('@modelcontextprotocol/server'),
      import('@modelcontextprotocol/server/ext/skills'),
      import('@modelcontextprotocol/server/ext/skills/node'),
      import('../../test/client/support/v2-http.js'),
    ]);
    const skills = 'folder' in spec ? await loadSkills(spec.folder, quiet) : await SkillsExtension.load(await storage(), quiet);
    // The SDK v2's documented shape: a fresh server per request, the catalog attached to each.
    const handler = createMcpHandler(() => {
      const mcp = new McpServer({ name: 'bench', version: '1.0.0' });
      skills.attach(mcp);
      return mcp;
    });
    return serveFetchHandler(handler);
  }
  const sessions = kind.endsWith('-session');
  // Loaded here rather than by the adapter, so both adapters serve the same kind of catalog with the same options.
  const { SkillCatalog } = await import('@skillmount/core');
  const catalog = await SkillCatalog.load(await storage(), spec.cacheBytes === undefined ? quiet : { ...quiet, cacheBytes: spec.cacheBytes });
  if (kind.startsWith('fastify')) {
    const [{ default: Fastify }, { default: skillsPlugin }] = await Promise.all([import('fastify'), import('@skillmount/fastify')]);
    const app = Fastify();
    await app.register(skillsPlugin, { catalog, sessions });
    await app.listen({ port: 0, host: '127.0.0.1' });
    return { url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/mcp`, close: () => app.close() };
  }
  const [{ default: express }, { skillsMiddleware }] = await Promise.all([import('express'), import('@skillmount/express')]);
  const router = skillsMiddleware({ catalog, sessions });
  const app = express();
  app.use('/mcp', router);
  const server: http.Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    async close() {
      await router.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const served = await start();
const stop = async () => {
  await served.close().catch(() => undefined);
  await pool?.end().catch(() => undefined);
  process.exit(0);
};
process.on('disconnect', () => void stop());
process.on('message', (message) => {
  if (message === 'stop') void stop();
  if (message === 'memory') process.send?.({ memory: process.memoryUsage() });
  // The CPU this process has used, read before and after a measured pass: CPU per request depends far less on the machine's load than rates do.
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
});
process.send?.({ url: served.url });
