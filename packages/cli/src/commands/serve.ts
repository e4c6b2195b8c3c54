import type { AddressInfo } from 'node:net';
import type { FastifyReply } from 'fastify';
import type { Server as HttpServer, ServerResponse as HttpResponse } from 'node:http';
import {
  CatalogError,
  SkillCatalog,
  type CatalogOptions,
  type ReloadReport,
  type SkillTrustOptions,
  type SkillWarning,
  type TenantSource,
} from '@skillmount/core';
import { FLAGS } from '../flags.js';
import { corsOrigins, expressCors, useFastifyCors } from '../cors.js';
import { Health, healthPaths, watchReloads, type HealthAnswer, type HealthPaths } from '../health.js';
import { checkReachable } from '../reachable.js';
import { tenantSource } from '../tenants.js';
import { openStorage, parseLocation, quiet } from '../location.js';
import { integerOption, parseCommand, UsageError } from '../usage.js';
import { plural } from '../terminal/words.js';
import { logFormat, ServeLog } from '../serve-log.js';
import { stopWhenAsked } from './serve-shutdown.js';
import { trustFlags } from '../trust-flags.js';

/**
 * `skillmount serve <location>`: an MCP endpoint for the skills of a folder, an S3 prefix or a
 * PostgreSQL namespace, until SIGINT or SIGTERM, or until the process that launched it ends
 * (./serve-shutdown.ts). Reloads when the storage changes (unless `--no-watch`): the folder
 * through fs.watch, PostgreSQL through LISTEN/NOTIFY, S3 by polling.
 */
