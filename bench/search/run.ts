/**
 * Search at 10,000 skills: relevance on a held-out labeled query set (queries.json) against a
 * plain BM25 baseline, the CPU cost of a search (labeled and adversarial queries, with and
 * without a visibility rule), the index's memory, the update after a 1% reload, and the same
 * measures for MiniSearch, Orama and FlexSearch over the same skills (their own indexes, their
 * own ranking), which is how the dictionary library was chosen.
 *
 *   node --expose-gc --import tsx bench/search/run.ts /path/to/public-skills [--size 10000]
 *
 * The corpus folder stays outside the repository: any folder of SKILL.md files. Needs built packages.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import MiniSearch from 'minisearch';
import { create, insertMultiple, search as oramaSearch } from '@orama/orama';
import FlexSearch from 'flexsearch';
import { SEARCH_LIMITS, SkillCatalog, memoryStorage, type SkillEntry } from '@skillmount/core';
import { mixedTree, random, realSkills } from './corpus.js';
import { plainBm25 } from './baseline.js';
// The index class itself, for the update measure: not exported by the package.
import { SkillIndex } from '../../packages/core/src/search/skill-index.js';
import { machine } from '../machine.js';

const args = process.argv.slice(2);
const corpus = args.find((a) => !a.startsWith('--'));
if (!corpus) throw new Error('usage: node --expose-gc --import tsx bench/search/run.ts <folder of SKILL.md files> [--size 10000]');
const sizeAt = args.indexOf('--size');
const size = sizeAt >= 0 ? Number(args[sizeAt + 1]) : 10_000;
const quick = args.includes('--quick');
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

interface Labeled {
  query: string;
  kind: string;
  expect: string[];
}
const labeled = (JSON.parse(readFileSync(path.join(import.meta.dirname, 'queries.json'), 'utf8')) as { queries: Labeled[] }).queries;

const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const us = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;

/** CPU time of each call of `fn` over `inputs`, `rounds` times each, in ms (after a warm-up round). */
function timed<T>(inputs: readonly T[], rounds: number, fn: (input: T) => unknown): number[] {
  for (const input of inputs) fn(input);
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const input of inputs) {
      const start = process.cpuUsage();
      fn(input);
      const spent = process.cpuUsage(start);
      times.push((spent.user + spent.system) / 1000);
    }
  }
  return times;
}

const real = realSkills(corpus);
const tree = mixedTree(real, size);
const quiet = { onWarning: () => {} };
console.log(`- Machine: ${machine()}`);
console.log(`- Date: ${new Date().toISOString().slice(0, 10)}`);
console.log(`- Corpus: ${real.length} real skills from ${corpus}, ${Object.keys(tree).length - real.length} generated, ${Object.keys(tree).length} in all`);
console.log();

// --- Memory: a catalog with and without its index ---------------------------------------
const before = heap();
const plainCatalog = await SkillCatalog.load(memoryStorage(tree), quiet);
const plainBytes = heap() - before;
let start = performance.now();
const catalog = await SkillCatalog.load(memoryStorage(tree), { ...quiet, search: true });
const loadMs = performance.now() - start;
// Each catalog holds its own snapshot (plainBytes): what is left is the index.
const withIndex = heap() - before - 2 * plainBytes;
start = performance.now();
// --quick: our frontmatter index alone (no bodies, no other libraries).
const textCatalog = quick ? catalog : await SkillCatalog.load(memoryStorage(tree), { ...quiet, search: { text: true } });
const textLoadMs = performance.now() - start;
const withText = quick ? 0 : heap() - before - 3 * plainBytes - withIndex;
const entries = catalog.entries;
console.log(`## Index memory and build (${entries.length} skills)`);
console.log();
console.log(`| | heap | load |`);
console.log(`|---|---|---|`);
console.log(`| catalog without search | ${mib(plainBytes)} | |`);
console.log(`| search index, frontmatter | ${mib(withIndex)} | ${loadMs.toFixed(0)} ms with the catalog |`);
console.log(`| search index, with bodies | ${mib(withText)} | ${textLoadMs.toFixed(0)} ms with the catalog |`);
console.log();

