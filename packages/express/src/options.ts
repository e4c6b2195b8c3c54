import { SkillCatalog, createRequestGuard, type CatalogOptions, type RequestGuard, type SkillFiles, type SkillSource, type SkillWarning } from '@skillmount/core';
import type { SkillsMiddlewareOptions } from './types.js';

/** What to serve, as given: a storage to load a catalog from, a ready catalog, or any source. */
export type Served =
  | { kind: 'storage'; storage: SkillFiles; catalogOptions: CatalogOptions }
  | { kind: 'catalog'; catalog: SkillCatalog }
  | { kind: 'source'; source: SkillSource };

export interface CheckedOptions {
  served: Served;
  server: SkillsMiddlewareOptions['server'];
  context: SkillsMiddlewareOptions['context'];
  sessions: boolean;
  sessionIdleMs: number | undefined;
  maxSessions: number | undefined;
  maxSessionsPerClient: number | undefined;
  watch: boolean;
  /** Set only when the app passed one, so core's defaults (the catalog's own `onWarning`) still apply otherwise. */
  onWarning: ((warning: SkillWarning) => void) | undefined;
  /** With `source`: an invalid entry fails its skills/list page instead of being dropped (with storage it is a catalog option). */
  strict: boolean | undefined;
  allowedHosts: SkillsMiddlewareOptions['allowedHosts'];
  /** Host/Origin and body-limit checks, run first on every request; the body deadline. */
  guard: RequestGuard;
}

const CATALOG_ONLY = ['baseUri', 'prefix', 'pageSize', 'limits', 'strict', 'cacheHint', 'concurrency', 'timeoutMs'] as const;

function fail(message: string): never {
  throw new TypeError(`@skillmount/express: ${message}`);
}
function failRange(option: string, message: string): never {
  throw new RangeError(`@skillmount/express: option "${option}" ${message}`);
}
const isPositiveInteger = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n > 0;
const isFunction = (f: unknown): f is (...args: never[]) => unknown => typeof f === 'function';

/** Check every option once, when the middleware is created, so a mistake fails at start-up rather than on a request. */
export function checkOptions(options: SkillsMiddlewareOptions): CheckedOptions {
  if (options === null || typeof options !== 'object') {
    fail('skillsMiddleware(options) needs an options object, e.g. { storage: fsStorage("./skills") }');
  }
  const given = (['storage', 'catalog', 'source'] as const).filter((key) => options[key] !== undefined);
  if (given.length === 0) {
    fail('nothing to serve: pass one of storage (e.g. fsStorage("./skills")), catalog (a SkillCatalog) or source (a SkillSource)');
  }
  if (given.length > 1) fail(`pass only one of storage, catalog and source; got ${given.join(' and ')}`);

  const served = checkServed(options);
  if (served.kind !== 'storage') {
    // strict also means something for a custom source (an invalid entry fails the page instead of being
    // dropped), but nothing for a catalog, which checked its entries when it loaded.
    const custom = served.kind === 'source' && !(served.source instanceof SkillCatalog);
    const misplaced = CATALOG_ONLY.filter((key) => options[key] !== undefined && !(key === 'strict' && custom));
    if (misplaced.length > 0) {
      const where = served.kind === 'catalog' || misplaced[0] === 'strict' ? 'pass it to SkillCatalog.load(storage, options) instead' : 'your source answers those itself';
      fail(`option "${misplaced[0]}" applies only with storage${misplaced[0] === 'strict' ? ' or a custom source' : ''}; ${where}`);
    }
  }
  if (options.onWarning !== undefined && !isFunction(options.onWarning)) failRange('onWarning', 'must be a function');
  if (options.server !== undefined && !isFunction(options.server)) {
    failRange('server', 'must be a function that returns your McpServer or Server, e.g. () => new McpServer({ name, version })');
  }
  if (options.context !== undefined && !isFunction(options.context)) {
    failRange('context', 'must be a function (req) => ({ ...fields }) returning an object or a promise of one');
  }
  if (options.sessions !== undefined && typeof options.sessions !== 'boolean') failRange('sessions', `must be true or false, got ${String(options.sessions)}`);
  if (options.sessionIdleMs !== undefined && !isPositiveInteger(options.sessionIdleMs)) {
    failRange('sessionIdleMs', `must be a positive integer (milliseconds), got ${String(options.sessionIdleMs)}`);
  }
  for (const key of ['maxSessions', 'maxSessionsPerClient'] as const) {
    if (options[key] !== undefined && !isPositiveInteger(options[key])) failRange(key, `must be a positive integer, got ${String(options[key])}`);
  }
  for (const key of ['sessionIdleMs', 'maxSessions', 'maxSessionsPerClient'] as const) {
    if (options[key] !== undefined && options.sessions !== true) fail(`option "${key}" applies only with sessions: true`);
  }
  if (options.watch !== undefined && typeof options.watch !== 'boolean') failRange('watch', `must be true or false, got ${String(options.watch)}`);
  if (options.watch === true) checkWatchable(served);
  if (served.kind === 'source' && options.strict !== undefined && typeof options.strict !== 'boolean') {
    failRange('strict', `must be true or false, got ${String(options.strict)}`);
  }
  const guard = createRequestGuard({ allowedHosts: options.allowedHosts, bodyLimit: options.bodyLimit, bodyTimeout: options.bodyTimeout }, '@skillmount/express');

  return {
    served,
    server: options.server,
    context: options.context,
    sessions: options.sessions === true,
    sessionIdleMs: options.sessionIdleMs,
    maxSessions: options.maxSessions,
    maxSessionsPerClient: options.maxSessionsPerClient,
    watch: options.watch === true,
    onWarning: options.onWarning,
    strict: served.kind === 'source' ? options.strict : undefined,
    allowedHosts: options.allowedHosts,
    guard,
  };
}

