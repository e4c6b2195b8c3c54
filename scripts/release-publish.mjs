#!/usr/bin/env node
// Publishes every package whose version the npm registry does not have yet, then tags it
// (`<name>@<version>`): the release workflow runs it (`pnpm release:publish`, which builds first)
// on each push to main where no changeset is pending. `changeset publish` runs `pnpm publish`,
// which rewrites the `workspace:^` ranges between our packages into `^<version>`; the workflow sets
// NPM_CONFIG_PROVENANCE=true so npm attaches a provenance attestation to each package.
// Held back, exiting 0, while CHANGELOG.md marks the packages' version "(not yet published)":
// the mark is removed in the pull request that readies that version.
// Usage: node scripts/release-publish.mjs [--root <dir>]   (--root: a checkout other than this one)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const here = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const rootAt = args.indexOf('--root');
const root = rootAt === -1 ? here : path.resolve(args.splice(rootAt, 2)[1]);
if (args.length > 0) {
  console.error(`release-publish: unknown arguments "${args.join(' ')}"; the only option is --root <dir>`);
  process.exit(2);
}

const version = JSON.parse(readFileSync(path.join(root, 'packages/core/package.json'), 'utf8')).version;
const escaped = version.replace(/\./g, '\\.');
if (new RegExp(`^## ${escaped} \\(not yet published\\)`, 'm').test(readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8'))) {
  console.log(`release-publish: CHANGELOG.md marks ${version} "(not yet published)"; not publishing. Remove the mark to publish ${version}.`);
  process.exit(0);
}

const steps = [
  [path.join(here, 'scripts/versions.mjs'), '--root', root],
  [path.join(here, 'node_modules/@changesets/cli/bin.js'), 'publish'],
];
for (const step of steps) {
  try {
    // Inherited output: the release workflow reads changeset's "New tag:" lines to make releases.
    execFileSync(process.execPath, step, { cwd: root, stdio: 'inherit', timeout: 1_800_000 });
  } catch {
    console.error(`release-publish: "${path.basename(step[0])} ${step.slice(1).join(' ')}" failed (its output is above); nothing after it ran`);
    process.exit(1);
  }
}
