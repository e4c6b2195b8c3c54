/**
 * MCP Inspector's CLI against `skillmount serve --tools --search --prompts`, on both protocol eras it
 * speaks: it lists and calls the read_skill and search_skills tools and lists and gets the skills'
 * prompts, and what it prints is the bytes of the SKILL.md on disk. Each era once and each adapter
 * once (Fastify as a 2025-11-25 client sees it, Express as a 2026-07-28 one): the differential test
 * and the adapter parity battery prove that the adapters answer alike in each era.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { INSPECTOR_CLI, ensureSuite } from './support/conformance.js';
import { EXAMPLES, useServer } from './support/serve.js';

const run = promisify(execFile);
const onDisk = (file: string) => readFileSync(path.join(EXAMPLES, file), 'utf8');

let node: string;
before(
  async () => {
    node = await ensureSuite();
  },
  { timeout: 660_000 },
);

/** One Inspector CLI call; its stdout parsed as JSON. */
async function inspect(url: string, era: 'legacy' | 'modern', args: string[]): Promise<any> {
  const argv = [INSPECTOR_CLI, '--cli', url, '--protocol-era', era, ...args];
  const { stdout } = await run(node, argv, { timeout: 80_000, maxBuffer: 16 << 20, env: { ...process.env, NO_COLOR: '1' } }).catch((error) => {
    throw new Error(`inspector ${args.join(' ')} --protocol-era ${era} failed (exit ${error.code}):\n${error.stdout}\n${error.stderr}`);
  });
  return JSON.parse(stdout);
}

const RUNS = [
  { framework: 'fastify', era: 'legacy' },
  { framework: 'express', era: 'modern' },
] as const;

for (const { framework, era } of RUNS) {
  describe(`MCP Inspector CLI against skillmount serve --tools --search --prompts (${framework})`, () => {
    const served = useServer({ framework, args: ['--tools', '--search', '--prompts'] });
    test(`--protocol-era ${era}: tools/list, tools/call read_skill and search_skills, prompts/list, prompts/get`, { timeout: 200_000 }, async () => {
      const tools = await inspect(served.url, era, ['--method', 'tools/list']);
      assert.deepEqual(
        tools.tools.map((t: { name: string }) => t.name),
        ['read_skill', 'search_skills'],
      );
      const called = await inspect(served.url, era, ['--method', 'tools/call', '--tool-name', 'read_skill', '--tool-arg', 'name=git-workflow']);
      assert.equal(called.content[0].text, onDisk('git-workflow/SKILL.md'));
      const found = await inspect(served.url, era, ['--method', 'tools/call', '--tool-name', 'search_skills', '--tool-arg', 'query=commit messages']);
      assert.equal(found.structuredContent.skills[0].uri, 'skill://git-workflow/SKILL.md');
      const prompts = await inspect(served.url, era, ['--method', 'prompts/list']);
      assert.deepEqual(
        prompts.prompts.map((p: { name: string }) => p.name),
        ['refunds', 'git-workflow', 'pdf-processing'],
      );
      const got = await inspect(served.url, era, ['--method', 'prompts/get', '--prompt-name', 'refunds']);
      assert.equal(got.messages[0].content.resource.text, onDisk('acme/billing/refunds/SKILL.md'));
    });
  });
}
