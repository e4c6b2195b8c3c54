/**
 * The import-boundary check (`pnpm check:imports`, dependency-cruiser with .dependency-cruiser.cjs)
 * passes on the workspace and fails, naming the rule, on a tree with a wrong import: a fixture
 * copy of core's layout under .tmp/ where the host-side client imports a catalog module, a core
 * module imports a web framework, and skillmd imports protocol back (a layer and a folder cycle).
 * The fixture sits inside the repository so the config resolves its own requires (typescript)
 * from the workspace's node_modules.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const depcruise = path.join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

function check(cwd: string) {
  return spawnSync(process.execPath, [depcruise, '--config', '.dependency-cruiser.cjs', '--output-type', 'err-long', 'packages'], { cwd, encoding: 'utf8' });
}

test('the workspace keeps its import boundaries', () => {
  const result = check(root);
  assert.equal(result.status, 0, result.stdout + result.stderr);
  assert.match(result.stdout, /no dependency violations found/);
});

test('a wrong import fails the check with the rule that forbids it and why', (t) => {
  mkdirSync(path.join(root, '.tmp'), { recursive: true });
  const fixture = mkdtempSync(path.join(root, '.tmp/import-boundaries-'));
  t.after(() => rmSync(fixture, { recursive: true, force: true }));
  for (const file of ['.dependency-cruiser.cjs', 'tsconfig.imports.json', 'tsconfig.base.json']) copyFileSync(path.join(root, file), path.join(fixture, file));
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(fixture, file)), { recursive: true });
    writeFileSync(path.join(fixture, file), text);
  };
  write('packages/core/src/catalog/catalog.ts', 'export const load = () => 1;\n');
  write('packages/core/src/client/skills-client.ts', "import { load } from '../catalog/catalog.js';\nexport const list = () => load();\n");
  write('packages/core/src/http/endpoint.ts', "import express from 'express';\nexport const app = () => express();\n");
  // skillmd sits below protocol: importing it back is a layer violation and a cycle between the two folders.
  write('packages/core/src/protocol/limits.ts', "import { MAX_NAME } from '../skillmd/limits.js';\nexport const LIMITS = { name: MAX_NAME };\n");
  write('packages/core/src/skillmd/limits.ts', 'export const MAX_NAME = 64;\n');
  write(
    'packages/core/src/skillmd/rules.ts',
    "import { LIMITS } from '../protocol/limits.js';\nexport const ok = (name: string) => name.length <= LIMITS.name;\n",
  );
  // The SDK v2 is an optional peer: named only behind @skillmount/core/sdk-v2, and there for its types only.
  write(
    'packages/core/src/server/v2.ts',
    "import { McpServer } from '@modelcontextprotocol/server';\nexport const server = () => new McpServer({ name: 'x', version: '1' });\n",
  );
  write(
    'packages/core/src/sdk-v2/index.ts',
    "import { SkillsExtension } from '@modelcontextprotocol/server/ext/skills';\nexport const Extension = SkillsExtension;\n",
  );
  const result = check(fixture);
  assert.notEqual(result.status, 0, 'the check fails');
  assert.match(result.stdout, /error core-layer-skillmd: packages\/core\/src\/skillmd\/rules\.ts → packages\/core\/src\/protocol\/limits\.ts/);
  // Each layer's violation carries that layer's own reason, not another layer's.
  assert.match(result.stdout, /Layer "skillmd" \(skillmd\/: the Agent Skills file format/);
  assert.match(result.stdout, /error no-folder-cycle: packages\/core\/src\/protocol →\s+packages\/core\/src\/skillmd/);
  assert.match(result.stdout, /error client-imports-shared-only: packages\/core\/src\/client\/skills-client\.ts → packages\/core\/src\/catalog\/catalog\.ts/);
  assert.match(result.stdout, /error core-no-http-framework: packages\/core\/src\/http\/endpoint\.ts → .*express/);
  assert.match(result.stdout, /error sdk-v2-only-behind-its-entry-point: packages\/core\/src\/server\/v2\.ts → .*@modelcontextprotocol\/server/);
  assert.match(result.stdout, /error sdk-v2-types-only: packages\/core\/src\/sdk-v2\/index\.ts → .*@modelcontextprotocol\/server\/dist\/ext\/skills/);
  assert.match(result.stdout, /The SkillsClient \(core\/src\/client, @skillmount\/core\/client\) runs in hosts\s+and browsers/, 'the rule says why');
});
