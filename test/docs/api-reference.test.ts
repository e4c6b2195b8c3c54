import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exampleProblems, writeExamples } from './examples.js';
import { ENTRY_POINTS, publicApi } from './public-api.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const api = publicApi();

// The reference itself is generated (TypeDoc warnings fail it) and link-checked by test/docs/site.test.ts,
// whose site build runs scripts/docs-api.mjs; generating it here too would cost a second TypeDoc run.

test('the generator refuses a folder it did not make, and leaves it as it was (TypeDoc empties its output first)', (t) => {
  const folder = mkdtempSync(path.join(tmpdir(), 'skillmount-site-'));
  t.after(() => rmSync(folder, { recursive: true, force: true }));
  writeFileSync(path.join(folder, 'index.md'), '# The site\n');
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts/docs-api.mjs'), folder], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stderr, /holds files this script did not generate/);
  assert.deepEqual(readdirSync(folder), ['index.md']);
});

test('the public API is found: every package entry point with its functions and classes', () => {
  const names = new Set(api.map((item) => item.name));
  for (const name of ['@skillmount/core#SkillCatalog', '@skillmount/core/client#SkillsClient', '@skillmount/fastify#skillsPlugin', 'skillmount#main']) {
    assert.ok(names.has(name), `${name} is not among the ${names.size} items read from the entry points`);
  }
});

test('every entry point a package exports is documented: in the reference (typedoc.json) and in these checks', () => {
  const exported: string[] = [];
  for (const dir of readdirSync(path.join(ROOT, 'packages'))) {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'packages', dir, 'package.json'), 'utf8'));
    for (const subpath of Object.keys(manifest.exports ?? {})) {
      if (subpath !== './package.json') exported.push(subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`);
    }
  }
  assert.deepEqual(Object.keys(ENTRY_POINTS).sort(), exported.sort(), 'test/docs/public-api.ts ENTRY_POINTS names every export, and nothing else');
  const typedoc = readFileSync(path.join(ROOT, 'typedoc.json'), 'utf8');
  for (const [name, source] of Object.entries(ENTRY_POINTS)) assert.ok(typedoc.includes(`"${source}"`), `typedoc.json lists ${source} (${name})`);
});

// CONTRIBUTING.md: every exported function and class has an @example and a @throws (which says
// "Nothing" with the reason when nothing is thrown), so a reader never has to guess.
test('every exported function and class has @example and @throws', () => {
  const missing = api
    .filter((item) => item.kind !== 'method')
    .flatMap((item) => ['example', 'throws'].filter((tag) => !item.tags.has(tag)).map((tag) => `${item.name} (${item.at}): no @${tag}`));
  assert.deepEqual(missing, [], `add the tags to the doc comments:\n${missing.join('\n')}`);
});

test('every public class method that throws says so with @throws', () => {
  const missing = api.filter((item) => item.kind === 'method' && item.throwsDirectly && !item.tags.has('throws'));
  assert.deepEqual(
    missing.map((item) => `${item.name} (${item.at})`),
    [],
    'these methods have a throw statement and no @throws',
  );
});

test('every @example holds a TypeScript code block', () => {
  const withoutCode = api.filter((item) => item.tags.has('example') && !/```ts\n/.test((item.tags.get('example') ?? []).join('\n')));
  assert.deepEqual(
    withoutCode.map((item) => `${item.name} (${item.at})`),
    [],
    'an @example holds a ```ts fenced block',
  );
});

test('every @example compiles against the built packages', (t) => {
  // Inside the repository (.tmp/ is ignored), so `@skillmount/*` resolves to the workspace's packages.
  mkdirSync(path.join(ROOT, 'test/docs/.tmp'), { recursive: true });
  const dir = mkdtempSync(path.join(ROOT, 'test/docs/.tmp/examples-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const files = writeExamples(api, dir);
  const problems = exampleProblems(files);
  assert.deepEqual(problems, [], `fix the examples:\n${problems.join('\n')}`);
  assert.ok(files.length >= api.filter((item) => item.kind !== 'method').length, `only ${files.length} example blocks found`);
});
