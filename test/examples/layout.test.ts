/**
 * Every example app under examples/ is set up as its README's "Run it" assumes: a private
 * workspace package on our packages as the workspace builds them, started by `node --import tsx
 * server.ts`, with a README and a test of its own. examples/skills is a folder of skills, not an app.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { EXAMPLES_DIR } from './helpers.js';

const apps = readdirSync(EXAMPLES_DIR).filter((name) => name !== 'skills' && statSync(path.join(EXAMPLES_DIR, name)).isDirectory());

test('examples: each app is a private workspace package with a start script, a README and a test', () => {
  assert.deepEqual(apps.sort(), ['express-oauth', 'fastify-existing-route', 'fastify-oauth', 'postgres-tenants', 's3-replicas']);
  for (const name of apps) {
    const dir = path.join(EXAMPLES_DIR, name);
    const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
      private?: boolean;
      scripts?: Record<string, string>;
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    assert.equal(manifest.private, true, `examples/${name}/package.json: "private": true, so it is never published`);
    assert.equal(manifest.scripts?.start, 'node --import tsx server.ts', `examples/${name}: the start script`);
    assert.ok(existsSync(path.join(dir, 'server.ts')), `examples/${name}/server.ts`);
    assert.ok(manifest.devDependencies?.tsx, `examples/${name}: tsx, which the start script loads, is a devDependency`);
    for (const [dependency, range] of Object.entries({ ...manifest.dependencies, ...manifest.devDependencies })) {
      if (dependency.startsWith('@skillmount/') || dependency === 'skillmount') {
        assert.equal(range, 'workspace:*', `examples/${name}: ${dependency} is the workspace's own`);
      }
    }
    const readme = readFileSync(path.join(dir, 'README.md'), 'utf8');
    for (const section of ['## Run it', '## What to expect']) assert.ok(readme.includes(section), `examples/${name}/README.md has "${section}"`);
    assert.ok(existsSync(path.resolve(EXAMPLES_DIR, `../test/examples/${name}.test.ts`)), `test/examples/${name}.test.ts`);
  }
});
