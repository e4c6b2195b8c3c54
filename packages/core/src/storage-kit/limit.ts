/**
 * Map with at most `limit` calls in flight; results keep the input order. The first failure stops
 * new calls and is thrown once the calls already in flight have settled, so a failed load leaves
 * nothing running behind it (a reload that follows never overlaps it).
 *
 * @example
 * ```ts
 * import { readFile } from 'node:fs/promises';
 * import { mapLimit } from '@skillmount/core/storage-kit';
 *
 * const contents = await mapLimit(['a/SKILL.md', 'b/SKILL.md'], 8, (path) => readFile(path));
 * ```
 * @throws The first error `fn` throws (the promise rejects), once the calls already in flight have settled.
 */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < items.length) {
      const index = next++;
      try {
        results[index] = await fn(items[index]!, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failure) throw failure.error;
  return results;
}
