import { DEFAULT_CACHE_HINT, DEFAULT_PAGE_SIZE, MAX_BYTES_PER_SKILL, MAX_FILES_PER_SKILL } from '../protocol/constants.js';
import { isHiddenName } from '../storage-kit/skill-folders.js';
import { segmentProblem } from '../uri/segment.js';
import { consoleWarning } from '../warnings/console.js';
import type { CacheHint, CatalogOptions, SkillLimits, SkillSearchRerank, SkillWarning } from '../types.js';
import { isPositiveInteger, numberProblem, optionFail, type OptionFail } from '../option-checks.js';
import { DEFAULT_BASE_URI, parseBaseUri, type BaseUri } from '../uri/base.js';
import type { SearchSettings } from './search.js';
import { checkTrust, type TrustSettings } from './trust-option.js';

export interface NormalizedCatalogOptions {
  base: BaseUri;
  prefix: string[];
  pageSize: number;
  limits: SkillLimits;
  strict: boolean;
  onWarning: (warning: SkillWarning) => void;
  cacheHint: CacheHint;
  concurrency: number;
  timeoutMs: number;
  /** Undefined: the default for the storage, chosen at load. */
  cacheBytes: number | undefined;
  /** How long an earlier generation's bytes stay readable after a reload, in milliseconds; 0: not at all. */
  retainMs: number;
  /** Undefined: search is off. */
  search: SearchSettings | undefined;
  /** Undefined: signatures are not checked. */
  trust: TrustSettings | undefined;
}

/** The default `cacheBytes`: verified bytes kept in memory so hot reads skip storage. */
export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * The default `retainMs` (or the announced `ttlMs` when longer): a minute covers a host that
 * listed, asked its user, and reads the files now.
 */
export const DEFAULT_RETAIN_MS = 60_000;

/** The share of `cacheBytes` that earlier generations' bytes may hold, per catalog (so per tenant). */
export const RETAINED_SHARE = 4;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * Check every option once, at construction, so a mistake fails at start-up rather than on a
 * request. `packageName` prefixes the errors, so an adapter that passes catalog options on names itself.
 */
export function normalizeCatalogOptions(options: CatalogOptions = {}, packageName = 'skillmount'): NormalizedCatalogOptions {
  const fail = optionFail(packageName);
  if (!isObject(options)) fail('invalid-type', '', `must be an object, got ${String(options)}`);
  const base = options.baseUri === undefined ? DEFAULT_BASE_URI : parseBaseUri(options.baseUri);
  if (typeof base === 'string') fail(typeof options.baseUri === 'string' ? 'invalid-value' : 'invalid-type', 'baseUri', base);
  const prefix = normalizePrefix(options.prefix, fail);
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  if (!(isPositiveInteger(pageSize) || pageSize === Infinity))
    fail(numberProblem(pageSize), 'pageSize', `must be a positive integer or Infinity, got ${String(pageSize)}`);
  if (options.limits !== undefined && !isObject(options.limits))
    fail('invalid-type', 'limits', `must be an object { files?, bytes? }, got ${String(options.limits)}`);
  const limits = { files: options.limits?.files ?? MAX_FILES_PER_SKILL, bytes: options.limits?.bytes ?? MAX_BYTES_PER_SKILL };
  if (!(isPositiveInteger(limits.files) || limits.files === Infinity))
    fail(numberProblem(limits.files), 'limits.files', `must be a positive integer or Infinity, got ${String(limits.files)}`);
  if (!(isPositiveInteger(limits.bytes) || limits.bytes === Infinity)) {
    fail(numberProblem(limits.bytes), 'limits.bytes', `must be a positive integer (bytes) or Infinity, got ${String(limits.bytes)}`);
  }
  if (options.strict !== undefined && typeof options.strict !== 'boolean')
    fail('invalid-type', 'strict', `must be true or false, got ${String(options.strict)}`);
  const cacheHint = checkCacheHint(options.cacheHint, fail);
  const concurrency = options.concurrency ?? 32;
  if (!isPositiveInteger(concurrency)) fail(numberProblem(concurrency), 'concurrency', `must be a positive integer, got ${String(concurrency)}`);
  if (options.onWarning !== undefined && typeof options.onWarning !== 'function') fail('invalid-type', 'onWarning', 'must be a function (warning) => void');
  const timeoutMs = options.timeoutMs ?? 30_000;
  if (!(isPositiveInteger(timeoutMs) || timeoutMs === Infinity))
    fail(numberProblem(timeoutMs), 'timeoutMs', `must be a positive integer (milliseconds) or Infinity, got ${String(timeoutMs)}`);
  const cacheBytes = options.cacheBytes;
  if (cacheBytes !== undefined && !(typeof cacheBytes === 'number' && Number.isSafeInteger(cacheBytes) && cacheBytes >= 0)) {
    fail(numberProblem(cacheBytes), 'cacheBytes', `must be a non-negative integer (bytes; 0 turns the cache off), got ${String(cacheBytes)}`);
  }
  const retainMs = options.retainMs ?? Math.max(DEFAULT_RETAIN_MS, cacheHint.ttlMs);
  if (!(typeof retainMs === 'number' && Number.isSafeInteger(retainMs) && retainMs >= 0)) {
    fail(numberProblem(retainMs), 'retainMs', `must be a non-negative integer (milliseconds; 0 keeps no earlier bytes), got ${String(retainMs)}`);
  }
  if (retainMs > 0 && retainMs < cacheHint.ttlMs) {
    fail(
      'conflicting-options',
      'retainMs',
      `must be at least cacheHint.ttlMs (${cacheHint.ttlMs}), so an entry a client may still hold stays readable, or 0 for none; got ${retainMs}`,
    );
  }
  return {
    base: base as BaseUri,
    prefix,
    pageSize,
    limits,
    strict: options.strict === true,
    onWarning: options.onWarning ?? consoleWarning,
    cacheHint,
    concurrency,
    timeoutMs,
    cacheBytes,
    retainMs,
    search: checkSearch(options.search, fail),
    trust: checkTrust(options.trust, fail),
  };
}

