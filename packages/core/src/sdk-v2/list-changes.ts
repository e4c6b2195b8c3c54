/**
 * A skillmount source's list changes (a catalog's `reload()`, a watched storage) told to the SDK
 * v2's clients. The SDK v2's `SkillSource` has no change hook: behind `createMcpHandler`, changes
 * reach clients through the handler's `notify.resourcesChanged()`, which every open
 * `subscriptions/listen` stream that asked for resource list changes hears.
 */
import type { SkillContext, SkillSource } from '../types.js';

/** The part of `createMcpHandler(...).notify` (the SDK v2's `ServerNotifier`) this needs. */
export interface ResourcesChangedNotifier {
  resourcesChanged(): void;
}

/**
 * Call `notifier.resourcesChanged()` each time `source` reports that its list changed; returns
 * the function that stops it. A source without `onListChanged` reports nothing, and this is a
 * no-op. `ctx` is passed to the source's `onListChanged`: for `tenantCatalogs(...)`, the context
 * that names the tenant whose changes to publish.
 *
 * @example
 * ```ts
 * import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
 * import { SkillCatalog } from '@skillmount/core';
 * import { notifyListChanges } from '@skillmount/core/sdk-v2';
 * import { fsStorage } from '@skillmount/storage-fs';
 *
 * const catalog = await SkillCatalog.load(fsStorage('./skills'));
 * catalog.watch();
 * const handler = createMcpHandler(() => new McpServer({ name: 'my-app', version: '1.0.0' }));
 * const stop = notifyListChanges(catalog, handler.notify); // call stop() at shutdown
 * ```
 *
 * @throws {TypeError} when `notifier` has no `resourcesChanged` function (pass `createMcpHandler(...).notify`).
 */
export function notifyListChanges<C extends SkillContext = SkillContext>(source: SkillSource<C>, notifier: ResourcesChangedNotifier, ctx?: C): () => void {
  if (typeof notifier?.resourcesChanged !== 'function') {
    throw new TypeError('skillmount: notifyListChanges(source, notifier) needs the notify of createMcpHandler(...), an object with resourcesChanged()');
  }
  if (typeof source.onListChanged !== 'function') return () => undefined;
  return source.onListChanged(() => notifier.resourcesChanged(), ctx);
}
