import { normalizeCatalogOptions } from '../catalog/options.js';
import { consoleWarning } from '../warnings/console.js';
import { OptionError, type OptionErrorCode } from '../option-error.js';
import { isPositiveInteger, numberProblem } from '../option-checks.js';
import type { CatalogOptions, SkillFiles, SkillWarning } from '../types.js';
import type { ClosableSkillSource, TenantCatalogsOptions, TenantKeyFunction } from './types.js';

const WHERE = 'skillmount: tenantCatalogs()';

export interface NormalizedTenantOptions {
  key: TenantKeyFunction;
  origin:
    | { kind: 'storage'; storage: (key: string) => SkillFiles | Promise<SkillFiles>; catalog: CatalogOptions; watch: boolean; closeStorage: boolean }
    | { kind: 'load'; load: (key: string) => Promise<ClosableSkillSource> };
  max: number;
  idleMs: number;
  onWarning: (warning: SkillWarning) => void;
  /** Options of the catalog that answers requests without a tenant. */
  emptyCatalog: CatalogOptions;
}

const fail = (code: OptionErrorCode, option: string, detail: string): never => {
  throw new OptionError(code, option, detail, WHERE);
};

/** Check every option once, when the resolver is created, so a mistake fails at start-up. */
export function normalizeTenantOptions(options: TenantCatalogsOptions): NormalizedTenantOptions {
  if (options === null || typeof options !== 'object') fail('invalid-type', '', 'must be an object with key and one of storage or load');
  if (typeof options.key !== 'function')
    fail(options.key === undefined ? 'missing-option' : 'invalid-type', 'key', 'must be a function (ctx) => tenant key, e.g. ctx => ctx.tenant');
  const hasStorage = options.storage !== undefined;
  const hasLoad = options.load !== undefined;
  if (hasStorage && hasLoad) fail('conflicting-options', 'load', 'cannot be combined with "storage": give exactly one of them');
  if (!hasStorage && !hasLoad) fail('missing-option', 'storage', 'or "load" is required: storage: key => SkillFiles, or load: key => Promise<SkillSource>');
  const max = options.max ?? 100;
  if (!isPositiveInteger(max)) fail(numberProblem(max), 'max', `must be a positive integer (tenants kept in memory), got ${String(max)}`);
  const idleMs = options.idleMs ?? 10 * 60_000;
  if (!(isPositiveInteger(idleMs) || idleMs === Infinity))
    fail(numberProblem(idleMs), 'idleMs', `must be a positive integer (milliseconds) or Infinity, got ${String(idleMs)}`);
  if (options.onWarning !== undefined && typeof options.onWarning !== 'function') fail('invalid-type', 'onWarning', 'must be a function');

  // Results differ per tenant: unless told otherwise, ask caches not to share them.
  const catalog: CatalogOptions = { ...(hasStorage ? options.catalog : undefined) };
  catalog.cacheHint = { cacheScope: 'private', ...catalog.cacheHint };
  const onWarning = options.onWarning ?? catalog.onWarning ?? consoleWarning;
  try {
    normalizeCatalogOptions(catalog);
  } catch (error) {
    if (error instanceof OptionError) fail(error.code, `catalog.${error.option}`, error.detail);
    throw error;
  }
  const emptyCatalog: CatalogOptions = {
    baseUri: catalog.baseUri,
    cacheHint: catalog.cacheHint,
    pageSize: catalog.pageSize,
    search: catalog.search,
    onWarning,
  };

  if (hasLoad) {
    if (typeof options.load !== 'function') fail('invalid-type', 'load', 'must be a function key => Promise<SkillSource>');
    for (const name of ['catalog', 'watch', 'closeStorage'] as const) {
      if ((options as unknown as Record<string, unknown>)[name] !== undefined) {
        fail('conflicting-options', name, 'applies only with "storage"; with "load", set it up in the source your load function returns');
      }
    }
    return { key: options.key, origin: { kind: 'load', load: options.load }, max, idleMs, onWarning, emptyCatalog };
  }
  const storageOptions = options as Extract<TenantCatalogsOptions, { storage: unknown }>;
  if (typeof storageOptions.storage !== 'function')
    fail('invalid-type', 'storage', 'must be a function key => SkillFiles, e.g. key => fsStorage(path.join(root, key))');
  if (storageOptions.watch !== undefined && typeof storageOptions.watch !== 'boolean')
    fail('invalid-type', 'watch', `must be a boolean, got ${typeof storageOptions.watch}`);
  if (storageOptions.closeStorage !== undefined && typeof storageOptions.closeStorage !== 'boolean') {
    fail('invalid-type', 'closeStorage', `must be a boolean, got ${typeof storageOptions.closeStorage}`);
  }
  return {
    key: options.key,
    origin: {
      kind: 'storage',
      storage: storageOptions.storage,
      catalog,
      watch: storageOptions.watch === true,
      closeStorage: storageOptions.closeStorage !== false,
    },
    max,
    idleMs,
    onWarning,
    emptyCatalog,
  };
}