function checkSearch(search: CatalogOptions['search'], fail: OptionFail): SearchSettings | undefined {
  if (search === undefined || search === false) return undefined;
  if (search === true) return { text: false, rerank: undefined };
  if (!isObject(search)) fail('invalid-type', 'search', `must be true, false or an object { text?, rerank? }, got ${String(search)}`);
  if (search.text !== undefined && typeof search.text !== 'boolean') fail('invalid-type', 'search.text', `must be true or false, got ${String(search.text)}`);
  if (search.rerank !== undefined && typeof search.rerank !== 'function') {
    fail('invalid-type', 'search.rerank', 'must be a function (candidates, query) => candidates');
  }
  return { text: search.text === true, rerank: search.rerank as SkillSearchRerank | undefined };
}

function checkCacheHint(hint: Partial<CacheHint> | undefined, fail: OptionFail): CacheHint {
  if (hint !== undefined && !isObject(hint)) fail('invalid-type', 'cacheHint', `must be an object { ttlMs?, cacheScope? }, got ${String(hint)}`);
  const ttlMs = hint?.ttlMs ?? DEFAULT_CACHE_HINT.ttlMs;
  const cacheScope = hint?.cacheScope ?? DEFAULT_CACHE_HINT.cacheScope;
  if (typeof ttlMs !== 'number' || !Number.isInteger(ttlMs) || ttlMs < 0)
    fail(numberProblem(ttlMs), 'cacheHint.ttlMs', `must be a non-negative integer (milliseconds), got ${String(ttlMs)}`);
  if (cacheScope !== 'public' && cacheScope !== 'private') {
    fail(typeof cacheScope === 'string' ? 'invalid-value' : 'invalid-type', 'cacheHint.cacheScope', `must be "public" or "private", got ${String(cacheScope)}`);
  }
  return { ttlMs, cacheScope };
}

function normalizePrefix(prefix: string | undefined, fail: OptionFail): string[] {
  if (prefix === undefined || prefix === '') return [];
  if (typeof prefix !== 'string') fail('invalid-type', 'prefix', 'must be a string such as "acme" or "acme/billing"');
  const segments = prefix.replace(/^\/+|\/+$/g, '').split('/');
  for (const segment of segments) {
    const problem = segmentProblem(segment) ?? (isHiddenName(segment) ? 'a leading "."' : undefined);
    if (problem) fail('invalid-value', 'prefix', `"${prefix}" is not a valid skill path prefix: ${problem}`);
  }
  return segments;
}
