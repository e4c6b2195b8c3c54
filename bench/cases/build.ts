/** Catalog build: ours (`SkillCatalog.load`) against the SDK v2's, on the same storage. */
import { SkillsExtension } from '@modelcontextprotocol/server/ext/skills';
import { loadSkills } from '@modelcontextprotocol/server/ext/skills/node';
import { SkillCatalog } from '@skillmount/core';
import { fileCount } from '../corpus.js';
import { counting } from '../counting.js';
import { fitCosts, type Fit } from '../fit.js';
import { count, ms, ratio, table } from '../format.js';
import type { SeededStore } from '../stores/store.js';
import { alternate, medians } from './compare.js';

export interface BuildResult {
  store: string;
  size: string;
  skills: number;
  files: number;
  runs: number;
  ours: number;
  theirs: number;
  /** Bodies our build took from storage, read or hashed while listing (the SDK v2 reads every file). */
  bodiesRead: number;
}

const quiet = { onWarning: () => {} };

interface Comparable {
  uri: string;
  resources: readonly { uri: string; digest: string; size: number }[] | 'dynamic';
}

/** Both builders must publish the same skills with the same files, digests and sizes, or the figures mean nothing. */
function sameCatalog(ours: readonly Comparable[], theirs: readonly Comparable[], where: string): void {
  const flat = (entries: readonly Comparable[]) =>
    entries
      .map(
        (e) =>
          `${e.uri} ${
            Array.isArray(e.resources)
              ? [...e.resources]
                  .map((r) => `${r.uri}=${r.digest}:${r.size}`)
                  .sort()
                  .join(',')
              : e.resources
          }`,
      )
      .sort()
      .join('\n');
  if (flat(ours) !== flat(theirs)) throw new Error(`bench: ${where}: the two catalogs differ`);
}

export async function buildCase(store: SeededStore, runs: number, longRunMs: number, warmUp: boolean): Promise<BuildResult> {
  let bodiesRead = 0;
  let lastOurs: readonly Comparable[] = [];
  let lastTheirs: readonly Comparable[] = [];
  const ours = async () => {
    const files = store.adapter();
    try {
      const counted = counting(files, store.listingReadsBodies === true);
      const catalog = await SkillCatalog.load(counted.files, quiet);
      if (catalog.entries.length !== store.size.skills) throw new Error(`bench: ${store.kind}: ${catalog.entries.length} skills, not ${store.size.skills}`);
      bodiesRead = counted.bodies();
      lastOurs = catalog.entries;
    } finally {
      await store.release(files);
    }
  };
  const theirs = async () => {
    const files = store.adapter();
    try {
      const catalog = store.dir !== undefined ? await loadSkills(store.dir, quiet) : await SkillsExtension.load(files, quiet);
      if (catalog.entries.length !== store.size.skills)
        throw new Error(`bench: ${store.kind}: the SDK v2 built ${catalog.entries.length} skills, not ${store.size.skills}`);
      lastTheirs = catalog.entries as readonly Comparable[];
    } finally {
      await store.release(files);
    }
  };
  const pair = await alternate(runs, longRunMs, warmUp, ours, theirs);
  sameCatalog(lastOurs, lastTheirs, `${store.kind} ${store.size.label}`);
  const m = medians(pair);
  return {
    store: store.kind,
    size: store.size.label,
    skills: store.size.skills,
    files: fileCount(store.size),
    runs: pair.runs,
    ours: m.ours,
    theirs: m.theirs,
    bodiesRead,
  };
}

/** Our and the SDK v2's build times of one storage split into a cost per skill and per file (undefined when its corpora cannot tell them apart). */
export function buildCosts(builds: readonly BuildResult[], store: string): { ours: Fit; theirs: Fit; corpora: number } | undefined {
  const of = builds.filter((b) => b.store === store);
  const ours = fitCosts(of.map((b) => ({ skills: b.skills, files: b.files, ms: b.ours })));
  const theirs = fitCosts(of.map((b) => ({ skills: b.skills, files: b.files, ms: b.theirs })));
  return ours && theirs ? { ours, theirs, corpora: of.length } : undefined;
}

const micros = (msValue: number) => {
  const us = msValue * 1000;
  return `${Math.abs(us) >= 10 ? Math.round(us).toLocaleString('en-US') : us.toFixed(1)} µs`;
};
// A fit can come out negative for a cost the corpora barely show: no ratio of that.
const costRatio = (theirs: number, ours: number) => (theirs > 0 && ours > 0 ? ratio(theirs / ours) : '–');
const percent = (share: number) => `${(share * 100).toFixed(0)}%`;

/** The printed section: the build times, then the fitted costs per skill and per file. */
export function buildSection(builds: readonly BuildResult[], wideNote: string): string[] {
  const lines = [
    '## Catalog build',
    '',
    'Ours: `SkillCatalog.load(storage)`. SDK v2: `loadSkills(dir)` for the folder, `SkillsExtension.load(storage)` handed the same adapter type (`s3Storage`, `postgresStorage`) for S3 and PostgreSQL. Both built catalogs are checked to publish the same skills, files, digests and sizes. ' +
      wideNote,
    '',
    table(
      ['storage', 'corpus', 'runs', 'ours', 'SDK v2', 'ratio', 'bodies read (ours)'],
      builds.map((b) => [b.store, b.size, String(b.runs), ms(b.ours), ms(b.theirs), ratio(b.theirs / b.ours), `${count(b.bodiesRead)} of ${count(b.files)}`]),
    ),
    '',
  ];
  const rows: string[][] = [];
  for (const store of new Set(builds.map((b) => b.store))) {
    const costs = buildCosts(builds, store);
    if (!costs) continue;
    const { ours, theirs, corpora } = costs;
    rows.push([
      store,
      String(corpora),
      micros(ours.perSkill),
      micros(ours.perFile),
      micros(theirs.perSkill),
      micros(theirs.perFile),
      costRatio(theirs.perSkill, ours.perSkill),
      costRatio(theirs.perFile, ours.perFile),
      `${percent(ours.worstError)} / ${percent(theirs.worstError)}`,
    ]);
  }
  if (rows.length === 0) return lines;
  lines.push(
    "Cost per skill and per file: each side's build times above fitted as time ≈ a·skills + b·files by least squares (no constant term, plain errors, so the large corpora decide it) over the storage's corpora; with two corpora the two equations are solved exactly. " +
      'A fixed cost (threads starting, a first query) has no term of its own: it shows as a miss on the smallest corpus, or as a negative cost when two corpora are solved exactly. Last column: the worst relative miss of the fit over the corpora (ours / SDK v2).',
    '',
    table(
      ['storage', 'corpora', 'ours: per skill', 'ours: per file', 'SDK v2: per skill', 'SDK v2: per file', 'ratio: skill', 'ratio: file', 'worst miss'],
      rows,
    ),
    '',
  );
  return lines;
}
