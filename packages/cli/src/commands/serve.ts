import type { AddressInfo } from 'node:net';
import type { Server as HttpServer } from 'node:http';
import { SkillCatalog, type SkillWarning } from '@skillmount/core';
import { openStorage } from '../location.js';
import { integerOption, parseCommand, UsageError } from '../usage.js';

const warn = (w: SkillWarning) => console.error(`skillmount: warning: ${w.path ?? w.uri ?? ''}${w.path || w.uri ? ': ' : ''}${w.message}`);

/** `skillmount serve <folder>`: an MCP endpoint for the folder's skills, until SIGINT or SIGTERM. */
export async function serve(argv: string[]): Promise<undefined> {
  const { values, location } = parseCommand(
    argv,
    {
      port: { type: 'string' },
      host: { type: 'string' },
      path: { type: 'string' },
      framework: { type: 'string' },
      prefix: { type: 'string' },
      'page-size': { type: 'string' },
      stateless: { type: 'boolean' },
      watch: { type: 'boolean' },
      strict: { type: 'boolean' },
    },
    'folder',
  );
  const port = integerOption(values.port, 'port', 3000);
  if (port > 65535) throw new UsageError(`--port must be at most 65535, got ${port}`);
  const host = values.host ?? '127.0.0.1';
  const path = values.path ?? '/mcp';
  if (!path.startsWith('/')) throw new UsageError(`--path must start with "/", got "${path}"`);
  const framework = values.framework ?? 'fastify';
  if (framework !== 'fastify' && framework !== 'express') throw new UsageError(`--framework must be fastify or express, got "${framework}"`);
  const pageSize = integerOption(values['page-size'], 'page-size', 100, 1);
  const sessions = values.stateless !== true;
  const watch = values.watch !== false;

  const opened = await openStorage(location);
  const catalog = await SkillCatalog.load(opened.storage, {
    pageSize,
    strict: values.strict === true,
    onWarning: warn,
    ...(values.prefix !== undefined ? { prefix: values.prefix } : {}),
  });
  const app = framework === 'fastify' ? await fastifyApp(catalog, path, sessions, watch) : await expressApp(catalog, path, sessions, watch);
  const address = await app.listen(port, host);
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const mode = [framework, sessions ? 'sessions' : 'stateless', watch ? 'watching' : undefined].filter(Boolean).join(', ');
  console.log(`skillmount: serving ${catalog.entries.length} skills at http://${shown}:${address.port}${path} (${mode})`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.error(`skillmount: ${signal}, stopping`);
    await app.close();
    catalog.close();
    await opened.close();
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  return undefined;
}

interface RunningApp {
  listen(port: number, host: string): Promise<AddressInfo>;
  close(): Promise<void>;
}

async function fastifyApp(catalog: SkillCatalog, path: string, sessions: boolean, watch: boolean): Promise<RunningApp> {
  const { default: Fastify } = await import('fastify');
  const { skillsPlugin } = await import('@skillmount/fastify');
  const app = Fastify();
  await app.register(skillsPlugin, { catalog, path, sessions, watch });
  return {
    async listen(port, host) {
      await app.listen({ port, host });
      return app.server.address() as AddressInfo;
    },
    close: () => app.close(),
  };
}

async function expressApp(catalog: SkillCatalog, path: string, sessions: boolean, watch: boolean): Promise<RunningApp> {
  const { default: express } = await import('express');
  const { skillsMiddleware } = await import('@skillmount/express');
  const app = express();
  const skills = skillsMiddleware({ catalog, sessions, watch });
  app.use(path, skills);
  let server: HttpServer | undefined;
  return {
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        server = app.listen(port, host, (error?: Error) => (error ? reject(error) : resolve(server!.address() as AddressInfo)));
      }),
    async close() {
      await skills.close();
      if (!server) return;
      const closed = new Promise<void>((resolve) => server!.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
