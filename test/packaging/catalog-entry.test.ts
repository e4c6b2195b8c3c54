/**
 * `@skillmount/core/catalog` and the storage packages load without the MCP SDK and the serving
 * code: what a host or a tool that only builds or checks catalogs pays at start. Checked by what
 * Node really loads, in both module systems: CommonJS's `require.cache`, and for ESM a resolve hook
 * (`module.register`) that records every URL resolved.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from '../support/trees.js';

const root = path.resolve(import.meta.dirname, '../..');
const node = (args: string[]) => execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8' }).trim();
const inPackage = (names: string) => new RegExp(`node_modules/(\\.pnpm/[^/]+/node_modules/)?(${names})/`);
/** Only the serving side needs these: the SDK v1 (and v2), the HTTP server and validator it brings, archives. */
const SERVING = inPackage('@modelcontextprotocol|hono|@hono|ajv|fflate|fresh');
/** The protocol's zod schemas: serving too, but storage-s3 reads its manifest with zod of its own. */
const ZOD = inPackage('zod');
const LEAN = ['@skillmount/core/catalog', '@skillmount/storage-fs', '@skillmount/storage-postgres'];

/** Every file `require()` of `entries` loaded. */
const required = (entries: string[]): string[] =>
  JSON.parse(
    node(['--input-type=commonjs', '-e', `${JSON.stringify(entries)}.forEach((e) => require(e)); console.log(JSON.stringify(Object.keys(require.cache)))`]),
  );

/** Every URL `import()` of `entries` resolved, recorded by a resolve hook. */
function imported(entries: string[]): string[] {
  const tmp = tempDir('skillmount-catalog-entry-');
  try {
    const log = path.join(tmp.dir, 'resolved.txt');
    const hooks = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, result.url + '\\n');
  return result;
}`;
    const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;
    node([
      '--import',
      `data:text/javascript,${encodeURIComponent(register)}`,
      '--input-type=module',
      '-e',
      `await Promise.all(${JSON.stringify(entries)}.map((e) => import(e)));`,
    ]);
    return readFileSync(log, 'utf8').trim().split('\n');
  } finally {
    tmp.remove();
  }
}

for (const [system, load] of [
  ['require()', required],
  ['import()', imported],
] as const) {
  test(`${system}: the catalog entry, storage-fs and storage-postgres load no serving module and no zod`, () => {
    const files = load(LEAN);
    assert.ok(
      files.some((f) => /\/packages\/core\/dist\/catalog\.c?js$/.test(f)),
      'the catalog entry itself was loaded',
    );
    assert.deepEqual(
      files.filter((f) => SERVING.test(f) || ZOD.test(f)),
      [],
    );
  });

  test(`${system}: storage-s3 loads no serving module`, () => {
    assert.deepEqual(
      load(['@skillmount/storage-s3']).filter((f) => SERVING.test(f)),
      [],
    );
  });

  test(`${system}: the check would see them: the root entry loads the SDK v1 and zod`, () => {
    const files = load(['@skillmount/core']);
    assert.ok(files.some((f) => SERVING.test(f) && f.includes('@modelcontextprotocol/sdk/')));
    assert.ok(files.some((f) => ZOD.test(f)));
  });
}

test('its values are the root entry’s own, in both module systems, and a catalog loads through it', () => {
  // Every export of the catalog entry against the root's of the same name (esm-cjs.test.ts names the ones it must have).
  const check = `const names = Object.keys(catalog); const differ = names.filter((n) => catalog[n] !== core[n]);
    catalog.SkillCatalog.load(catalog.memoryStorage({ 'demo/SKILL.md': '---\\nname: demo\\ndescription: A demo.\\n---\\nbody' }))
      .then((c) => console.log(JSON.stringify({ exports: names.length, differ, uri: c.entries[0].uri, isCore: c instanceof core.SkillCatalog })));`;
  const expected = { exports: 12, differ: [], uri: 'skill://demo/SKILL.md', isCore: true };
  const cjs = node(['--input-type=commonjs', '-e', `const catalog = require('@skillmount/core/catalog'); const core = require('@skillmount/core'); ${check}`]);
  assert.deepEqual(JSON.parse(cjs), expected);
  const esm = node([
    '--input-type=module',
    '-e',
    `const catalog = await import('@skillmount/core/catalog'); const core = await import('@skillmount/core'); ${check}`,
  ]);
  assert.deepEqual(JSON.parse(esm), expected);
});