// --- Relevance --------------------------------------------------------------------------
const names = new Set(entries.map((e) => e.frontmatter.name));
const usable = labeled.filter((q) => q.expect.some((n) => names.has(n)));
const skipped = labeled.length - usable.length;
const rankOf = (found: readonly SkillEntry[], expect: readonly string[]) => found.findIndex((e) => expect.includes(e.frontmatter.name)) + 1;
function relevance(label: string, run: (query: string) => readonly SkillEntry[]) {
  let hits3 = 0;
  let rr = 0;
  const byKind = new Map<string, { n: number; hits3: number; rr: number }>();
  const misses: string[] = [];
  for (const q of usable) {
    const rank = rankOf(run(q.query).slice(0, 10), q.expect);
    const kind = byKind.get(q.kind) ?? { n: 0, hits3: 0, rr: 0 };
    byKind.set(q.kind, kind);
    kind.n++;
    if (rank > 0 && rank <= 3) {
      hits3++;
      kind.hits3++;
    }
    if (rank > 0) {
      rr += 1 / rank;
      kind.rr += 1 / rank;
    } else misses.push(q.query);
    if (rank === 0 || rank > 3) misses.push(`${q.query} (${rank || '-'})`);
  }
  const kinds = [...byKind].map(([k, v]) => `${k} ${(v.hits3 / v.n).toFixed(2)}/${(v.rr / v.n).toFixed(2)}`).join(', ');
  console.log(`| ${label} | ${(hits3 / usable.length).toFixed(3)} | ${(rr / usable.length).toFixed(3)} | ${kinds} |`);
  return [...new Set(misses.filter((m) => m.includes('(')))];
}
console.log(`## Relevance: ${usable.length} held-out queries${skipped ? ` (${skipped} skipped: their skills are not in this corpus)` : ''}`);
console.log();
console.log('| ranking | recall@3 | MRR@10 | by kind (recall@3/MRR) |');
console.log('|---|---|---|---|');
const baseline = plainBm25(entries);
relevance('plain BM25, name + description (baseline)', (q) => baseline(q, 10));
const ours = relevance('skillmount, frontmatter (search: true)', (q) => catalog.search(q, { limit: 10 }).skills);
const oursText = quick ? [] : relevance('skillmount, with bodies (search: { text: true })', (q) => textCatalog.search(q, { limit: 10 }).skills);
const libraries = quick ? undefined : await measureLibraries();
console.log();
console.log(`Missed or below 3 (frontmatter): ${ours.join('; ') || 'none'}`);
console.log();
console.log(`Missed or below 3 (with bodies): ${oursText.join('; ') || 'none'}`);
console.log();

// --- Cost -------------------------------------------------------------------------------
const next = random(99);
const shortWords = 'ab cd ef gh ij kl mn op qr st uv wx'.split(' ');
const prefixes = 'con pro dat ana man tes dev ser app cod str mod'.split(' ');
const longTypos =
  'kubernetse orchestraton visualisaton managment deploymnet authenticaton infrastrucure documentaion transformaton configuraton performace integraiton'.split(
    ' ',
  );
const longest = (() => {
  // Whole words only, up to the longest query allowed: the 12 typos again and again.
  let query = '';
  for (let i = 0; `${query} ${longTypos[i % longTypos.length]}`.trim().length <= SEARCH_LIMITS.maxQueryLength; i++)
    query = `${query} ${longTypos[i % longTypos.length]}`.trim();
  return query;
})();
const common = 'use skill when data code create build test analysis python tool guide'.split(' ');
const adversarial = [shortWords.join(' '), prefixes.join(' '), longTypos.join(' '), longest, common.join(' ')];
const adversarialLabels = [
  '12 two-letter words',
  '12 three-letter prefixes',
  '12 long typos (two edits)',
  `longest allowed (${longest.length} chars)`,
  '12 most common words',
];
const hidden = new Set(entries.filter(() => next() < 0.5).map((e) => e.uri));
const halfVisible = (e: SkillEntry) => !hidden.has(e.uri);
console.log(`## CPU per search (${entries.length} skills; p50 / p99 over repeated runs)`);
console.log();
console.log('| queries | skillmount | skillmount, half hidden by visible() | with bodies | MiniSearch | Orama | FlexSearch |');
console.log('|---|---|---|---|---|---|---|');
const row = (label: string, queries: readonly string[], rounds: number) => {
  const cells = [
    timed(queries, rounds, (q) => catalog.search(q, { limit: 10 })),
    timed(queries, rounds, (q) => catalog.search(q, { limit: 10, visible: halfVisible })),
    ...(libraries
      ? [
          timed(queries, rounds, (q) => textCatalog.search(q, { limit: 10 })),
          timed(queries, rounds, (q) => libraries.mini.search(q).slice(0, 10)),
          timed(queries, rounds, (q) => libraries.oramaRun(q)),
          timed(queries, rounds, (q) => libraries.flexRun(q)),
        ]
      : []),
  ].map((t) => `${us(quantile(t, 0.5))} / ${us(quantile(t, 0.99))}`);
  console.log(`| ${label} | ${cells.join(' | ')} |`);
};
row(
  `${usable.length} labeled`,
  usable.map((q) => q.query),
  10,
);
for (const [i, q] of adversarial.entries()) row(adversarialLabels[i]!, [q], 30);
console.log();
if (libraries) {
  const { miniBytes, miniBuild, oramaBytes, oramaBuild, flexBytes, flexBuild } = libraries;
  console.log(
    `Library memory for the same ${entries.length} skills (name and description only): MiniSearch ${mib(miniBytes)} (${miniBuild.toFixed(0)} ms to build), ` +
      `Orama ${mib(oramaBytes)} (${oramaBuild.toFixed(0)} ms), FlexSearch ${mib(flexBytes)} (${flexBuild.toFixed(0)} ms).`,
  );
}
console.log();

