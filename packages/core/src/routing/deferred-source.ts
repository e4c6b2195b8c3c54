/**
 * A source that answers through another one that is not there yet (a catalog still loading):
 * every request waits for it, then is answered by it as if it had been given directly. Being a
 * routed source, the skills service answers from the source it resolves to, so a catalog's
 * entries keep counting as checked (no per-request re-check) and its own cache hint is sent.
 */
import { directoryNotFound } from '../errors.js';
import type { ListSkillsParams, SkillContext, SkillSource, SkillWarning } from '../types.js';
import { markRouted, type RoutedSource } from './routed-source.js';

export interface DeferredSourceOptions {
  /** The source, once it can be had; a rejection fails each request waiting for it. */
  source: () => Promise<SkillSource>;
  /** List-change subscriptions made before the source is there (it cannot take them yet). */
  onListChanged?: SkillSource['onListChanged'];
  /** Where warnings go before the source is there. */
  warn?: (warning: SkillWarning) => void;
  /** The base URI the source will serve under, when it is not `skill://`. */
  baseUri?: string;
}

/**
 * A `SkillSource` that waits for `options.source()` on every request and answers through it.
 *
 * @example
 * ```ts
 * import { SkillCatalog, createSkillsEndpoint } from '@skillmount/core';
 * import { deferredSource } from '@skillmount/core/adapter';
 * import { fsStorage } from '@skillmount/storage-fs';
 *
 * const loading = SkillCatalog.load(fsStorage('./skills'));
 * // Listening starts now; requests wait for the catalog.
 * const endpoint = createSkillsEndpoint({ source: deferredSource({ source: () => loading }) });
 * ```
 * @throws Nothing here; each request's call rejects with what `options.source()` rejects with.
 */
export function deferredSource(options: DeferredSourceOptions): SkillSource {
  const resolve = async <T>(_ctx: SkillContext, use: (source: SkillSource) => T | Promise<T>): Promise<T> => use(await options.source());
  const source: RoutedSource = {
    resolve,
    list: (params: ListSkillsParams, ctx: SkillContext) => resolve(ctx, (s) => s.list(params, ctx)),
    get: (uri: string, ctx: SkillContext) => resolve(ctx, (s) => s.get(uri, ctx)),
    read: (uri: string, ctx: SkillContext) => resolve(ctx, (s) => s.read(uri, ctx)),
    readDirectory: (uri: string, params: ListSkillsParams, ctx: SkillContext) =>
      resolve(ctx, (s) => {
        if (typeof s.readDirectory !== 'function') throw directoryNotFound(uri);
        return s.readDirectory(uri, params, ctx);
      }),
    listResources: (ctx: SkillContext) => resolve(ctx, async (s) => (await s.listResources?.(ctx)) ?? []),
    ...(options.onListChanged ? { onListChanged: options.onListChanged } : {}),
    ...(options.warn ? { warn: options.warn } : {}),
    ...(options.baseUri !== undefined ? { baseUri: options.baseUri } : {}),
  };
  markRouted(source);
  return source;
}
