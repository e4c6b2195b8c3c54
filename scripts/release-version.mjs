#!/usr/bin/env node
// Turns the pending changesets (.changeset/*.md) into a release: the release workflow runs it
// (`pnpm release:version`) and opens a pull request with what it changed.
//   1. `changeset version`: every package to the new version (one `fixed` group, so one version),
//      each package's CHANGELOG.md gets the changesets' summaries, the changeset files go.
//   2. core's VERSION follows (`node scripts/versions.mjs set <version>`).
//   3. The root CHANGELOG.md, the full record: the lines under "## Unreleased" move under a new
//      "## <version> (<date>)" heading, and "## Unreleased" starts empty. With no such lines, the
//      changesets' summaries are the section.
//   4. `node scripts/versions.mjs` checks the result.
// Usage: node scripts/release-version.mjs [--root <dir>]   (--root: a checkout other than this one)
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const here = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const rootAt = args.indexOf('--root');
const root = rootAt === -1 ? here : path.resolve(args.splice(rootAt, 2)[1]);
if (args.length > 0) fail(`unknown arguments "${args.join(' ')}"; the only option is --root <dir>`);

function fail(message) {
  console.error(`release-version: ${message}`);
  process.exit(1);
}

/** Run a script of this checkout with `root` as its working folder; its errors (and output, unless `quiet`) are ours. */
function run(quiet, script, ...scriptArgs) {
  try {
    execFileSync(process.execPath, [script, ...scriptArgs], { cwd: root, stdio: ['ignore', quiet ? 'ignore' : 'inherit', 'inherit'], timeout: 120_000 });
  } catch {
    fail(`"${path.basename(script)} ${scriptArgs.join(' ')}" failed in ${root} (its output is above)`);
  }
}

/** The summaries of the pending changesets: the text after each file's front matter. */
function pendingSummaries() {
  const dir = path.join(root, '.changeset');
  if (!existsSync(dir)) fail(`${dir} is missing: the changesets configuration lives there`);
  return readdirSync(dir)
    .filter((name) => name.endsWith('.md') && name !== 'README.md')
    .sort()
    .map((name) =>
      readFileSync(path.join(dir, name), 'utf8')
        .replace(/^---\n[\s\S]*?\n---\n/, '')
        .trim(),
    )
    .filter(Boolean);
}

/** CHANGELOG.md with the Unreleased lines (or `summaries`) under a heading for `version`. */
function releaseChangelog(text, version, summaries) {
  const heading = /^## Unreleased[^\n]*\n/m.exec(text);
  if (!heading) fail('CHANGELOG.md has no "## Unreleased" heading; add one above the newest release');
  const start = heading.index + heading[0].length;
  const next = text.slice(start).search(/^## /m);
  const end = next === -1 ? text.length : start + next;
  const unreleased = text.slice(start, end).trim();
  const lines = unreleased || summaries.map((summary) => `- ${summary.replace(/\n/g, '\n  ')}`).join('\n');
  const date = new Date().toISOString().slice(0, 10);
  return `${text.slice(0, start)}\n## ${version} (${date})\n\n${lines}\n\n${text.slice(end)}`;
}

const summaries = pendingSummaries();
if (summaries.length === 0) {
  console.log('release-version: no pending changesets in .changeset/; nothing to release');
  process.exit(0);
}
const coreManifest = path.join(root, 'packages/core/package.json');
const before = JSON.parse(readFileSync(coreManifest, 'utf8')).version;
run(false, path.join(here, 'node_modules/@changesets/cli/bin.js'), 'version');
const version = JSON.parse(readFileSync(coreManifest, 'utf8')).version;
if (version === before) fail(`changeset version left @skillmount/core at ${before}; check the changesets' front matter`);
// Quiet: its advice to add a CHANGELOG section is what the next step does.
run(true, path.join(here, 'scripts/versions.mjs'), '--root', root, 'set', version);
const changelog = path.join(root, 'CHANGELOG.md');
writeFileSync(changelog, releaseChangelog(readFileSync(changelog, 'utf8'), version, summaries));
run(false, path.join(here, 'scripts/versions.mjs'), '--root', root);
console.log(`release-version: every package is at ${version}; CHANGELOG.md has its section`);
