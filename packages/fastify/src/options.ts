import { SkillCatalog, createRequestGuard, type AllowedHosts, type CatalogOptions, type RequestGuard, type SkillFiles, type SkillSource, type SkillWarning } from '@skillmount/core';
import type { FastifyRequest } from 'fastify';
import type { AnyMcpServer, SkillsPluginOptions } from './types.js';

export const NAME = '@skillmount/fastify';

/** Where the skills come from, after checking that exactly one was given. */
export type SkillsOrigin =
  | { kind: 'storage'; storage: SkillFiles; catalogOptions: CatalogOptions }
  | { kind: 'catalog'; catalog: SkillCatalog }
  | { kind: 'source'; source: SkillSource };

export interface NormalizedOptions {
  origin: SkillsOrigin;
  path: string | false;
  server: (() => AnyMcpServer | Promise<AnyMcpServer>) | undefined;
  context: ((request: FastifyRequest) => Record<string, unknown> | Promise<Record<string, unknown>>) | undefined;
  sessions: boolean;
  sessionIdleMs: number | undefined;
  maxSessions: number | undefined;
  maxSessionsPerClient: number | undefined;
  watch: boolean;
  onWarning: ((warning: SkillWarning) => void) | undefined;
  /** With `source`: an invalid entry fails its skills/list page instead of being dropped (with storage it is a catalog option). */
  strict: boolean | undefined;
  allowedHosts: AllowedHosts | undefined;
  /** The route's Host/Origin, body-limit and body-time checks, from `allowedHosts`, `bodyLimit` and `bodyTimeout`. */
  guard: RequestGuard;
}

/** Catalog options the plugin can only apply when it loads the catalog itself. */
const STORAGE_ONLY = ['baseUri', 'prefix', 'pageSize', 'limits', 'strict', 'cacheHint', 'concurrency', 'timeoutMs'] as const;

export function optionError(option: string, message: string): TypeError {
  return new TypeError(`${NAME}: option "${option}" ${message}`);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const isPositiveInteger = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value > 0;
const hasMethods = (value: unknown, ...names: string[]) => isObject(value) && names.every((n) => typeof value[n] === 'function');

/** Check every option once, at registration, so a mistake fails at start-up rather than on a request. */
export function normalizeOptions(options: SkillsPluginOptions | undefined): NormalizedOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`${NAME}: options must be an object with one of storage, catalog or source, e.g. { storage: fsStorage('./skills') }`);
  }
  const origin = normalizeOrigin(options);

  const path = options.path ?? '/mcp';
  if (path !== false && (typeof path !== 'string' || !path.startsWith('/'))) {
    throw optionError('path', `must be a route path starting with "/" (e.g. "/mcp"), or false to mount no route; got ${describe(path)}`);
  }
  for (const name of ['server', 'context', 'onWarning'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') throw optionError(name, `must be a function; got ${describe(options[name])}`);
  }
  for (const name of ['sessions', 'watch'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'boolean') throw optionError(name, `must be true or false; got ${describe(options[name])}`);
  }
  for (const name of ['sessionIdleMs', 'maxSessions', 'maxSessionsPerClient'] as const) {
    const value = options[name];
    if (value === undefined) continue;
    if (!isPositiveInteger(value)) throw optionError(name, `must be a positive integer; got ${describe(value)}`);
    if (options.sessions !== true) throw optionError(name, 'only applies with sessions: true');
  }
  if (origin.kind === 'source' && options.strict !== undefined && typeof options.strict !== 'boolean') {
    throw optionError('strict', `must be true or false; got ${describe(options.strict)}`);
  }
  if (path === false) {
    // With no route of ours, these would do nothing; server, allowedHosts and bodyLimit still apply to app.skills.handleModern.
    if (options.sessions !== undefined && options.sessions !== false) {
      throw optionError('sessions', 'only applies to the route the plugin mounts; with path: false, build and connect your own server and call app.skills.attach(server)');
    }
    if (options.bodyTimeout !== undefined) {
      throw optionError('bodyTimeout', "only applies to the route the plugin mounts; with path: false, Fastify reads your route's bodies: set Fastify({ requestTimeout })");
    }
  }

  const guard = createRequestGuard({ allowedHosts: options.allowedHosts, bodyLimit: options.bodyLimit, bodyTimeout: options.bodyTimeout }, NAME);

  const watch = options.watch === true;
  if (watch) {
    const storage = origin.kind === 'storage' ? origin.storage : origin.kind === 'catalog' ? origin.catalog.storage : undefined;
    if (origin.kind === 'source') throw optionError('watch', 'needs storage or catalog; a custom source reloads itself');
    if (typeof storage?.watch !== 'function') {
      throw optionError('watch', 'needs a storage with a watch() method; this storage has none, so call app.skills.reload() when the skills change');
    }
  }

  return {
    origin,
    path,
    server: options.server,
    context: options.context,
    sessions: options.sessions === true,
    sessionIdleMs: options.sessionIdleMs,
    maxSessions: options.maxSessions,
    maxSessionsPerClient: options.maxSessionsPerClient,
    watch,
    onWarning: options.onWarning,
    strict: origin.kind === 'source' ? options.strict : undefined,
    allowedHosts: options.allowedHosts,
    guard,
  };
}

function normalizeOrigin(options: SkillsPluginOptions): SkillsOrigin {
  const given = (['storage', 'catalog', 'source'] as const).filter((name) => options[name] !== undefined && options[name] !== null);
  if (given.length !== 1) {
    const what = given.length === 0 ? 'none was given' : `got ${given.join(' and ')}`;
    throw new TypeError(`${NAME}: give exactly one of the options "storage", "catalog" or "source" (${what}), e.g. { storage: fsStorage('./skills') }`);
  }
  if (options.storage !== undefined && options.storage !== null) {
    if (!hasMethods(options.storage, 'list', 'read')) throw optionError('storage', 'must have list(dir) and read(path) methods, e.g. fsStorage("./skills")');
    const { baseUri, prefix, pageSize, limits, strict, cacheHint, concurrency, timeoutMs, onWarning } = options;
    return { kind: 'storage', storage: options.storage, catalogOptions: { baseUri, prefix, pageSize, limits, strict, cacheHint, concurrency, timeoutMs, onWarning } };
  }
  // strict also means something for a custom source (an invalid entry fails the page instead of being
  // dropped), but nothing for a catalog, which checked its entries when it loaded.
  const custom = options.source !== undefined && options.source !== null && !(options.source instanceof SkillCatalog);
  const storageOnly = STORAGE_ONLY.find((name) => options[name] !== undefined && !(name === 'strict' && custom));
  if (storageOnly) {
    const where = storageOnly === 'strict' ? 'storage or a custom source' : 'storage';
    throw optionError(storageOnly, `only applies with ${where}; the ${given[0]} given has its own settings (pass ${storageOnly} to SkillCatalog.load instead)`);
  }
  if (options.catalog !== undefined && options.catalog !== null) {
    if (!hasMethods(options.catalog, 'list', 'get', 'read', 'reload', 'watch')) {
      throw optionError('catalog', 'must be a SkillCatalog (from SkillCatalog.load(storage)); for another kind of source use the "source" option');
    }
    return { kind: 'catalog', catalog: options.catalog };
  }
  if (!hasMethods(options.source, 'list', 'get', 'read')) {
    throw optionError('source', 'must be a SkillSource: an object with list, get and read methods');
  }
  return { kind: 'source', source: options.source! };
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'function') return 'a function';
  if (isObject(value)) return Array.isArray(value) ? 'an array' : 'an object';
  return String(value);
}
