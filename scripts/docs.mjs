#!/usr/bin/env node
// The documentation site (VitePress, docs/): `node scripts/docs.mjs dev` serves it with live
// reload, `node scripts/docs.mjs build [outDir]` writes the static site (default .tmp/site).
// Before either, the API reference is generated into docs/api/ from the doc comments
// (scripts/docs-api.mjs, TypeDoc's Markdown); where that script does not exist, docs/api/index.md
// is a placeholder page, so the site's "API reference" link always leads somewhere.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const [mode, outDir = path.join(root, '.tmp/site')] = process.argv.slice(2);
if (mode !== 'dev' && mode !== 'build') {
  console.error('usage: node scripts/docs.mjs dev | build [outDir]');
  process.exit(2);
}

const apiDir = path.join(root, 'docs/api');
const apiScript = path.join(root, 'scripts/docs-api.mjs');
// The placeholder below marks its folder, so that the generator (which refuses a folder it did not
// make) is handed an empty one once it exists.
const PLACEHOLDER = '.placeholder';
if (existsSync(apiScript)) {
  if (existsSync(path.join(apiDir, PLACEHOLDER))) rmSync(apiDir, { recursive: true, force: true });
  const api = spawnSync(process.execPath, [apiScript, apiDir], { cwd: root, stdio: 'inherit' });
  if (api.status !== 0) process.exit(api.status ?? 1);
} else if (!existsSync(path.join(apiDir, 'index.md'))) {
  mkdirSync(apiDir, { recursive: true });
  writeFileSync(path.join(apiDir, PLACEHOLDER), 'Written by scripts/docs.mjs while scripts/docs-api.mjs does not exist.\n');
  writeFileSync(
    path.join(apiDir, 'index.md'),
    '# API reference\n\nThe API reference is generated from the doc comments of the packages: it is not built yet in this checkout.\n\n' +
      'Every option and export is described in the [reference pages](../reference/core.md) meanwhile.\n',
  );
}

const vitepress = path.join(root, 'node_modules/vitepress/bin/vitepress.js');
const args = mode === 'dev' ? ['dev', 'docs'] : ['build', 'docs', '--outDir', path.resolve(outDir)];
const result = spawnSync(process.execPath, [vitepress, ...args], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
