/**
 * The options of the SDK v2's `SkillsExtension` for a skillmount source, so one line serves it:
 * `new SkillsExtension(sdkV2Skills(catalog))`. The URI base and a catalog's cache hint come from
 * the source, so the SDK v2 serves the same URIs and cache fields skillmount's own server does.
 */
import type { CacheHint as SdkV2CacheHint } from '@modelcontextprotocol/server';
import type { SkillSource as SdkV2SkillSource } from '@modelcontextprotocol/server/ext/skills';
import { isCatalogBuiltHere } from '../catalog/catalog.js';
import { DEFAULT_BASE_URI } from '../uri/base.js';
import type { SkillContext, SkillSource } from '../types.js';
import { sdkV2Source, type SdkV2SourceOptions } from './source.js';

/** What `new SkillsExtension(...)` takes (its `SkillSourceOptions`), for a skillmount source. */
export interface SdkV2SkillsOptions {
  source: SdkV2SkillSource;
  /** The skillmount source's `baseUri` (default `skill://`). */
  baseUri: string;
  /** A `SkillCatalog`'s `cacheHint`; absent for other sources (the SDK v2 then sends `ttlMs: 0`, `cacheScope: 'private'`). */
  cacheHint?: SdkV2CacheHint;
}

/**
 * What `new SkillsExtension(...)` takes for a skillmount source: the source adapted with
 * `sdkV2Source`, its URI base, and a `SkillCatalog`'s cache hint.
 *
 * @example
 * ```ts
 * import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
 * import { SkillsExtension } from '@modelcontextprotocol/server/ext/skills';
 * import { SkillCatalog } from '@skillmount/core';
 * import { sdkV2Skills } from '@skillmount/core/sdk-v2';
 * import { fsStorage } from '@skillmount/storage-fs';
 *
 * const skills = new SkillsExtension(sdkV2Skills(await SkillCatalog.load(fsStorage('./skills'))));
 * const handler = createMcpHandler(() => {
 *   const mcp = new McpServer({ name: 'my-app', version: '1.0.0' });
 *   skills.attach(mcp);
 *   return mcp;
 * });
 * ```
 *
 * @throws {TypeError} as `sdkV2Source`, when the `context` option is not a function.
 */
export function sdkV2Skills<C extends SkillContext = SkillContext>(source: SkillSource<C>, options: SdkV2SourceOptions<C> = {}): SdkV2SkillsOptions {
  const adapted = sdkV2Source(source, options);
  const baseUri = source.baseUri ?? DEFAULT_BASE_URI.uri;
  // A catalog's hint is one for every request; another source's may differ per request, which the SDK v2 cannot send.
  if (!isCatalogBuiltHere(source) || typeof source.cacheHint !== 'function') return { source: adapted, baseUri };
  const { ttlMs, cacheScope } = source.cacheHint({ headers: {} } as C);
  return { source: adapted, baseUri, cacheHint: { ttlMs, cacheScope } };
}