// --- Update after a 1% reload -----------------------------------------------------------
// The index alone, in CPU time: taking out and adding back the changed skills (what a reload
// does to it) against building it whole. A catalog reload's own time varies too much with the
// machine to show the index's share.
const cpu = (fn: () => void) => {
  const at = process.cpuUsage();
  fn();
  const spent = process.cpuUsage(at);
  return (spent.user + spent.system) / 1000;
};
let index = new SkillIndex();
const builds = [1, 2, 3].map(() => {
  index = new SkillIndex();
  return cpu(() => {
    for (const e of entries) index.add(e);
  });
});
const fullBuild = quantile(builds, 0.5);
const changedEntries = entries
  .filter((_, i) => i % 100 === 37)
  .map((e) => ({ ...e, frontmatter: { ...e.frontmatter, description: `changed ${e.frontmatter.description}` } }));
const update = quantile(
  [1, 2, 3, 4, 5].map(() =>
    cpu(() => {
      for (const e of changedEntries) index.remove(e.uri);
      for (const e of changedEntries) index.add(e);
    }),
  ),
  0.5,
);
console.log(`## Update after a 1% reload (${changedEntries.length} skills changed)`);
console.log();
console.log(`The index update takes ${update.toFixed(1)} ms of CPU, against ${fullBuild.toFixed(0)} ms to build the index of ${entries.length} skills whole.`);
void plainCatalog;

/** MiniSearch, Orama and FlexSearch over the same skills' names and descriptions: relevance, build time and memory. */
async function measureLibraries() {
  const mini = new MiniSearch<{ id: number; name: string; description: string }>({
    fields: ['name', 'description'],
    searchOptions: { boost: { name: 3 }, prefix: true, fuzzy: 0.2 },
  });
  let libraryStart = heap();
  start = performance.now();
  mini.addAll(entries.map((e, id) => ({ id, name: e.frontmatter.name.replace(/-/g, ' '), description: e.frontmatter.description })));
  const miniBuild = performance.now() - start;
  const miniBytes = heap() - libraryStart;
  relevance('MiniSearch (prefix, fuzzy 0.2, name boost 3)', (q) =>
    mini
      .search(q)
      .slice(0, 10)
      .map((r) => entries[r.id as number]!),
  );
  libraryStart = heap();
  start = performance.now();
  const orama = create({ schema: { name: 'string', description: 'string' } as const });
  await insertMultiple(
    orama,
    entries.map((e, i) => ({ id: String(i), name: e.frontmatter.name.replace(/-/g, ' '), description: e.frontmatter.description })),
  );
  const oramaBuild = performance.now() - start;
  const oramaBytes = heap() - libraryStart;
  const oramaRun = (q: string) => {
    const result = oramaSearch(orama, { term: q, limit: 10, tolerance: 1, boost: { name: 3 } }) as { hits: { id: string }[] };
    return result.hits.map((h) => entries[Number(h.id)]!);
  };
  relevance('Orama (tolerance 1, name boost 3)', oramaRun);
  libraryStart = heap();
  start = performance.now();
  const flex = new FlexSearch.Document({ document: { id: 'id', index: ['name', 'description'] }, tokenize: 'forward' });
  for (const [id, e] of entries.entries()) flex.add({ id, name: e.frontmatter.name.replace(/-/g, ' '), description: e.frontmatter.description });
  const flexBuild = performance.now() - start;
  const flexBytes = heap() - libraryStart;
  const flexRun = (q: string) => {
    const seen = new Set<number>();
    for (const field of flex.search(q, { limit: 10, suggest: true }) as { result: number[] }[]) for (const id of field.result) seen.add(id);
    return [...seen].slice(0, 10).map((id) => entries[id]!);
  };
  relevance('FlexSearch (forward, suggest)', flexRun);
  return { mini, oramaRun, flexRun, miniBytes, miniBuild, oramaBytes, oramaBuild, flexBytes, flexBuild };
}
