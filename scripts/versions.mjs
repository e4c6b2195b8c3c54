#!/usr/bin/env node
// Every package is released together, under one version. This checks that they are ready to
// publish and in step, or moves them all to a new version.
//   node scripts/versions.mjs            check: one version everywhere (package.json files and
//                                        core's VERSION), ranges between our packages are
//                                        `workspace:^`, the fields npm publish needs, a LICENSE
//                                        equal to the root one, a CHANGELOG.md section
//   node scripts/versions.mjs set 0.2.0  write 0.2.0 into every package and core's VERSION
//   --root <dir>                         a checkout other than this one (for the tests)
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const rootAt = args.indexOf('--root');
const root = rootAt === -1 ? path.resolve(import.meta.dirname, '..') : path.resolve(args.splice(rootAt, 2)[1]);
const VERSION_FILE = 'packages/core/src/version.ts';
const VERSION_LINE = /export const VERSION = '([^']*)';/;
const SEMVER = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;

const dirs = readdirSync(path.join(root, 'packages'))
  .sort()
  .map((name) => `packages/${name}`);
const read = (file) => readFileSync(path.join(root, file), 'utf8');
const manifests = dirs.map((dir) => ({ dir, file: `${dir}/package.json`, json: JSON.parse(read(`${dir}/package.json`)) }));
const ours = new Set(manifests.map((m) => m.json.name));

if (args[0] === 'set') {
  const next = args[1];
  if (!next || !SEMVER.test(next)) {
    console.error(`versions: "set" wants a version like 0.2.0, got "${next ?? ''}"`);
    process.exit(2);
  }
  for (const { file } of manifests) {
    // Text replacement keeps each file's own layout.
    writeFileSync(path.join(root, file), read(file).replace(/("version":\s*)"[^"]*"/, `$1"${next}"`));
  }
  writeFileSync(path.join(root, VERSION_FILE), read(VERSION_FILE).replace(VERSION_LINE, `export const VERSION = '${next}';`));
  console.log(`every package is now ${next}; add a "## ${next}" section to CHANGELOG.md, then build and run the tests`);
  process.exit(0);
}
if (args.length > 0) {
  console.error(`versions: unknown arguments "${args.join(' ')}"; use no argument to check, or "set <version>"`);
  process.exit(2);
}

const problems = [];
const version = manifests.find((m) => m.json.name === '@skillmount/core')?.json.version;
const license = read('LICENSE');
for (const { dir, file, json } of manifests) {
  if (json.version !== version)
    problems.push(`${file}: version ${json.version}, but @skillmount/core is ${version}; run "node scripts/versions.mjs set <version>"`);
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
    for (const [name, range] of Object.entries(json[field] ?? {})) {
      if (ours.has(name) && range !== 'workspace:^') problems.push(`${file}: ${field}.${name} is "${range}"; use "workspace:^" so packing writes ^${version}`);
    }
  }
  const missing = ['description', 'license', 'repository', 'engines', 'files', 'exports', 'types'].filter((key) => json[key] === undefined);
  if (missing.length) problems.push(`${file}: no ${missing.join(', ')}; npm publish and users need them`);
  if (json.publishConfig?.access !== 'public') problems.push(`${file}: publishConfig.access must be "public" (a scoped package is private by default)`);
  if (json.repository?.directory !== dir) problems.push(`${file}: repository.directory must be "${dir}"`);
  if (!json.files?.includes('LICENSE')) problems.push(`${file}: "files" must include LICENSE`);
  if (!existsSync(path.join(root, dir, 'LICENSE')) || read(`${dir}/LICENSE`) !== license) problems.push(`${dir}/LICENSE must be a copy of the root LICENSE`);
}
const code = read(VERSION_FILE).match(VERSION_LINE)?.[1];
if (code !== version)
  problems.push(`${VERSION_FILE}: VERSION is ${code ?? 'missing'}, the packages are ${version}; run "node scripts/versions.mjs set ${version}"`);
if (
  !existsSync(path.join(root, 'CHANGELOG.md')) ||
  !read('CHANGELOG.md')
    .split('\n')
    .some((line) => line.startsWith(`## ${version}`))
) {
  problems.push(`CHANGELOG.md has no "## ${version}" section`);
}

if (problems.length) {
  console.error(`versions: ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  process.exit(1);
}
console.log(`versions: ${manifests.length} packages at ${version}, ready to publish`);
