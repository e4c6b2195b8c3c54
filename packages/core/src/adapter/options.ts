import { SkillCatalog } from '../catalog/catalog.js';
import { normalizeCatalogOptions } from '../catalog/options.js';
import { createRequestGuard } from '../http/guard.js';
import { MAX_TIMER_MS } from '../modern/listen.js';
import { describeValue, isPositiveInteger, numberProblem, optionFail, type OptionFail } from '../option-checks.js';
import type { CatalogOptions } from '../types.js';
import type { CheckedAdapterOptions, SkillsAdapterOptions, SkillsOrigin } from './types.js';
import { checkInstructionsOption } from '../server/instructions-option.js';
import { checkReadHooks } from '../server/read-events.js';

const ORIGINS = ['storage', 'catalog', 'source'] as const;

/** Catalog options an adapter can only apply when it loads the catalog itself, from `storage`. */
export const STORAGE_ONLY_OPTIONS = [
  'baseUri',
  'prefix',
  'pageSize',
  'limits',
  'strict',
  'cacheHint',
  'concurrency',
  'timeoutMs',
  'cacheBytes',
  'retainMs',
  'trust',
] as const;

const isFunction = (value: unknown): value is (...args: never[]) => unknown => typeof value === 'function';
const hasMethods = (value: unknown, ...names: string[]) =>
  typeof value === 'object' && value !== null && names.every((name) => isFunction((value as Record<string, unknown>)[name]));

/**
 * Check the options every adapter shares, once, when the adapter is created, so a mistake fails at
 * start-up rather than on a request. Every error is an `OptionError` whose message starts with
 * `packageName` (`@skillmount/fastify: option "maxSessions" must be a positive integer, got 0`).
 * Options of the adapter's own are left to the adapter.
 *
 * @example
 * ```ts
 * import { checkAdapterOptions } from '@skillmount/core/adapter';
 * import { fsStorage } from '@skillmount/storage-fs';
 *
 * const checked = checkAdapterOptions<Request>({ storage: fsStorage('./skills'), sessions: true }, '@acme/skills-hono');
 * console.log(checked.origin.kind, checked.sessions);
 * ```
 * @throws {@link @skillmount/core!OptionError | OptionError} when an option is invalid: none or several of `storage`, `catalog` and `source`,
 * a catalog option beside a ready `catalog` or `source`, a wrong type or value.
 */
export function checkAdapterOptions<Request>(options: SkillsAdapterOptions<Request>, packageName: string): CheckedAdapterOptions<Request> {
  const fail = optionFail(packageName);
  if (typeof options !== 'object' || options === null) {
    fail(
      'invalid-type',
      '',
      `must be an object with one of storage, catalog or source (e.g. { storage: fsStorage("./skills") }), got ${describeValue(options)}`,
    );
  }
  const origin = checkOrigin(options, fail, packageName);

  for (const name of ['server', 'context', 'visible', 'onWarning'] as const) {
    if (options[name] !== undefined && !isFunction(options[name])) fail('invalid-type', name, `${FUNCTION_SHAPES[name]}, got ${describeValue(options[name])}`);
  }
  for (const name of ['sessions', 'watch', 'tools', 'prompts', 'wellKnown'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'boolean')
      fail('invalid-type', name, `must be true or false, got ${describeValue(options[name])}`);
  }
  for (const name of ['sessionIdleMs', 'maxSessions', 'maxSessionsPerClient'] as const) {
    const value = options[name];
    if (value === undefined) continue;
    if (!isPositiveInteger(value))
      fail(numberProblem(value), name, `must be a positive integer${name === 'sessionIdleMs' ? ' (milliseconds)' : ''}, got ${describeValue(value)}`);
    if (options.sessions !== true) fail('conflicting-options', name, 'applies only with sessions: true');
  }
  checkListenOptions(options, fail);
  checkSearchOption(options, origin, fail);
  checkInstructionsOption(options.instructions, fail);
  const watch = options.watch === true;
  if (watch) checkWatchable(origin, fail);
  const guard = createRequestGuard(
    { allowedHosts: options.allowedHosts, allowedOrigins: options.allowedOrigins, bodyLimit: options.bodyLimit, bodyTimeout: options.bodyTimeout },
    packageName,
  );

  return {
    origin,
    server: options.server,
    context: options.context,
    visible: options.visible,
    sessions: options.sessions === true,
    sessionIdleMs: options.sessionIdleMs,
    maxSessions: options.maxSessions,
    maxSessionsPerClient: options.maxSessionsPerClient,
    maxListenStreams: options.maxListenStreams,
    maxListenStreamsPerClient: options.maxListenStreamsPerClient,
    listenLifetimeMs: options.listenLifetimeMs,
    watch,
    tools: options.tools === true,
    prompts: options.prompts === true,
    search: options.search !== undefined && options.search !== false,
    wellKnown: options.wellKnown === true,
    onWarning: options.onWarning,
    reads: checkReadHooks(options, packageName),
    strict: origin.kind === 'source' ? options.strict : undefined,
    allowedHosts: options.allowedHosts,
    instructions: options.instructions,
    allowedOrigins: options.allowedOrigins,
    guard,
  };
}

const FUNCTION_SHAPES = {
  server: 'must be a function that returns a new McpServer or Server, e.g. () => new McpServer({ name, version })',
  context: 'must be a function (request) => ({ ...fields }) returning an object or a promise of one',
  visible: 'must be a function (entry, ctx) => boolean returning true for the skills the request may see, or a promise of that',
  onWarning: 'must be a function (warning) => void',
} as const;

