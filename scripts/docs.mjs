#!/usr/bin/env node
// The documentation site (VitePress, docs/): `node scripts/docs.mjs dev` serves it with live
// reload, `node scripts/docs.mjs build [outDir]` writes the static site (default .tmp/site), and
// `node scripts/docs.mjs preview [outDir] [--port N]` serves that built site as it will be published
// (vitepress preview, http://localhost:4173/ unless --port says otherwise).
// Before dev and build, the API reference is generated into docs/api/ from the doc comments
// (scripts/docs-api.mjs, TypeDoc's Markdown); where that script does not exist, docs/api/index.md
// is a placeholder page, so the site's "API reference" link always leads somewhere.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
// `pnpm docs:preview -- --port 5000` passes the `--` through.
const [mode, ...rest] = process.argv.slice(2).filter((arg) => arg !== '--');
const positional = [];
const port = [];
for (let i = 0; i < rest.length; i++) {
  if (rest[i] === '--port' && mode === 'preview' && rest[i + 1] !== undefined) port.push('--port', rest[++i]);
  else positional.push(rest[i]);
}
const [outDir = path.join(root, '.tmp/site')] = positional;
if (!['dev', 'build', 'preview'].includes(mode) || positional.length > 1 || positional.some((arg) => arg.startsWith('-'))) {
  console.error('usage: node scripts/docs.mjs dev | build [outDir] | preview [outDir] [--port N]');
  process.exit(2);
}
const vitepress = path.join(root, 'node_modules/vitepress/bin/vitepress.js');

if (mode === 'preview') {
  // vitepress preview serves the folder the config names (outDir in docs/.vitepress/config.mts,
  // which reads SKILLMOUNT_SITE_DIR), not one given on its command line.
  const site = path.resolve(outDir);
  if (!existsSync(path.join(site, 'index.html'))) {
    const build = site === path.join(root, '.tmp/site') ? 'npx -y pnpm@10.34.9 docs:build' : `node scripts/docs.mjs build ${outDir}`;
    console.error(`${path.relative(root, site).startsWith('..') ? site : path.relative(root, site)} holds no built site: build it first (${build})`);
    process.exit(1);
  }
  const env = { ...process.env, SKILLMOUNT_SITE_DIR: site };
  const result = spawnSync(process.execPath, [vitepress, 'preview', 'docs', ...port], { cwd: root, stdio: 'inherit', env });
  process.exit(result.status ?? 1);
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

const args = mode === 'dev' ? ['dev', 'docs'] : ['build', 'docs', '--outDir', path.resolve(outDir)];
const result = spawnSync(process.execPath, [vitepress, ...args], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
