#!/usr/bin/env node
// Runs every test file under test/ with Node's own test runner (TypeScript through tsx).
// Usage: node scripts/test.mjs [filter...]  — a filter keeps files whose path contains it.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const found = [];
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'fixtures') continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full);
    else if (/\.test\.(ts|mts|js|mjs)$/.test(name)) found.push(path.relative(root, full));
  }
};
walk(path.join(root, 'test'));
const filters = process.argv.slice(2);
const files = found.filter((f) => filters.length === 0 || filters.some((x) => f.includes(x))).sort();
if (files.length === 0) {
  console.error(`no test files match ${filters.join(' ')}`);
  process.exit(1);
}
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files],
  { cwd: root, stdio: 'inherit' },
);
process.exit(result.status ?? 1);
