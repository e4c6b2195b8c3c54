import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const dist = path.join(root, 'packages/core/dist');
const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

/** Every module specifier a built file imports, following its own chunks: what loading it loads. */
function importsOf(entry: string, folder = dist): string[] {
  const outside = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(path.join(folder, file), 'utf8');
    const specifiers = [
      ...code.matchAll(/\bfrom\s*["']([^"']+)["']/g),
      ...code.matchAll(/\bimport\s*["']([^"']+)["']/g),
      ...code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g),
      ...code.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g),
    ].map((m) => m[1]!);
    for (const spec of specifiers) {
      if (spec.startsWith('./')) visit(spec.slice(2));
      else outside.add(spec);
    }
  };
  visit(entry);
  return [...outside].sort();
}

for (const entry of ['storage-kit.js', 'storage-kit.cjs']) {
  test(`the storage kit (${entry}) imports nothing but Node built-ins`, () => {
    const specs = importsOf(entry);
    for (const spec of specs) assert.ok(builtins.has(spec), `${entry} imports ${spec}`);
  });
}

test("the folder storage's listing worker is one file with the kit bundled in, importing Node built-ins only", () => {
  const folder = path.join(root, 'packages/storage-fs/dist');
  const code = readFileSync(path.join(folder, 'tree-worker.js'), 'utf8');
  assert.doesNotMatch(code, /from\s*["']\.\//, 'no chunk of its own to load');
  const specs = importsOf('tree-worker.js', folder);
  assert.ok(specs.includes('worker_threads') || specs.includes('node:worker_threads'));
  for (const spec of specs) assert.ok(builtins.has(spec), `tree-worker.js imports ${spec}`);
  // The folder storage itself uses the kit by name: one StorageError for it and the catalog.
  assert.ok(importsOf('index.js', folder).includes('@skillmount/core/storage-kit'));
});

test('the walk sees what the root entry imports (it would catch a dependency)', () => {
  assert.ok(importsOf('index.js').includes('zod'));
  assert.ok(importsOf('index.cjs').includes('zod'));
});

test('require("@skillmount/core/storage-kit") loads files of the kit only, and the root\'s StorageError', () => {
  const out = execFileSync(
    process.execPath,
    [
      '--input-type=commonjs',
      '-e',
      `const kit = require('@skillmount/core/storage-kit');
       const loaded = Object.keys(require.cache);
       const core = require('@skillmount/core');
       console.log(JSON.stringify({ loaded, same: kit.StorageError === core.StorageError, made: kit.storageError({ action: 'cannot read', path: 'a/b.md', reason: 'gone' }) instanceof core.StorageError }));`,
    ],
    { cwd: root, encoding: 'utf8' },
  );
  const { loaded, same, made } = JSON.parse(out) as { loaded: string[]; same: boolean; made: boolean };
  assert.ok(loaded.length > 0);
  for (const file of loaded) assert.ok(file.startsWith(dist + path.sep), `loaded ${file}`);
  assert.equal(same, true, 'one StorageError class in CommonJS');
  assert.equal(made, true);
});

test('import("@skillmount/core/storage-kit") gives the root\'s StorageError', () => {
  const out = execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const kit = await import('@skillmount/core/storage-kit');
       const core = await import('@skillmount/core');
       const error = kit.storageError({ action: 'cannot read', path: '', where: '(s3://b/p/)', reason: 'gone', cause: 1, code: 'x' });
       console.log(JSON.stringify({ same: kit.StorageError === core.StorageError, is: error instanceof core.StorageError, message: error.message, path: error.path, cause: error.cause, code: error.code }));`,
    ],
    { cwd: root, encoding: 'utf8' },
  );
  assert.deepEqual(JSON.parse(out), { same: true, is: true, message: 'cannot read "(root)" (s3://b/p/): gone', path: '', cause: 1, code: 'x' });
});

test('the storage kit exports what storages use, and its types come with it', () => {
  const names = execFileSync(
    process.execPath,
    ['--input-type=module', '-e', `console.log(Object.keys(await import('@skillmount/core/storage-kit')).sort().join(','))`],
    { cwd: root, encoding: 'utf8' },
  ).trim();
  for (const name of [
    'StorageError',
    'storageError',
    'toStorageError',
    'mapLimit',
    'isPlainPath',
    'isPlainSegment',
    'plainPathProblem',
    'plainSegmentProblem',
    'isSkillMdPath',
    'isHiddenPath',
    'skillFoldersIn',
    'isSkillFile',
  ]) {
    assert.ok(names.split(',').includes(name), `missing ${name}`);
  }
  for (const file of ['storage-kit.d.ts', 'storage-kit.d.cts']) assert.match(readFileSync(path.join(dist, file), 'utf8'), /SkillFileListing/);
});