export async function serve(argv: string[]): Promise<undefined> {
  const { values, location } = parseCommand(argv, FLAGS.serve, 'location');
  const log = new ServeLog(logFormat(values['log-format']));
  const warn = log.warning;
  const port = integerOption(values.port, 'port', 3000);
  if (port > 65535) throw new UsageError(`--port must be at most 65535, got ${port}`);
  const host = values.host ?? '127.0.0.1';
  const path = values.path ?? '/mcp';
  if (!path.startsWith('/')) throw new UsageError(`--path must start with "/", got "${path}"`);
  const framework = values.framework ?? 'fastify';
  if (framework !== 'fastify' && framework !== 'express') throw new UsageError(`--framework must be fastify or express, got "${framework}"`);
  const pageSize = integerOption(values['page-size'], 'page-size', 100, 1);
  const retainMs = values['retain-ms'] === undefined ? undefined : integerOption(values['retain-ms'], 'retain-ms', 0, 0);
  const pollIntervalMs = values['poll-interval'] === undefined ? undefined : integerOption(values['poll-interval'], 'poll-interval', 30_000, 1);
  const fullListIntervalMs = fullListInterval(values['full-list-interval']);
  const sessions = values.stateless !== true;
  const watch = values.watch !== false;
  const tenantHeader = values['tenant-header'];
  if (tenantHeader !== undefined && !/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(tenantHeader)) {
    throw new UsageError(`--tenant-header must be an HTTP header name such as x-tenant, got "${tenantHeader}"`);
  }
  const maxTenants = integerOption(values['max-tenants'], 'max-tenants', 50, 1);
  if (values['max-tenants'] !== undefined && tenantHeader === undefined) throw new UsageError('--max-tenants applies with --tenant-header only');
  const http: HttpSettings = {
    onWarning: warn,
    requestTimeout: integerOption(values['request-timeout'], 'request-timeout', 30_000, 1),
    allowedHosts: hostList(values['allowed-hosts']),
    wellKnown: values['well-known'] === true,
  };
  http.cors = corsOrigins(values.cors as string[] | undefined);
  const health = healthPaths(values.health as string[] | undefined, path);
  const reach = reachFlags(values);
  const flags = await trustFlags({ trust: values.trust as string[] | undefined, 'require-signature': values['require-signature'] });
  const trust: SkillTrustOptions | undefined = flags && { keys: flags.keys, requireSignature: flags.require };

  const state = new Health(Math.max(STORAGE_WINDOW_MS, 3 * (pollIntervalMs ?? 30_000)));
  const opened = await openStorage(parseLocation(location), {
    onError: storageTrouble(state, log),
    ...(values.table !== undefined ? { table: values.table } : {}),
    ...(pollIntervalMs !== undefined ? { pollIntervalMs } : {}),
    ...(fullListIntervalMs !== undefined ? { fullListIntervalMs } : {}),
  });
  if (tenantHeader !== undefined) {
    try {
      await checkReachable(opened);
    } catch (error) {
      await opened.close();
      throw error;
    }
  }
  const catalogOptions = catalogOptionsOf({ pageSize, retainMs, strict: values.strict === true, prefix: values.prefix, search: reach.search, trust, warn });
  let served: Served;
  try {
    served =
      tenantHeader === undefined
        ? { catalog: await SkillCatalog.load(opened.storage, catalogOptions) }
        : {
            source: await tenantSource(opened, {
              header: tenantHeader,
              catalog: catalogOptions,
              watch,
              max: maxTenants,
              ...(pollIntervalMs !== undefined ? { pollIntervalMs } : {}),
              ...(fullListIntervalMs !== undefined ? { fullListIntervalMs } : {}),
            }),
          };
  } catch (error) {
    await opened.close();
    // A strict-mode CatalogError lists the problems itself; anything else is about the storage (the keys were checked above).
    throw error instanceof CatalogError ? error : opened.explain(error);
  }
  if ('catalog' in served) state.serve(served.catalog);
  // A tenant source watches each tenant's storage itself; one catalog is watched here, so that
  // the log hears how each reload went.
  const stopWatching = 'catalog' in served && watch ? watchReloads(served.catalog, reloadReporter(log)) : undefined;
  if (health) http.health = { paths: health, state };
  const release = async () => {
    stopWatching?.();
    if ('catalog' in served) served.catalog.close();
    else await served.source.close();
    await opened.close();
  };
  let app: RunningApp;
  let address: AddressInfo;
  try {
    app = framework === 'fastify' ? await fastifyApp(served, path, sessions, http, reach) : await expressApp(served, path, sessions, http, reach);
    address = await app.listen(port, host);
  } catch (error) {
    await release();
    throw error;
  }
  // Before the "serving" line: whoever waits for it may signal at once, and must find the handlers in place.
  // Readiness turns to "stopping" first, then the drain proceeds.
  stopWhenAsked({ server: app.server, onStop: () => state.stopping(), closeApp: () => app.close(), release, log });
  if (http.cors) log.event('cors', `skillmount: browser pages from ${http.cors.join(', ')} may call this endpoint (CORS)`, { origins: http.cors });
  announce(log, {
    address,
    path,
    framework,
    sessions,
    watch,
    polledMs: watch && opened.kind === 's3' ? (pollIntervalMs ?? 30_000) : undefined,
    served,
    tenantHeader,
    allowedHosts: http.allowedHosts,
    wellKnown: http.wellKnown,
    health,
    label: opened.label,
    trust,
  });

  return undefined;
}

/** The options of the catalog, or of each tenant's catalog with --tenant-header. */
function catalogOptionsOf(settings: {
  pageSize: number;
  retainMs: number | undefined;
  strict: boolean;
  prefix: string | undefined;
  search: boolean;
  trust: SkillTrustOptions | undefined;
  warn: (warning: SkillWarning) => void;
}): CatalogOptions {
  const { prefix, trust } = settings;
  return {
    pageSize: settings.pageSize,
    ...(settings.retainMs !== undefined ? { retainMs: settings.retainMs } : {}),
    strict: settings.strict,
    onWarning: settings.warn,
    ...(prefix !== undefined ? { prefix } : {}),
    ...(settings.search ? { search: true } : {}), // an index per catalog: one per tenant
    ...(trust ? { trust } : {}), // every tenant's catalog checks signatures too
  };
}

