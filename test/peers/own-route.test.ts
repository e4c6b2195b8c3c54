/**
 * MCP Inspector's CLI (`skills/list --verify`, both protocol eras) against the documentation's own-route
 * examples, run as written: every skill and file verified, with sessions and stateless. Before
 * the examples answered GET, the legacy era reported "Verified 0 skills" and still exited 0.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { type DocApp, exampleLocation, startDocExample } from '../support/doc-example.js';
import { INSPECTOR_CLI, ensureSuite } from './support/conformance.js';

const run = promisify(execFile);

let node: string;
before(
  async () => {
    node = await ensureSuite();
  },
  { timeout: 660_000 },
);

for (const pkg of ['fastify', 'express'] as const) {
  for (const file of ['own-route.mjs', 'own-route-sessions.mjs']) {
    describe(`MCP Inspector CLI against ${exampleLocation(pkg, file)}`, () => {
      let app: DocApp;
      before(async () => {
        app = await startDocExample(pkg, file);
      });
      after(() => app?.stop());

      for (const era of ['legacy', 'modern'] as const) {
        test(`skills/list --verify --protocol-era ${era}: 3 skills and 11 files verified`, { timeout: 90_000 }, async () => {
          const args = [INSPECTOR_CLI, '--cli', app.url, '--method', 'skills/list', '--verify', '--protocol-era', era];
          const { stdout, stderr } = await run(node, args, { timeout: 80_000, maxBuffer: 16 << 20, env: { ...process.env, NO_COLOR: '1' } }).catch((error) => {
            throw new Error(`inspector --protocol-era ${era} failed (exit ${error.code}):\n${error.stdout}\n${error.stderr}`);
          });
          assert.match(`${stdout}\n${stderr}`, /Verified 3 skills and 11 files: no conformance errors\./);
        });
      }
    });
  }
}