function checkOrigin<Request>(options: SkillsAdapterOptions<Request>, fail: OptionFail, packageName: string): SkillsOrigin {
  const given = ORIGINS.filter((name) => options[name] !== undefined);
  if (given.length === 0) {
    fail(
      'missing-option',
      'storage',
      'is missing: give exactly one of the options "storage", "catalog" or "source" (none was given), e.g. { storage: fsStorage("./skills") }',
    );
  }
  if (given.length > 1) {
    fail(
      'conflicting-options',
      given[1]!,
      `cannot be combined with "${given[0]}": give exactly one of the options "storage", "catalog" or "source" (got ${given.join(' and ')})`,
    );
  }
  if (options.storage !== undefined) {
    if (!hasMethods(options.storage, 'list', 'read'))
      fail('invalid-type', 'storage', 'must be a SkillFiles storage with list(dir) and read(path) methods, e.g. fsStorage("./skills")');
    return { kind: 'storage', storage: options.storage, catalogOptions: checkCatalogOptions(options, packageName) };
  }
  // strict also means something for a custom source (an invalid entry fails the page instead of being
  // dropped), but nothing for a catalog, which checked its entries when it loaded.
  const custom = options.source !== undefined && !(options.source instanceof SkillCatalog);
  const misplaced = STORAGE_ONLY_OPTIONS.find((name) => options[name] !== undefined && !(name === 'strict' && custom));
  if (misplaced) {
    const instead =
      options.catalog !== undefined || misplaced === 'strict'
        ? `pass ${misplaced} to SkillCatalog.load(storage, options) instead`
        : 'a custom source answers that itself';
    fail('conflicting-options', misplaced, `applies only with storage${misplaced === 'strict' ? ' or a custom source' : ''}; ${instead}`);
  }
  if (custom && options.strict !== undefined && typeof options.strict !== 'boolean') {
    fail('invalid-type', 'strict', `must be true or false, got ${describeValue(options.strict)}`);
  }
  if (options.catalog !== undefined) {
    // Branded: a catalog from another copy of core (ESM beside CJS) passes too.
    if (!(options.catalog instanceof SkillCatalog)) {
      fail('invalid-type', 'catalog', 'must be a SkillCatalog, from await SkillCatalog.load(storage); for any other source use the "source" option');
    }
    return { kind: 'catalog', catalog: options.catalog };
  }
  if (!hasMethods(options.source, 'list', 'get', 'read')) {
    fail('invalid-type', 'source', 'must be a SkillSource: an object with list(params, ctx), get(uri, ctx) and read(uri, ctx) methods');
  }
  return { kind: 'source', source: options.source! };
}

/** The catalog options, checked now (named for the adapter), to pass to `SkillCatalog.load`. */
function checkCatalogOptions(options: CatalogOptions, packageName: string): CatalogOptions {
  normalizeCatalogOptions(options, packageName);
  const catalogOptions: CatalogOptions = {};
  for (const name of [...STORAGE_ONLY_OPTIONS, 'onWarning', 'search'] as const) {
    if (options[name] !== undefined) (catalogOptions as Record<string, unknown>)[name] = options[name];
  }
  return catalogOptions;
}

/** The `subscriptions/listen` caps and lifetime: positive integers, the lifetime within what a timer can wait. */
function checkListenOptions<Request>(options: SkillsAdapterOptions<Request>, fail: OptionFail): void {
  for (const name of ['maxListenStreams', 'maxListenStreamsPerClient', 'listenLifetimeMs'] as const) {
    const value = options[name];
    if (value === undefined) continue;
    if (!isPositiveInteger(value))
      fail(numberProblem(value), name, `must be a positive integer${name === 'listenLifetimeMs' ? ' (milliseconds)' : ''}, got ${describeValue(value)}`);
  }
  const lifetime = options.listenLifetimeMs;
  if (lifetime !== undefined && lifetime > MAX_TIMER_MS) {
    fail('invalid-value', 'listenLifetimeMs', `must be at most ${MAX_TIMER_MS} (about 24 days), got ${lifetime}`);
  }
}

/**
 * `search`: true or false with any origin (the tool); `{ text }` shapes the index the adapter's own
 * catalog keeps, so it needs `storage` (the catalog options checked it there).
 */
function checkSearchOption<Request>(options: SkillsAdapterOptions<Request>, origin: SkillsOrigin, fail: OptionFail): void {
  const search: unknown = options.search;
  if (search === undefined || typeof search === 'boolean' || origin.kind === 'storage') return;
  if (typeof search !== 'object' || search === null) fail('invalid-type', 'search', `must be true, false or { text: true }, got ${describeValue(search)}`);
  fail(
    'conflicting-options',
    'search',
    `as an object shapes the index of a catalog the adapter loads, so it applies only with storage; pass it to SkillCatalog.load(storage, { search }) ` +
      'and give search: true here',
  );
}

function checkWatchable(origin: SkillsOrigin, fail: OptionFail): void {
  if (origin.kind === 'source') fail('conflicting-options', 'watch', 'needs storage or catalog; a custom source reports its own changes (onListChanged)');
  const storage = origin.kind === 'storage' ? origin.storage : origin.catalog.storage;
  if (!isFunction(storage.watch)) {
    fail('conflicting-options', 'watch', 'needs a storage with a watch() method, and this storage has none; call reload() yourself when the skills change');
  }
}