/**
 * Storage failures nobody awaits (a LISTEN connection lost, an S3 poll that failed): readiness
 * turns degraded at each, for three polls' time or until a reload succeeds; the log hears each
 * message at most once a minute while the storage stays in trouble. A reload that succeeded since
 * the last warning means the storage recovered in between, so the next failure is news and printed.
 */
function storageTrouble(state: Health, log: ServeLog): (message: string) => void {
  const printer = () => quiet((message) => log.warn('storage-failed', `skillmount: warning: ${message}`));
  let print = printer();
  let loadedAt = state.loadedAt;
  return (message) => {
    if (state.loadedAt !== loadedAt) {
      loadedAt = state.loadedAt;
      print = printer();
    }
    state.storageFailed();
    print(message);
  };
}

/** How each reload went, for the log: a reload that succeeds is a JSON line, and a text line after a failed one. */
function reloadReporter(log: ServeLog) {
  return {
    warn: log.warning,
    reloaded(report: ReloadReport, skills: number, recovered: boolean, ms: number) {
      log.loaded();
      const counts = { skills, added: report.added.length, removed: report.removed.length, changed: report.changed.length, durationMs: ms };
      if (recovered) log.event('reloaded', `skillmount: reloaded after a failed reload: serving ${plural(skills, 'skill')}`, { ...counts, recovered });
      else if (log.format === 'json') log.event('reloaded', `reloaded: serving ${plural(skills, 'skill')}`, counts);
    },
  };
}

/** The "serving" line, and the warnings for a server other machines can reach. */
function announce(
  log: ServeLog,
  at: {
    address: AddressInfo;
    path: string;
    framework: string;
    sessions: boolean;
    watch: boolean;
    polledMs: number | undefined;
    served: Served;
    tenantHeader: string | undefined;
    allowedHosts: string[] | undefined;
    wellKnown: boolean;
    health: HealthPaths | undefined;
    label: string;
    trust: SkillTrustOptions | undefined;
  },
): void {
  const { address, path, served, tenantHeader } = at;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const mode = [at.framework, at.sessions ? 'sessions' : 'stateless', at.watch ? 'watching' : undefined, at.wellKnown ? 'well-known' : undefined]
    .filter(Boolean)
    .join(', ');
  const polling = at.polledMs !== undefined ? `, polled every ${at.polledMs} ms` : '';
  const what = 'catalog' in served ? plural(served.catalog.entries.length, 'skill') : `each tenant's skills (header ${tenantHeader})`;
  const url = `http://${shown}:${address.port}${path}`;
  // Before the serving line, which whoever waits for the server reads as "ready".
  if (at.trust) {
    const names = at.trust.keys.map((key) => key.name);
    const policy = at.trust.requireSignature
      ? 'serving only the skills they signed'
      : 'skills without a valid signature by one of them are served, with a warning';
    log.event('trust', `skillmount: checking skill signatures against ${names.join(', ')}: ${policy}`, {
      keys: names,
      requireSignature: at.trust.requireSignature === true,
    });
  }
  log.event('serving', `skillmount: serving ${what} at ${url} (${mode}) from ${at.label}${polling}`, {
    url,
    ...('catalog' in served ? { skills: served.catalog.entries.length } : { tenantHeader }),
    framework: at.framework,
    sessions: at.sessions,
    watch: at.watch,
    from: at.label,
  });
  if (at.wellKnown) {
    const index = `http://${shown}:${address.port}/.well-known/agent-skills/index.json`;
    log.event('well-known', `skillmount: skills index at ${index} (npx skills add http://${shown}:${address.port})`, { url: index });
  }
  if (at.health) {
    const ready = `http://${shown}:${address.port}${at.health.ready}`;
    log.event('health', `skillmount: readiness at ${ready}, liveness at ${at.health.live}`, { ready, live: at.health.live });
  }
  if (tenantHeader !== undefined && !isLoopback(address.address)) {
    log.warn(
      'tenant-header-exposed',
      `skillmount: warning: --tenant-header ${tenantHeader} trusts whatever a request carries in that header, and ${shown} is reachable beyond this machine: ` +
        `let only a proxy reach this server, and have it set ${tenantHeader} itself and strip any value a client sends, ` +
        `or any client can read any tenant's skills by naming it`,
    );
  }
  if (at.allowedHosts === undefined && !isLoopback(address.address)) {
    log.warn(
      'no-host-check',
      `skillmount: warning: listening on ${shown}, which other machines can reach, with no Host check: ` +
        `a web page can reach this server through DNS rebinding. Pass --allowed-hosts with the names clients use, e.g. --allowed-hosts skills.example.com`,
    );
  }
}

