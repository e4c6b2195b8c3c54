/**
 * Loads one catalog in a fresh process and reports its memory: RSS and heap at a baseline (after
 * imports, after a full GC), the peak RSS while loading, and RSS and heap after the load and a
 * full GC with the catalog still held. Run with --expose-gc:
 *
 *   node --expose-gc --import tsx bench/cases/memory-child.ts <ours|ours-inline|sdk-v2> <folder>
 *
 * `ours-inline` lists the folder on the main thread (`workerThreads: false`).
 */
import { loadSkills } from '@modelcontextprotocol/server/ext/skills/node';
import { SkillCatalog } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';

const [which, dir] = [process.argv[2], process.argv[3]!];
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('bench: run with --expose-gc');

const settle = () => {
  gc();
  gc();
};
settle();
const base = process.memoryUsage();
const maxBefore = process.resourceUsage().maxRSS * 1024;
let sampled = base.rss;
// maxRSS cannot be reset, so also sample RSS while loading, in case start-up peaked higher.
const sampler = setInterval(() => {
  sampled = Math.max(sampled, process.memoryUsage.rss());
}, 2);

const quiet = { onWarning: () => {} };
const catalog = which === 'sdk-v2' ? await loadSkills(dir, quiet) : await SkillCatalog.load(fsStorage(dir, { workerThreads: which === 'ours' }), quiet);
clearInterval(sampler);
sampled = Math.max(sampled, process.memoryUsage.rss());
const maxAfter = process.resourceUsage().maxRSS * 1024;
settle();
const after = process.memoryUsage();
const peak = maxAfter > maxBefore ? Math.max(maxAfter, sampled) : sampled;

process.stdout.write(
  JSON.stringify({
    skills: catalog.entries.length,
    baselineRss: base.rss,
    peakRssGrowth: peak - base.rss,
    rssGrowth: after.rss - base.rss,
    heapRetained: after.heapUsed - base.heapUsed,
    externalRetained: after.external + after.arrayBuffers - (base.external + base.arrayBuffers),
  }),
);
