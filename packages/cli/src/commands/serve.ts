import type { AddressInfo } from 'node:net';
import type { Server as HttpServer } from 'node:http';
import { CatalogError, SkillCatalog, type SkillWarning } from '@skillmount/core';
import { openStorage, parseLocation } from '../location.js';
import { redact } from '../redact.js';
import { integerOption, parseCommand, UsageError } from '../usage.js';

const warn = (w: SkillWarning) => console.error(redact(`skillmount: warning: ${w.path ?? w.uri ?? ''}${w.path || w.uri ? ': ' : ''}${w.message}`));

/**
 * `skillmount serve <location>`: an MCP endpoint for the skills of a folder, an S3 prefix or a
 * PostgreSQL namespace, until SIGINT or SIGTERM. Reloads when the storage changes (unless
 * `--no-watch`): the folder through fs.watch, PostgreSQL through LISTEN/NOTIFY, S3 by polling.
 */
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
      table: { type: 'string' },
      'poll-interval': { type: 'string' },
    },
    'location',
  );
  const port = integerOption(values.port, 'port', 3000);
  if (port > 65535) throw new UsageError(`--port must be at most 65535, got ${port}`);
  const host = values.host ?? '127.0.0.1';
  const path = values.path ?? '/mcp';
  if (!path.startsWith('/')) throw new UsageError(`--path must start with "/", got "${path}"`);
  const framework = values.framework ?? 'fastify';
  if (framework !== 'fastify' && framework !== 'express') throw new UsageError(`--framework must be fastify or express, got "${framework}"`);
  const pageSize = integerOption(values['page-size'], 'page-size', 100, 1);
  const pollIntervalMs = values['poll-interval'] === undefined ? undefined : integerOption(values['poll-interval'], 'poll-interval', 30_000, 1);
  const sessions = values.stateless !== true;
  const watch = values.watch !== false;

  const opened = await openStorage(parseLocation(location), {
    ...(values.table !== undefined ? { table: values.table } : {}),
    ...(pollIntervalMs !== undefined ? { pollIntervalMs } : {}),
  });
  let catalog: SkillCatalog;
  try {
    catalog = await SkillCatalog.load(opened.storage, {
      pageSize,
      strict: values.strict === true,
      onWarning: warn,
      ...(values.prefix !== undefined ? { prefix: values.prefix } : {}),
    });
  } catch (error) {
    await opened.close();
    // A strict-mode CatalogError lists the problems itself; anything else is about the storage.
    throw error instanceof CatalogError ? error : opened.explain(error);
  }
  let app: RunningApp;
  let address: AddressInfo;
  try {
    app = framework === 'fastify' ? await fastifyApp(catalog, path, sessions, watch) : await expressApp(catalog, path, sessions, watch);
    address = await app.listen(port, host);
  } catch (error) {
    catalog.close();
    await opened.close();
    throw error;
  }
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const mode = [framework, sessions ? 'sessions' : 'stateless', watch ? 'watching' : undefined].filter(Boolean).join(', ');
  const polling = watch && opened.kind === 's3' ? `, polled every ${pollIntervalMs ?? 30_000} ms` : '';
  console.log(`skillmount: serving ${catalog.entries.length} skills at http://${shown}:${address.port}${path} (${mode}) from ${opened.label}${polling}`);

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
