/**
 * The official SDK v2 client on protocol 2026-07-28 against an app that mounted skillmount
 * (Fastify plugin, Express middleware) with its own McpServer factory: the skills verify, and the
 * app's own tool, prompt and resource answer too, in process, through the same factory.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { exampleFiles } from '../support/skills-suite.js';
import { startTestApp, type RunningApp } from './support.js';

const FILES = exampleFiles().map((f) => `skill://${f}`);
const MODES = [
  { label: 'pinned to 2026-07-28', mode: { pin: '2026-07-28' } },
  { label: "'auto'", mode: 'auto' },
] as const;

for (const framework of ['fastify', 'express'] as const) {
  describe(`SDK v2 client on 2026-07-28, ${framework} app with its own server factory`, () => {
    let app: RunningApp;
    before(async () => {
      app = await startTestApp(framework);
    });
    after(() => app?.close());

    for (const { label, mode } of MODES) {
      describe(label, () => {
        let client: Client;
        before(async () => {
          client = new Client({ name: 'skillmount-modern-tests', version: '0.0.0' }, { versionNegotiation: { mode: mode as never } });
          await client.connect(new StreamableHTTPClientTransport(new URL(app.url)));
        });
        after(() => client?.close());

        test('negotiates 2026-07-28 and sees the app and the skills extension', () => {
          assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
          assert.equal(client.getServerVersion()?.name, 'calculator-app');
          // This client does not declare the Skills extension: the app's text, then the skills section (instructions: 'auto').
          const instructions = client.getInstructions() ?? '';
          assert.ok(instructions.startsWith('Adds numbers; skills explain refunds.\n\n'), instructions);
          assert.equal(instructions.match(/<skill:\/\/[^>]+\/SKILL\.md>/g)?.length, 3, 'the three skills');
          const capabilities = client.getServerCapabilities() as Record<string, any>;
          assert.ok(capabilities.tools, 'the app declares tools');
          assert.ok(capabilities.prompts, 'the app declares prompts');
          assert.ok(capabilities.resources, 'resources are declared');
          assert.deepEqual(capabilities.extensions?.['io.modelcontextprotocol/skills'], { directoryRead: true });
        });

        test('SkillsClient verifies every file of every skill', async () => {
          const skills = new SkillsClient(client);
          assert.equal(skills.supported, true);
          const listing = await skills.list();
          assert.equal(listing.skills.length, 3);
          assert.equal(listing.ttlMs, 0);
          assert.equal(listing.cacheScope, 'private');
          const read = new Set<string>();
          for (const skill of listing.skills) {
            if (skill.resources === 'dynamic') throw new Error(`${skill.uri} is dynamic`);
            // read() checks size, digest and (for SKILL.md) the frontmatter against the entry; it throws on any mismatch.
            for (const file of skill.resources) {
              await skills.read(skill, file.uri.slice(skill.uri.length - 'SKILL.md'.length));
              read.add(file.uri);
            }
          }
          assert.deepEqual([...read].sort(), FILES);
        });

        test("the app's add tool is listed and called", async () => {
          const { tools } = await client.listTools();
          assert.deepEqual(tools.map((t) => t.name).sort(), ['add', 'chatty', 'confirm']);
          const result = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
          assert.deepEqual(result.content, [{ type: 'text', text: '5' }]);
        });

        test("progress from the app's tool arrives on the call's own stream", async () => {
          const steps: unknown[] = [];
          const result = await client.callTool({ name: 'add', arguments: { a: 40, b: 2 } }, {
            onprogress: (p: { progress: number }) => steps.push(p.progress),
          } as never);
          assert.deepEqual(result.content, [{ type: 'text', text: '42' }]);
          assert.deepEqual(steps, [1, 2]);
        });

        test("the app's prompt and resource answer beside the skills", async () => {
          const prompt = await client.getPrompt({ name: 'greet', arguments: { who: 'Ada' } });
          assert.deepEqual(prompt.messages[0]?.content, { type: 'text', text: 'Hello, Ada' });
          const readme = await client.readResource({ uri: 'app://readme' });
          assert.equal((readme.contents[0] as { text: string }).text, 'the app readme');
          const listed = (await client.listResources()).resources.map((r) => r.uri);
          assert.ok(listed.includes('app://readme'), `resources/list holds the app's resource: ${listed.join(', ')}`);
          assert.ok(listed.includes('skill://git-workflow/SKILL.md'), `resources/list holds the SKILL.md files: ${listed.join(', ')}`);
        });
      });
    }
  });
}
