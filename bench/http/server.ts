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
import express from 'express';
import Fastify from 'fastify';
import pg from 'pg';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { SkillsExtension } from '@modelcontextprotocol/server/ext/skills';
import { loadSkills } from '@modelcontextprotocol/server/ext/skills/node';
import { SkillCatalog, type SkillFiles } from '@skillmount/core';
import { skillsMiddleware } from '@skillmount/express';
import skillsPlugin from '@skillmount/fastify';
import { fsStorage } from '@skillmount/storage-fs';
import { postgresStorage } from '@skillmount/storage-postgres';
import { s3StorageOf } from './s3-spec.js';
import { serveFetchHandler } from '../../test/client/support/v2-http.js';
import type { ServerKind, StorageSpec } from './types.js';

const [kind, spec] = [process.argv[2] as ServerKind, JSON.parse(process.argv[3] ?? '{}') as StorageSpec];
const quiet = { onWarning: () => {} };
let pool: pg.Pool | undefined;

function storage(): SkillFiles {
  if ('folder' in spec) return fsStorage(spec.folder);
  if ('s3' in spec) return s3StorageOf(spec.s3);
  pool ??= new pg.Pool({ connectionString: spec.postgres.connectionString, max: 10 });
  pool.on('error', () => undefined);
  return postgresStorage({ pool, table: spec.postgres.table, namespace: spec.postgres.namespace });
}

async function start(): Promise<{ url: string; close(): Promise<void> }> {
  if (kind === 'sdk-v2') {
    const skills = 'folder' in spec ? await loadSkills(spec.folder, quiet) : await SkillsExtension.load(storage(), quiet);
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
  const catalog = await SkillCatalog.load(storage(), spec.cacheBytes === undefined ? quiet : { ...quiet, cacheBytes: spec.cacheBytes });
  if (kind.startsWith('fastify')) {
    const app = Fastify();
    await app.register(skillsPlugin, { catalog, sessions });
    await app.listen({ port: 0, host: '127.0.0.1' });
    return { url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/mcp`, close: () => app.close() };
  }
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
