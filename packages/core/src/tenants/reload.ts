/** Reloading tenants in memory: one in place (or built again and swapped in), or all of them. */
import { diffEntries } from '../catalog/diff.js';
import type { ReloadReport } from '../types.js';
import type { TenantCache } from './cache.js';
import { entriesOf } from './fingerprint.js';
import type { TenantListeners } from './listeners.js';
import type { LoadedTenant } from './loader.js';

/** Reload `key` if it is in memory; `undefined` when it is not. */
export async function reloadTenant(cache: TenantCache<LoadedTenant>, listeners: TenantListeners, key: string): Promise<ReloadReport | undefined> {
  let replace = false;
  const report = await cache.ifLoaded(key, (loaded) => {
    if (typeof loaded.source.reload === 'function') return loaded.source.reload();
    replace = true;
    return undefined;
  });
  if (!replace) return report;
  // A source that cannot reload itself is built again and swapped in.
  const { before, after } = await cache.replace(key);
  const beforeEntries = entriesOf(before?.source);
  const afterEntries = entriesOf(after.source);
  const replaced = beforeEntries && afterEntries ? diffEntries(beforeEntries, afterEntries) : { added: [], removed: [], changed: [], listChanged: true };
  if (replaced.listChanged) listeners.notify(key);
  return replaced;
}

/** Reload every key, trying them all; rejects with an `AggregateError` of the failures, if any. */
export async function reloadEvery(keys: readonly string[], reloadOne: (key: string) => Promise<ReloadReport | undefined>): Promise<Map<string, ReloadReport>> {
  const settled = await Promise.allSettled(keys.map((k) => reloadOne(k)));
  const reports = new Map<string, ReloadReport>();
  const failures: unknown[] = [];
  const failed: string[] = [];
  settled.forEach((result, i) => {
    if (result.status === 'fulfilled') {
      if (result.value) reports.set(keys[i]!, result.value);
    } else {
      failures.push(result.reason);
      failed.push(keys[i]!);
    }
  });
  if (failures.length > 0) {
    throw new AggregateError(
      failures,
      `skillmount: reloading ${failed.length} of ${keys.length} tenants failed (${failed.join(', ')}); they keep serving their previous catalog`,
    );
  }
  return reports;
}
