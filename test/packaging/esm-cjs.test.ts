import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const run = (code: string, type: 'module' | 'commonjs') =>
  execFileSync(process.execPath, [`--input-type=${type}`, '-e', code], { cwd: root, encoding: 'utf8' }).trim();

// What each package must export by name, from both module systems.
const EXPORTS: Record<string, string[]> = {
  '@skillmount/core/client': [
    'SkillsClient',
    'SkillVerificationError',
    'OptionError',
    'serverSupportsSkills',
    'skillsCapability',
    'skillsCapabilityOf',
    'checkTrustedKeys',
  ],
  '@skillmount/core/catalog': [
    'SkillCatalog',
    'memoryStorage',
    'CatalogError',
    'SkillNotFoundError',
    'StorageError',
    'OptionError',
    'consoleWarning',
    'sha256Digest',
    'escapeControls',
  ],
  '@skillmount/core/storage-kit': ['StorageError', 'storageError', 'mapLimit', 'isPlainPath', 'isSkillMdPath', 'isSkillFile'],
  '@skillmount/core/adapter': ['checkAdapterOptions', 'createRequestGuard', 'hideInternalErrors', 'sendError', 'discardBody', 'contextOfRequest'],
  '@skillmount/core/sdk-v2': ['sdkV2Source', 'sdkV2Skills', 'notifyListChanges', 'skillsInstructions'],
  '@skillmount/core': [
    'serverSupportsSkills',
    'skillsCapability',
    'SkillCatalog',
    'attach',
    'memoryStorage',
    'createSkillsEndpoint',
    'createWellKnownHandler',
    'buildSkillEntry',
    'runWithSkillContext',
    'OptionError',
    'checkTrustedKeys',
  ],
  '@skillmount/storage-fs': ['fsStorage'],
  '@skillmount/storage-postgres': ['postgresStorage', 'migrate'],
  '@skillmount/storage-s3': ['s3Storage'],
  '@skillmount/fastify': ['skillsPlugin', 'default'],
  '@skillmount/express': ['skillsMiddleware'],
  skillmount: ['main'],
};

for (const [name, names] of Object.entries(EXPORTS)) {
  test(`${name} loads with import and with require`, () => {
    const list = JSON.stringify(names);
    const esm = run(`const m = await import('${name}'); console.log(${list}.filter((n) => typeof m[n] !== 'function').join(','))`, 'module');
    const cjs = run(`const m = require('${name}'); console.log(${list}.filter((n) => typeof m[n] !== 'function').join(','))`, 'commonjs');
    assert.equal(esm, '', `missing from the ESM build: ${esm}`);
    assert.equal(cjs, '', `missing from the CommonJS build: ${cjs}`);
  });
}

test('neither @skillmount/core nor @skillmount/core/sdk-v2 loads the SDK v2 (an optional peer) when imported', () => {
  const loaded = run(
    `require('@skillmount/core'); require('@skillmount/core/sdk-v2');
     console.log(Object.keys(require.cache).filter((f) => f.includes('@modelcontextprotocol/server')).length)`,
    'commonjs',
  );
  assert.equal(loaded, '0', 'modules of @modelcontextprotocol/server in require.cache');
  // The ESM build shares chunks with the CommonJS one's sources: no built file names the SDK v2 at all.
  const named = run(
    `const fs = require('node:fs'); const dir = 'packages/core/dist';
     console.log(fs.readdirSync(dir).filter((f) => /\\.(c?js)$/.test(f) && fs.readFileSync(dir + '/' + f, 'utf8').includes('@modelcontextprotocol/server')).join(','))`,
    'commonjs',
  );
  assert.equal(named, '', 'built files of @skillmount/core that import @modelcontextprotocol/server');
});

test('a catalog built through require() works end to end', () => {
  const out = run(
    `const { SkillCatalog, memoryStorage } = require('@skillmount/core');
     SkillCatalog.load(memoryStorage({ 'demo/SKILL.md': '---\\nname: demo\\ndescription: A demo.\\n---\\nbody' }))
       .then((c) => console.log(c.entries[0].uri));`,
    'commonjs',
  );
  assert.equal(out, 'skill://demo/SKILL.md');
});

test('the skillmount command is linked at the repository root', () => {
  const out = execFileSync(path.join(root, 'node_modules/.bin/skillmount'), ['check', 'examples/skills'], { cwd: root, encoding: 'utf8' });
  assert.match(out, /3 skills valid, 0 problems/);
});