/** `--instructions auto|always|off`: the adapters' `instructions` option ('auto' when absent). */
function instructionsFlag(value: string | undefined): 'auto' | boolean {
  if (value === undefined || value === 'auto') return 'auto';
  if (value === 'always' || value === 'off') return value === 'always';
  throw new UsageError(`--instructions must be auto (clients without the Skills extension), always or off, got "${value}"`);
}

/** `--allowed-hosts a,b`: the names, trimmed; undefined when the flag is absent. */
function hostList(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length === 0) throw new UsageError(`--allowed-hosts must list host names separated by commas, e.g. skills.example.com,localhost; got "${value}"`);
  return names;
}

/** `--full-list-interval`: milliseconds from 0, or `never` (also `Infinity`) for a listing only when the manifest changes; undefined when absent. */
function fullListInterval(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const word = value.toLowerCase();
  if (word === 'never' || word === 'infinity') return Number.POSITIVE_INFINITY;
  // Digits only: Number() would also take "", "1e3" and "0x10".
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(
      `--full-list-interval must be a whole number of milliseconds from 0 (0 lists the prefix on every poll) ` +
        `or "never" (list only when the manifest changes), got "${value}"`,
    );
  }
  return Number(value);
}

/** True for an address only this machine can reach (127.0.0.0/8, ::1, and IPv4-mapped 127.x). */
function isLoopback(address: string): boolean {
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/**
 * HTTP settings of the server the CLI owns: one deadline for a whole request (headers and body),
 * applied by the server and, for the MCP route's bodies, by the endpoint itself.
 */
interface HttpSettings {
  requestTimeout: number;
  /** The adapter's own warnings (a failed request, an error hidden from a client), printed as the catalog's are. */
  onWarning: (warning: SkillWarning) => void;
  allowedHosts: string[] | undefined;
  /** `--well-known`: /.well-known/agent-skills/ at the root (and under the MCP path). */
  wellKnown: boolean;
  /** `--cors`: browser origins let through the CORS layer and the endpoint's Origin check. */
  cors?: string[] | undefined;
  /** `--health`: readiness and liveness, outside the MCP route and its Host and Origin checks. */
  health?: { paths: HealthPaths; state: Health } | undefined;
}

/** The surfaces for hosts without the Skills extension: `--tools`, `--prompts`, `--search`, `--instructions`. */
interface Reach {
  tools: boolean;
  prompts: boolean;
  search: boolean;
  /** Whether the server's instructions name the skills. */
  instructions: 'auto' | boolean;
}

/** `--tools`, `--prompts`, `--search` and `--instructions`, read. */
function reachFlags(values: { tools?: boolean; prompts?: boolean; search?: boolean; instructions?: string }): Reach {
  return {
    tools: values.tools === true,
    prompts: values.prompts === true,
    search: values.search === true,
    instructions: instructionsFlag(values.instructions),
  };
}

/** The least time a storage failure shows as degraded when no reload follows it. */
const STORAGE_WINDOW_MS = 30_000;

/** Keep-alive connections idle this long are closed (Node's default is 5 s; the same here, named). */
const KEEP_ALIVE_MS = 5_000;

/** What the endpoint serves: one catalog, or a source that picks a catalog per tenant. */
type Served = { catalog: SkillCatalog } | { source: TenantSource };

interface RunningApp {
  listen(port: number, host: string): Promise<AddressInfo>;
  /** The HTTP server, once listening. */
  readonly server: HttpServer;
  /**
   * End the MCP sessions and listen streams, refuse new requests (503) and stop the app's watch.
   * The connections are the caller's to close (./serve-shutdown.ts); Fastify's close also waits for them.
   */
  close(): Promise<void>;
}

async function fastifyApp(served: Served, path: string, sessions: boolean, http: HttpSettings, reach: Reach): Promise<RunningApp> {
  const { default: Fastify } = await import('fastify');
  const { skillsPlugin } = await import('@skillmount/fastify');
  const app = Fastify({ requestTimeout: http.requestTimeout, keepAliveTimeout: KEEP_ALIVE_MS });
  app.server.headersTimeout = Math.min(http.requestTimeout, 60_000);
  if (http.cors) await useFastifyCors(app, http.cors);
  if (http.health) {
    const { paths, state } = http.health;
    // Fastify answers HEAD through the GET route, without the body.
    const send = (reply: FastifyReply, a: HealthAnswer) => reply.code(a.status).headers(a.headers).send(a.body);
    app.get(paths.ready, (_request, reply) => send(reply, state.ready()));
    app.get(paths.live, (_request, reply) => send(reply, state.live()));
  }
  await app.register(skillsPlugin, {
    ...served,
    onWarning: http.onWarning,
    path,
    sessions,
    ...reach,
    bodyTimeout: http.requestTimeout,
    wellKnown: http.wellKnown,
    ...(http.allowedHosts ? { allowedHosts: http.allowedHosts } : {}),
    ...(http.cors ? { allowedOrigins: http.cors } : {}),
  });
  return {
    async listen(port, host) {
      await app.listen({ port, host });
      return app.server.address() as AddressInfo;
    },
    server: app.server,
    close: () => app.close(),
  };
}

async function expressApp(served: Served, path: string, sessions: boolean, http: HttpSettings, reach: Reach): Promise<RunningApp> {
  const { default: express } = await import('express');
  const { skillsMiddleware } = await import('@skillmount/express');
  const app = express();
  const skills = skillsMiddleware({
    ...served,
    onWarning: http.onWarning,
    sessions,
    ...reach,
    bodyTimeout: http.requestTimeout,
    wellKnown: http.wellKnown,
    ...(http.allowedHosts ? { allowedHosts: http.allowedHosts } : {}),
    ...(http.cors ? { allowedOrigins: http.cors } : {}),
  });
  if (http.health) {
    const { paths, state } = http.health;
    // Express answers HEAD through the GET route; Node leaves the body out.
    const send = (response: HttpResponse, a: HealthAnswer) => response.writeHead(a.status, a.headers).end(a.body);
    app.get(paths.ready, (_request, response) => send(response, state.ready()));
    app.get(paths.live, (_request, response) => send(response, state.live()));
  }
  const cors = http.cors ? await expressCors(http.cors) : undefined;
  if (cors) app.use(path, cors);
  // The origin root, where `npx skills add http://host:port` looks; the same CORS layer answers there.
  if (http.wellKnown) {
    if (cors) app.use('/.well-known/agent-skills', cors);
    app.use(skills.wellKnown);
  }
  app.use(path, skills);
  let server: HttpServer | undefined;
  return {
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        server = app.listen(port, host, (error?: Error) => (error ? reject(error) : resolve(server!.address() as AddressInfo)));
        server.requestTimeout = http.requestTimeout;
        server.headersTimeout = Math.min(http.requestTimeout, 60_000);
        server.keepAliveTimeout = KEEP_ALIVE_MS;
      }),
    get server() {
      if (!server) throw new Error('the server is not listening');
      return server;
    },
    close: () => skills.close(),
  };
}
