import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const script = path.join(root, 'scripts/versions.mjs');
const versions = (...args: string[]) => spawnSync(process.execPath, [script, ...args], { encoding: 'utf8' });

/** The files the check reads, copied from this checkout into a scratch folder. */
function copyOfCheckout(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'skillmount-versions-'));
  for (const file of ['LICENSE', 'CHANGELOG.md', 'packages/core/src/version.ts']) cpSync(path.join(root, file), path.join(dir, file));
  for (const name of readdirSync(path.join(root, 'packages'))) {
    for (const file of ['package.json', 'LICENSE']) cpSync(path.join(root, 'packages', name, file), path.join(dir, 'packages', name, file));
  }
  return dir;
}

test('every package is at one version, with what npm publish needs', () => {
  const result = versions();
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /7 packages at \d+\.\d+\.\d+, ready to publish/);
});

test('a package out of step, a pinned internal range or a missing field is named', () => {
  const dir = copyOfCheckout();
  try {
    const file = path.join(dir, 'packages/fastify/package.json');
    const json = JSON.parse(readFileSync(file, 'utf8'));
    json.version = '9.9.9';
    json.dependencies['@skillmount/core'] = '0.1.0';
    delete json.publishConfig;
    writeFileSync(file, JSON.stringify(json));
    const result = versions('--root', dir);
    assert.equal(result.status, 1);
    assert.match(result.stderr, /packages\/fastify\/package\.json: version 9\.9\.9, but @skillmount\/core is/);
    assert.match(result.stderr, /dependencies\.@skillmount\/core is "0\.1\.0"; use "workspace:\^"/);
    assert.match(result.stderr, /publishConfig\.access must be "public"/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('set moves every package and core VERSION together; the check then wants a CHANGELOG section', () => {
  const dir = copyOfCheckout();
  try {
    assert.equal(versions('--root', dir, 'set', '7.8.9').status, 0);
    for (const name of readdirSync(path.join(dir, 'packages'))) {
      assert.equal(JSON.parse(readFileSync(path.join(dir, 'packages', name, 'package.json'), 'utf8')).version, '7.8.9', name);
    }
    assert.match(readFileSync(path.join(dir, 'packages/core/src/version.ts'), 'utf8'), /VERSION = '7\.8\.9'/);
    const missing = versions('--root', dir);
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /CHANGELOG\.md has no "## 7\.8\.9" section/);
    writeFileSync(path.join(dir, 'CHANGELOG.md'), '# Changelog\n\n## 7.8.9\n');
    assert.equal(versions('--root', dir).status, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
