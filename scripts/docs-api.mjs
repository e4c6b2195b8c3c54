#!/usr/bin/env node
// Generates the API reference (Markdown, for the docs site's /api/ section) from the doc comments
// of every package's public entry points, as typedoc.json configures it.
// Usage: node scripts/docs-api.mjs [outDir]   (default docs/api)
// Any warning (an undocumented export, a broken {@link}) fails the run: typedoc.json treats them as errors.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const out = path.resolve(process.argv[2] ?? path.join(root, 'docs/api'));
// The bin is not among the package's exports: found beside its package.json.
const typedoc = path.join(path.dirname(createRequire(path.join(root, 'package.json')).resolve('typedoc/package.json')), 'bin/typedoc');

const started = performance.now();
const r = spawnSync(process.execPath, [typedoc, '--options', path.join(root, 'typedoc.json'), '--out', out], { cwd: root, stdio: 'inherit' });
const seconds = ((performance.now() - started) / 1000).toFixed(1);
if (r.status !== 0) {
  console.error(`docs-api: TypeDoc failed (exit ${r.status ?? r.signal}) after ${seconds} s; fix what it printed above (typedoc.json sets its checks)`);
  process.exit(1);
}
const pages = readdirSync(out, { recursive: true }).filter((name) => String(name).endsWith('.md')).length;
console.log(`docs-api: ${pages} pages in ${path.relative(process.cwd(), out) || '.'} in ${seconds} s`);