function checkServed(options: SkillsMiddlewareOptions): Served {
  if (options.storage !== undefined) {
    const storage = options.storage;
    if (!storage || !isFunction(storage.list) || !isFunction(storage.read)) {
      failRange('storage', 'must be a SkillFiles storage with list(dir) and read(path), e.g. fsStorage("./skills")');
    }
    return { kind: 'storage', storage, catalogOptions: checkCatalogOptions(options) };
  }
  if (options.catalog !== undefined) {
    const catalog = options.catalog;
    // instanceof misses a catalog from another copy of core; its shape is enough.
    const shape = catalog as unknown as Partial<SkillCatalog> | null;
    const looksLikeCatalog = catalog instanceof SkillCatalog || (!!shape && isFunction(shape.reload) && isFunction(shape.list) && 'entries' in shape);
    if (!looksLikeCatalog) failRange('catalog', 'must be a SkillCatalog, from await SkillCatalog.load(storage); for any other source use the "source" option');
    return { kind: 'catalog', catalog };
  }
  const source = options.source!;
  if (!source || !isFunction(source.list) || !isFunction(source.get) || !isFunction(source.read)) {
    failRange('source', 'must be a SkillSource: an object with list(params, ctx), get(uri, ctx) and read(uri, ctx)');
  }
  return { kind: 'source', source };
}

function checkWatchable(served: Served): void {
  if (served.kind === 'source') fail('option "watch" needs storage or catalog; a custom source tells about changes through its own onListChanged');
  const storage = served.kind === 'storage' ? served.storage : served.catalog.storage;
  if (!isFunction(storage.watch)) fail('option "watch" needs a storage with a watch() hook, and this one has none; call reload() yourself instead');
}

/** The catalog options, checked now; the catalog checks them again when it loads (in the background). */
function checkCatalogOptions(options: CatalogOptions): CatalogOptions {
  const { baseUri, prefix, pageSize, limits, strict, cacheHint, concurrency, timeoutMs } = options;
  if (baseUri !== undefined && typeof baseUri !== 'string') failRange('baseUri', 'must be a string such as "github://acme/skills/"');
  if (prefix !== undefined && typeof prefix !== 'string') failRange('prefix', 'must be a string such as "acme" or "acme/billing"');
  if (pageSize !== undefined && !(isPositiveInteger(pageSize) || pageSize === Infinity)) {
    failRange('pageSize', `must be a positive integer or Infinity, got ${String(pageSize)}`);
  }
  if (limits !== undefined) {
    if (limits === null || typeof limits !== 'object') failRange('limits', 'must be an object { files?, bytes? }');
    if (limits.files !== undefined && !(isPositiveInteger(limits.files) || limits.files === Infinity)) failRange('limits.files', `must be a positive integer or Infinity, got ${String(limits.files)}`);
    if (limits.bytes !== undefined && !(isPositiveInteger(limits.bytes) || limits.bytes === Infinity)) failRange('limits.bytes', `must be a positive integer (bytes) or Infinity, got ${String(limits.bytes)}`);
  }
  if (strict !== undefined && typeof strict !== 'boolean') failRange('strict', `must be true or false, got ${String(strict)}`);
  if (cacheHint !== undefined) {
    if (cacheHint === null || typeof cacheHint !== 'object') failRange('cacheHint', 'must be an object { ttlMs?, cacheScope? }');
    const { ttlMs, cacheScope } = cacheHint;
    if (ttlMs !== undefined && !(Number.isInteger(ttlMs) && ttlMs >= 0)) failRange('cacheHint.ttlMs', `must be a non-negative integer (milliseconds), got ${String(ttlMs)}`);
    if (cacheScope !== undefined && cacheScope !== 'public' && cacheScope !== 'private') {
      failRange('cacheHint.cacheScope', `must be "public" or "private", got ${String(cacheScope)}`);
    }
  }
  if (concurrency !== undefined && !isPositiveInteger(concurrency)) failRange('concurrency', `must be a positive integer, got ${String(concurrency)}`);
  if (timeoutMs !== undefined && !(isPositiveInteger(timeoutMs) || timeoutMs === Infinity)) {
    failRange('timeoutMs', `must be a positive integer (milliseconds) or Infinity, got ${String(timeoutMs)}`);
  }
  const catalogOptions: CatalogOptions = {};
  for (const key of [...CATALOG_ONLY, 'onWarning'] as const) {
    if (options[key] !== undefined) (catalogOptions as Record<string, unknown>)[key] = options[key];
  }
  return catalogOptions;
}
