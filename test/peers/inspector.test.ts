/**
 * MCP Inspector's CLI (`@modelcontextprotocol/inspector` 2.12) verifies every skill file served by
 * `skillmount serve examples/skills`, as a modern (2026-07-28) client and as a legacy (2025-11-25)
 * one, behind each framework adapter (Express with every surface on); and served by SDK v2 apps
 * (`createMcpHandler` with the SDK v2's `SkillsExtension` over a skillmount catalog, `sdkV2Skills`):
 * each of its frameworks and each storage once (`SDK_V2_APPS`).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { SkillCatalog } from '@skillmount/core';
import { EXAMPLE_STORAGES } from '../sdk-v2/storages.js';
import { SDK_V2_APPS, serveSdkV2, type SdkV2App } from '../sdk-v2/support.js';
import { exampleFiles } from '../support/skills-suite.js';
import { INSPECTOR_CLI, ensureSuite } from './support/conformance.js';
import { assertEverySurfaceOn } from './support/every-surface.js';
import { EVERY_SURFACE, useServer } from './support/serve.js';

const run = promisify(execFile);
const FILES = exampleFiles().map((f) => `skill://${f}`);

let node: string;
before(
  async () => {
    node = await ensureSuite();
  },
  { timeout: 660_000 },
);

// Each adapter once; the adapter parity battery and the differential test prove they answer alike.
const SERVERS = [
  { framework: 'fastify', args: [] },
  { framework: 'express', args: EVERY_SURFACE },
] as const;

const ERAS = ['modern', 'legacy'] as const;

/** `skills/list --verify` as `era`: exit 0, every skill and every file on disk verified, no conformance problem. */
async function assertEveryFileVerified(url: string, era: (typeof ERAS)[number]): Promise<void> {
  const args = [INSPECTOR_CLI, '--cli', url, '--method', 'skills/list', '--verify', '--protocol-era', era];
  // execFile rejects on a non-zero exit, with the output attached.
  const { stdout, stderr } = await run(node, args, { timeout: 80_000, maxBuffer: 16 << 20, env: { ...process.env, NO_COLOR: '1' } }).catch((error) => {
    throw new Error(`inspector --protocol-era ${era} failed (exit ${error.code}):\n${error.stdout}\n${error.stderr}`);
  });
  const output = `${stdout}\n${stderr}`;
  const skills = stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { uri: string; ok: boolean; outcome: string; conformance: unknown[]; files: { uri: string; status: string }[] });
  assert.equal(skills.length, 3, `one verdict per skill:\n${output}`);
  for (const skill of skills) {
    assert.equal(skill.outcome, 'verified', `${skill.uri}: ${JSON.stringify(skill)}`);
    assert.deepEqual(skill.conformance, [], `${skill.uri} conformance problems`);
  }
  // A nested skill's files are also files of the enclosing one; count each file once.
  const verified = new Set(skills.flatMap((s) => s.files.filter((f) => f.status === 'verified').map((f) => f.uri)));
  assert.deepEqual([...verified].sort(), FILES, 'every file on disk is verified');
  assert.match(output, /Verified 3 skills and 11 files: no conformance errors\./);
}

for (const { framework, args } of SERVERS) {
  describe(`MCP Inspector CLI against skillmount serve --framework ${framework}${args.length ? ` ${args.join(' ')}` : ''}`, () => {
    const server = useServer({ framework, args: [...args] });
    if (args.length > 0) test('every surface is on', () => assertEverySurfaceOn(server.url, server.server.skills));

    for (const era of ERAS) {
      test(`skills/list --verify --protocol-era ${era}: every file verified, exit 0`, { timeout: 90_000 }, () => assertEveryFileVerified(server.url, era));
    }
  });
}

for (const { framework, storage } of SDK_V2_APPS) {
  describe(`MCP Inspector CLI against an SDK v2 app on @modelcontextprotocol/${framework} serving examples/skills from ${storage} (sdkV2Skills)`, () => {
    let catalog: SkillCatalog;
    let app: SdkV2App;
    before(async () => {
      catalog = await SkillCatalog.load(await EXAMPLE_STORAGES[storage](), { onWarning: () => undefined });
      app = await serveSdkV2(framework, catalog);
    });
    after(async () => {
      await app?.close();
      await catalog?.close();
    });

    for (const era of ERAS) {
      test(`skills/list --verify --protocol-era ${era}: every file verified, exit 0`, { timeout: 90_000 }, async () => {
        await assertEveryFileVerified(app.url, era);
        assert.deepEqual(app.warnings, [], 'the SDK v2 refused nothing the catalog served');
      });
    }
  });
}
