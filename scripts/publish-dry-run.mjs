#!/usr/bin/env node
// What a release would publish: packs every package as scripts/pack-all.mjs does (`workspace:`
// ranges rewritten to versions), runs `npm publish --dry-run` on each tarball, and prints each
// package's files with their sizes. Exits 1 when a package's dry run fails (npm's output is shown)
// or when a dist/ is missing or older than its sources (build first: npx -y pnpm@10.34.9 build).
// Usage: node scripts/publish-dry-run.mjs [folder]   (the tarballs are kept there; default: a temporary folder)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const kept = process.argv[2] !== undefined;
const out = kept ? path.resolve(process.argv[2]) : mkdtempSync(path.join(tmpdir(), 'skillmount-publish-'));
const cleanUp = () => kept || rmSync(out, { recursive: true, force: true });
const fail = (message) => {
  console.error(`publish-dry-run: ${message}`);
  cleanUp();
  process.exit(1);
};

const fresh = spawnSync(process.execPath, [path.join(root, 'scripts/dist-fresh.mjs')], { cwd: root, encoding: 'utf8' });
if (fresh.status !== 0) fail(`${fresh.stderr.trim().replace(/: building$/, '')}: build first (npx -y pnpm@10.34.9 build)`);

const packed = spawnSync(process.execPath, [path.join(root, 'scripts/pack-all.mjs'), out], { cwd: root, encoding: 'utf8' });
if (packed.status !== 0) fail(`packing failed:\n${packed.stderr}`);
const tarballs = packed.stdout.trim().split('\n');

const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
const failed = [];
for (const tarball of tarballs) {
  // --json: npm's own account of the tarball (files and sizes), printed here in one shape.
  const npm = spawnSync('npm', ['publish', '--dry-run', '--json', tarball], { cwd: out, encoding: 'utf8', shell: process.platform === 'win32' });
  let report;
  try {
    report = Object.values(JSON.parse(npm.stdout))[0];
  } catch {
    // No JSON: npm failed before it could describe the tarball.
  }
  if (npm.status !== 0 || report?.files === undefined) {
    failed.push(path.basename(tarball));
    console.error(`\n${path.basename(tarball)}: npm publish --dry-run failed (exit code ${npm.status}):\n${npm.stderr}${npm.stdout}`);
    continue;
  }
  console.log(`\n${report.id}  ${report.filename}: ${report.files.length} files, ${kB(report.size)} packed, ${kB(report.unpackedSize)} unpacked`);
  for (const file of report.files) console.log(`${kB(file.size).padStart(10)}  ${file.path}`);
}

if (failed.length > 0) fail(`the dry run failed for ${failed.join(', ')} (see above)`);
console.log(`\n${tarballs.length} packages would publish${kept ? `; their tarballs are in ${out}` : ''}`);
cleanUp();
