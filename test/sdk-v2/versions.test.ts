/**
 * The SDK v2 the suite runs against is the oldest that `@skillmount/core` supports: the lower
 * bound of core's optional peer range for `@modelcontextprotocol/server` is the version installed
 * for the tests, so every test of the SDK v2 path judges the oldest supported release (a newer
 * one is tested once it is added beside it). That release has the Skills extension.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const REPO = path.resolve(import.meta.dirname, '../..');
const SDK_V2 = '@modelcontextprotocol/server';
const json = (file: string) => JSON.parse(readFileSync(file, 'utf8'));
const core = json(path.join(REPO, 'packages/core/package.json'));
// The copy core's dev dependency links (its exports have no ./package.json to resolve).
const installed = json(path.join(REPO, 'packages/core/node_modules', SDK_V2, 'package.json'));

test("core's optional peer range for the SDK v2 starts at the version the tests run against", () => {
  const range: string = core.peerDependencies?.[SDK_V2];
  const lower = /^\^(\d+\.\d+\.\d+)$/.exec(range ?? '')?.[1];
  assert.ok(lower, `packages/core/package.json peerDependencies["${SDK_V2}"] is ${JSON.stringify(range)}: expected ^<major.minor.patch>`);
  assert.equal(core.peerDependenciesMeta?.[SDK_V2]?.optional, true, 'the SDK v2 is an optional peer: apps on the SDK v1 install nothing of it');
  assert.equal(
    installed.version,
    lower,
    `the tests run against ${SDK_V2} ${installed.version}, but core supports it from ${lower}: ` +
      `pin the dev dependency (root and packages/core) to ${lower}, or raise the range and docs/guide/sdk-v2.md's versions together`,
  );
  assert.equal(core.devDependencies?.[SDK_V2], lower, `packages/core/package.json devDependencies["${SDK_V2}"] pins the lower bound`);
  assert.equal(json(path.join(REPO, 'package.json')).devDependencies?.[SDK_V2], lower, `the root package.json devDependencies["${SDK_V2}"] pins it too`);
});

test('the oldest supported SDK v2 has the Skills extension the sdk-v2 subpath plugs into', () => {
  assert.ok(installed.exports?.['./ext/skills'], `${SDK_V2} ${installed.version} exports no ./ext/skills`);
});

test('docs/guide/sdk-v2.md names the peer range and the tested version', () => {
  const page = readFileSync(path.join(REPO, 'docs/guide/sdk-v2.md'), 'utf8');
  assert.ok(page.includes(`(\`${core.peerDependencies[SDK_V2]}\`)`), 'the page names the peer range');
  assert.ok(page.includes(`The test suite runs against ${installed.version}`), 'the page names the tested version');
});
