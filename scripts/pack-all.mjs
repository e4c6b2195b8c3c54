#!/usr/bin/env node
// Packs every package into an npm-installable tarball. `pnpm pack` rewrites the `workspace:`
// ranges between our packages into the versions they point at; `npm pack` would leave them, and
// npm refuses to install them. Build first (`pnpm pack-all` does).
// Usage: node scripts/pack-all.mjs [folder]   (default: .tmp/packs); prints each tarball's path.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { quickBuilt } from './dist-state.mjs';

const root = path.resolve(import.meta.dirname, '..');
const out = path.resolve(process.argv[2] ?? path.join(root, '.tmp/packs'));
const fail = (message) => {
  console.error(`pack-all: ${message}`);
  process.exit(1);
};

const packages = readdirSync(path.join(root, 'packages')).map((name) => path.join(root, 'packages', name));
for (const dir of packages) {
  if (!existsSync(path.join(dir, 'dist'))) fail(`${path.relative(root, dir)} has no dist/: build first (npx -y pnpm@10.34.9 build)`);
  if (quickBuilt(path.basename(dir)))
    fail(`${path.relative(root, dir)}/dist/ holds the demo's quick build (ESM only, no type declarations): build first (npx -y pnpm@10.34.9 build)`);
}

// Under pnpm (`pnpm pack-all`) run that same pnpm; from plain node, the version the workspace pins.
const pinned = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).packageManager;
const execPath = process.env.npm_execpath ?? '';
const [command, ...prefix] = /pnpm/.test(path.basename(execPath)) ? [process.execPath, execPath] : ['npx', '--prefer-offline', '-y', pinned];

mkdirSync(out, { recursive: true });
for (const name of readdirSync(out)) if (name.endsWith('.tgz')) rmSync(path.join(out, name));
try {
  execFileSync(command, [...prefix, '-r', '--filter', './packages/**', 'pack', '--pack-destination', out], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 300_000,
  });
} catch (error) {
  fail(`pnpm pack failed: ${error.stderr?.toString() || error.message}`);
}

const tarballs = readdirSync(out)
  .filter((name) => name.endsWith('.tgz'))
  .sort();
if (tarballs.length !== packages.length) fail(`expected ${packages.length} tarballs in ${out}, found ${tarballs.length}`);
for (const name of tarballs) {
  const manifest = execFileSync('tar', ['-xzOf', path.join(out, name), 'package/package.json'], { encoding: 'utf8' });
  if (manifest.includes('workspace:')) fail(`${name} still has a workspace: range; npm would refuse to install it`);
  console.log(path.join(out, name));
}
