// The cost table scripts/test.mjs prints after a run, from the lines scripts/test-cost.mjs wrote
// (one per test file): the slowest files with their wall and CPU time and what they paid for
// set-up, the suite's totals, and, for a run of the whole suite, the check against the CPU budget
// in test/cost-budget.json. The whole table is also written to .tmp/test-cost.tsv.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const SHOWN = 15;
const s = (ms) => (ms / 1000).toFixed(1);

/** The cost lines of the test files in `files` (paths relative to `root`), one per file. */
export function readCosts(costFile, root, files) {
  let text = '';
  try {
    text = readFileSync(costFile, 'utf8');
  } catch {
    return [];
  }
  const wanted = new Set(files);
  const costs = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    const cost = JSON.parse(line);
    cost.file = path.relative(root, cost.file ?? '');
    if (!wanted.has(cost.file)) continue;
    cost.totalCpuMs = cost.cpuMs + cost.childCpuMs;
    costs.push(cost);
  }
  return costs;
}

/** The table's lines: the `SHOWN` slowest files by wall time, then the totals. */
export function costLines(costs, files, elapsedMs) {
  const kinds = [...new Set(costs.flatMap((c) => Object.keys(c.setupMs)))].sort();
  const header = ['wall s', 'CPU s', 'children s', 'start s', ...kinds.map((k) => `${k} s`), 'file'];
  const row = (c) => [s(c.wallMs), s(c.totalCpuMs), s(c.childCpuMs), s(c.startMs), ...kinds.map((k) => (c.setupMs[k] ? s(c.setupMs[k]) : '')), c.file];
  const slowest = [...costs].sort((a, b) => b.wallMs - a.wallMs).slice(0, SHOWN);
  const width = header.map((h, i) => Math.max(h.length, ...slowest.map((c) => String(row(c)[i]).length)));
  const format = (cells) => cells.map((cell, i) => (i === cells.length - 1 ? cell : String(cell).padStart(width[i]))).join('  ');
  const sum = (key) => costs.reduce((n, c) => n + c[key], 0);
  const setup = kinds.map((k) => `${k} ${s(costs.reduce((n, c) => n + (c.setupMs[k] ?? 0), 0))} s`);
  const lines = [
    `Cost of the ${SHOWN} slowest of ${files.length} test files (every file: .tmp/test-cost.tsv):`,
    format(header),
    ...slowest.map((c) => format(row(c))),
    `Totals: CPU ${s(sum('totalCpuMs'))} s (test processes ${s(sum('cpuMs'))} s, their children ${s(sum('childCpuMs'))} s); ` +
      `wall ${s(sum('wallMs'))} s summed over files, ${s(elapsedMs)} s elapsed; ` +
      `process start and loader ${s(sum('startMs'))} s${setup.length ? `; set-up: ${setup.join(', ')}` : ''}`,
  ];
  if (costs.length < files.length) lines.push(`(${files.length - costs.length} test files reported no cost: they did not exit normally)`);
  return { lines, tsv: [header, ...costs.map(row)].map((cells) => cells.join('\t')).join('\n') };
}

/** Write the whole table where people can find it after the run. */
export function keepTable(root, tsv) {
  const dir = path.join(root, '.tmp');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'test-cost.tsv'), `${tsv}\n`);
}

/**
 * For a run of the whole suite: the problem with its CPU time against test/cost-budget.json, or
 * undefined when it is within the budget.
 */
export function overBudget(root, costs) {
  const budgetFile = path.join(root, 'test/cost-budget.json');
  const { cpuSeconds } = JSON.parse(readFileSync(budgetFile, 'utf8'));
  const used = costs.reduce((n, c) => n + c.totalCpuMs, 0) / 1000;
  if (used <= cpuSeconds) return undefined;
  return (
    `the suite used ${used.toFixed(0)} s of CPU, over its budget of ${cpuSeconds} s (${path.relative(root, budgetFile)}). ` +
    'Make the files at the top of the table above cheaper (CONTRIBUTING.md, "Testing rule"), or, where the new cost is worth it, ' +
    'raise cpuSeconds in the same change and say why in its note.'
  );
}
