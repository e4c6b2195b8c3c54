import { DEFAULT_CACHE_HINT, DEFAULT_PAGE_SIZE, MAX_BYTES_PER_SKILL, MAX_FILES_PER_SKILL } from '../protocol/constants.js';
import { isHiddenName } from '../storage-kit/skill-folders.js';
import { segmentProblem } from '../uri/segment.js';
import { escapeControls } from '../text/escape.js';
import type { CacheHint, CatalogOptions, SkillLimits, SkillWarning } from '../types.js';
import { DEFAULT_BASE_URI, parseBaseUri, type BaseUri } from '../uri/base.js';

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
}

/** The default `cacheBytes`: verified bytes kept in memory so hot reads skip storage. */
export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

/** The default `onWarning`: one line on stderr, with control characters from names and storages escaped. */
export const consoleWarning = (warning: SkillWarning) => {
  const where = warning.path ?? warning.uri;
  console.warn(escapeControls(`[skillmount] ${where ? where + ': ' : ''}${warning.message}`, { lines: true }));
};

/** A bad option value, found when a catalog is created. `option` names it, for adapters that re-word the message. */
export class OptionError extends RangeError {
  readonly option: string;
  readonly detail: string;
  constructor(option: string, detail: string, packageName = 'skillmount') {
    super(`${packageName}: option "${option}" ${detail}`);
    this.name = 'OptionError';
    this.option = option;
    this.detail = detail;
  }
}

const fail = (option: string, message: string): never => {
  throw new OptionError(option, message);
};

const isPositiveInteger = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n > 0;

/** Check every option once, at construction, so a mistake fails at start-up rather than on a request. */
export function normalizeCatalogOptions(options: CatalogOptions = {}): NormalizedCatalogOptions {
  if (options === null || typeof options !== 'object') fail('options', 'must be an object');
  const base = options.baseUri === undefined ? DEFAULT_BASE_URI : parseBaseUri(options.baseUri);
  if (typeof base === 'string') fail('baseUri', base);
  const prefix = normalizePrefix(options.prefix);
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  if (!(isPositiveInteger(pageSize) || pageSize === Infinity)) fail('pageSize', `must be a positive integer or Infinity, got ${String(pageSize)}`);
  const limits = { files: options.limits?.files ?? MAX_FILES_PER_SKILL, bytes: options.limits?.bytes ?? MAX_BYTES_PER_SKILL };
  if (!(isPositiveInteger(limits.files) || limits.files === Infinity)) fail('limits.files', `must be a positive integer or Infinity, got ${String(limits.files)}`);
  if (!(isPositiveInteger(limits.bytes) || limits.bytes === Infinity)) fail('limits.bytes', `must be a positive integer (bytes) or Infinity, got ${String(limits.bytes)}`);
  const cacheHint = normalizeCacheHint(options.cacheHint);
  const concurrency = options.concurrency ?? 32;
  if (!isPositiveInteger(concurrency)) fail('concurrency', `must be a positive integer, got ${String(concurrency)}`);
  if (options.onWarning !== undefined && typeof options.onWarning !== 'function') fail('onWarning', 'must be a function');
  const timeoutMs = options.timeoutMs ?? 30_000;
  if (!(isPositiveInteger(timeoutMs) || timeoutMs === Infinity)) fail('timeoutMs', `must be a positive integer (milliseconds) or Infinity, got ${String(timeoutMs)}`);
  const cacheBytes = options.cacheBytes;
  if (cacheBytes !== undefined && !(typeof cacheBytes === 'number' && Number.isSafeInteger(cacheBytes) && cacheBytes >= 0)) {
    fail('cacheBytes', `must be a non-negative integer (bytes; 0 turns the cache off), got ${String(cacheBytes)}`);
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
  };
}

export function normalizeCacheHint(hint: Partial<CacheHint> | undefined): CacheHint {
  const ttlMs = hint?.ttlMs ?? DEFAULT_CACHE_HINT.ttlMs;
  const cacheScope = hint?.cacheScope ?? DEFAULT_CACHE_HINT.cacheScope;
  if (typeof ttlMs !== 'number' || !Number.isInteger(ttlMs) || ttlMs < 0) fail('cacheHint.ttlMs', `must be a non-negative integer (milliseconds), got ${String(ttlMs)}`);
  if (cacheScope !== 'public' && cacheScope !== 'private') fail('cacheHint.cacheScope', `must be "public" or "private", got ${String(cacheScope)}`);
  return { ttlMs, cacheScope };
}

function normalizePrefix(prefix: string | undefined): string[] {
  if (prefix === undefined || prefix === '') return [];
  if (typeof prefix !== 'string') fail('prefix', 'must be a string such as "acme" or "acme/billing"');
  const segments = prefix.replace(/^\/+|\/+$/g, '').split('/');
  for (const segment of segments) {
    const problem = segmentProblem(segment) ?? (isHiddenName(segment) ? 'a leading "."' : undefined);
    if (problem) fail('prefix', `"${prefix}" is not a valid skill path prefix: ${problem}`);
  }
  return segments;
}
