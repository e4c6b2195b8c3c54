/**
 * The opt-in surfaces for hosts without the Skills extension: the read_skill and search_skills
 * tools and skills as prompts, behind both adapters, over real HTTP, with the SDK v1 client (2025-11-25, sessions) and
 * the SDK v2 client pinned to 2026-07-28. A visible() rule keyed on a request header hides one
 * skill: it answers every surface exactly as a skill that does not exist.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from '@modelcontextprotocol/client';
import { PromptListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { memoryStorage, SkillCatalog } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import * as z from 'zod';
import { ADAPTERS, PACKAGE, startAdapter, type StartedAdapter } from '../adapters/support.js';
import { connectClient, errorCode } from '../support/client.js';
import { EXAMPLES } from '../support/skills-suite.js';

const onDisk = (file: string) => readFileSync(path.join(EXAMPLES, file), 'utf8');
const HIDDEN = 'pdf-processing';
/** Shows pdf-processing only to requests with `x-plan: pro`. */
const visible = (entry: { frontmatter: { name: string } }, ctx: { headers: Record<string, unknown> }) =>
  entry.frontmatter.name !== HIDDEN || ctx.headers['x-plan'] === 'pro';

/** The app's own server: a tool and a prompt of its own. */
function appServer(): McpServer {
  const mcp = new McpServer({ name: 'reach-app', version: '1.0.0' });
  mcp.registerTool('add', { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({
    content: [{ type: 'text', text: String(a + b) }],
  }));
  mcp.registerPrompt('greet', { description: 'Greets someone', argsSchema: { who: z.string() } }, ({ who }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `Hello, ${who}` } }],
  }));
  return mcp;
}

const textOf = (result: any) => (result.content as { text: string }[]).map((c) => c.text);

for (const kind of ADAPTERS) {
  describe(`${kind}: read_skill, search_skills and skills as prompts`, () => {
    let app: StartedAdapter;
    before(async () => {
      app = await startAdapter(kind, {
        storage: fsStorage(EXAMPLES),
        server: appServer,
        sessions: true,
        visible: visible as never,
        tools: true,
        prompts: true,
        search: true,
      });
    });
    after(() => app?.close());

    describe('2025-11-25 (SDK v1 client, a session)', () => {
      test("tools/list shows read_skill and search_skills next to the app's tool, with their input shapes", async () => {
        const { client, close } = await connectClient(app.url);
        try {
          const { tools } = await client.listTools();
          assert.deepEqual(
            tools.map((t) => t.name),
            ['add', 'read_skill', 'search_skills'],
          );
          const tool = tools.find((t) => t.name === 'read_skill')!;
          assert.match(tool.description!, /resources\/list/);
          assert.deepEqual(Object.keys(tool.inputSchema.properties ?? {}).sort(), ['name', 'uri']);
          const search = tools.find((t) => t.name === 'search_skills')!;
          assert.deepEqual(Object.keys(search.inputSchema.properties ?? {}).sort(), ['cursor', 'limit', 'query']);
          assert.deepEqual(search.inputSchema.required, ['query']);
          assert.deepEqual(Object.keys(search.outputSchema?.properties ?? {}).sort(), ['nextCursor', 'skills']);
          assert.deepEqual(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } }).then((r) => r.content), [{ type: 'text', text: '5' }]);
        } finally {
          await close();
        }
      });

      test('read_skill by URI and by name returns the bytes on disk', async () => {
        const { client, close } = await connectClient(app.url);
        try {
          const byUri = await client.callTool({ name: 'read_skill', arguments: { uri: 'skill://git-workflow/references/commit-messages.md' } });
          assert.equal(byUri.isError, undefined);
          assert.deepEqual(textOf(byUri), [onDisk('git-workflow/references/commit-messages.md')]);
          const byName = await client.callTool({ name: 'read_skill', arguments: { name: 'refunds' } });
          const [skillMd, others] = textOf(byName);
          assert.equal(skillMd, onDisk('acme/billing/refunds/SKILL.md'));
          assert.match(others!, /skill:\/\/acme\/billing\/refunds\/templates\/approved\.md \(\d+ bytes\)/);
          const byPath = await client.callTool({ name: 'read_skill', arguments: { name: 'acme/billing/refunds' } });
          assert.equal(textOf(byPath)[0], skillMd);
        } finally {
          await close();
        }
      });

      test('a hidden skill and a missing one give the same tool error; shown to a request that may see it', async () => {
        const { client, close } = await connectClient(app.url);
        const pro = await connectClient(app.url, { 'x-plan': 'pro' });
        try {
          const call = (args: Record<string, string>) => client.callTool({ name: 'read_skill', arguments: args });
          const hidden = await call({ name: HIDDEN });
          const missing = await call({ name: 'no-such-skill' });
          assert.equal(hidden.isError, true);
          assert.equal(textOf(hidden)[0], textOf(missing)[0]!.replace('no-such-skill', HIDDEN));
          const hiddenFile = await call({ uri: `skill://${HIDDEN}/SKILL.md` });
          const missingFile = await call({ uri: 'skill://no-such-skill/SKILL.md' });
          assert.equal(hiddenFile.isError, true);
          assert.equal(textOf(hiddenFile)[0], textOf(missingFile)[0]!.replace('no-such-skill', HIDDEN));
          const shown = await pro.client.callTool({ name: 'read_skill', arguments: { name: HIDDEN } });
          assert.equal(textOf(shown)[0], onDisk(`${HIDDEN}/SKILL.md`));
        } finally {
          await close();
          await pro.close();
        }
      });

      test('search_skills: matches best first, as name, description and URI; hidden as missing; pages by cursor', async () => {
        const { client, close } = await connectClient(app.url);
        const pro = await connectClient(app.url, { 'x-plan': 'pro' });
        try {
          // With storage, the adapter's catalog keeps the index the tool answers from.
          assert.deepEqual(
            app.skills.catalog!.search('refund').skills.map((e) => e.uri),
            ['skill://acme/billing/refunds/SKILL.md'],
          );
          const search = (c: typeof client, args: Record<string, unknown>) => c.callTool({ name: 'search_skills', arguments: args as never });
          const refund = await search(client, { query: 'refund' });
          assert.equal(refund.isError, undefined);
          assert.deepEqual(refund.structuredContent, {
            skills: [
              {
                name: 'refunds',
                description: onDisk('acme/billing/refunds/SKILL.md').match(/description: (.*)/)![1],
                uri: 'skill://acme/billing/refunds/SKILL.md',
              },
            ],
          });
          assert.match(
            textOf(refund)[0]!,
            /^Skills matching "refund", best first:\n- refunds: Process customer refund .*<skill:\/\/acme\/billing\/refunds\/SKILL\.md>\n/,
          );
          // Hidden: no trace of it, as if it did not exist; a request that may see it finds it.
          const hidden = await search(client, { query: 'PDF forms' });
          assert.deepEqual(hidden.structuredContent, { skills: [] });
          assert.match(textOf(hidden)[0]!, /^No skill matches "PDF forms"/);
          const shown = await search(pro.client, { query: 'PDF forms' });
          assert.deepEqual(
            (shown.structuredContent as any).skills.map((s: any) => s.uri),
            [`skill://${HIDDEN}/SKILL.md`],
          );
          // One result a page: the pages, followed by their cursors, hold the same skills as one long page.
          const all = (await search(pro.client, { query: 'git pdf refund', limit: 50 })).structuredContent as any;
          assert.equal(all.skills.length, 3);
          const paged: string[] = [];
          let cursor: string | undefined;
          do {
            const page = (await search(pro.client, { query: 'git pdf refund', limit: 1, ...(cursor ? { cursor } : {}) })).structuredContent as any;
            paged.push(...page.skills.map((s: any) => s.uri));
            cursor = page.nextCursor;
          } while (cursor !== undefined && paged.length < 10);
          assert.deepEqual(
            paged,
            all.skills.map((s: any) => s.uri),
          );
        } finally {
          await close();
          await pro.close();
        }
      });

      test('search_skills: a bad query, limit or cursor is a tool error that says what was wrong', async () => {
        const { client, close } = await connectClient(app.url);
        try {
          const cases: [Record<string, unknown>, RegExp][] = [
            [{}, /query/],
            [{ query: 'x'.repeat(501) }, /query/],
            [{ query: 'refund', limit: 0 }, /limit/],
            [{ query: 'refund', limit: 51 }, /limit/],
            [{ query: 'refund', cursor: 'not-a-cursor' }, /cursor/],
          ];
          for (const [args, names] of cases) {
            const result = await client.callTool({ name: 'search_skills', arguments: args as never });
            assert.equal(result.isError, true, JSON.stringify(args));
            assert.match(textOf(result)[0]!, names);
          }
        } finally {
          await close();
        }
      });

      test('bad arguments are a tool error that gives the input shape', async () => {
        const { client, close } = await connectClient(app.url);
        try {
          for (const args of [{}, { name: 'refunds', uri: 'skill://git-workflow/SKILL.md' }, { name: 42 }]) {
            const result = await client.callTool({ name: 'read_skill', arguments: args as never });
            assert.equal(result.isError, true);
            assert.match(textOf(result)[0]!, /exactly one of "name".*or "uri"|Input validation error/);
          }
        } finally {
          await close();
        }
      });

      test("prompts/list and prompts/get: the visible skills beside the app's prompt", async () => {
        const { client, close, call } = await connectClient(app.url);
        const pro = await connectClient(app.url, { 'x-plan': 'pro' });
        try {
          const { prompts } = await client.listPrompts();
          assert.deepEqual(
            prompts.map((p) => p.name),
            ['greet', 'refunds', 'git-workflow'],
          );
          assert.match(prompts[2]!.description!, /Git conventions/);
          const proNames = (await pro.client.listPrompts()).prompts.map((p) => p.name);
          assert.deepEqual(proNames, ['greet', 'refunds', 'git-workflow', HIDDEN]);
          const got = await client.getPrompt({ name: 'git-workflow' });
          assert.equal(got.messages.length, 2);
          assert.deepEqual(got.messages[0], {
            role: 'user',
            content: { type: 'resource', resource: { uri: 'skill://git-workflow/SKILL.md', mimeType: 'text/markdown', text: onDisk('git-workflow/SKILL.md') } },
          });
          assert.match((got.messages[1]!.content as { text: string }).text, /skill:\/\/git-workflow\/.*resources\/read/);
          const greet = await client.getPrompt({ name: 'greet', arguments: { who: 'Ada' } });
          assert.deepEqual(greet.messages[0]!.content, { type: 'text', text: 'Hello, Ada' });
          // Hidden and missing: the same -32602.
          const hidden = await call('prompts/get', { name: HIDDEN }).catch((e) => e);
          const missing = await call('prompts/get', { name: 'no-such-skill' }).catch((e) => e);
          assert.equal(hidden.code, -32602);
          assert.equal(hidden.message, missing.message.replace('no-such-skill', HIDDEN));
          assert.equal((await pro.client.getPrompt({ name: HIDDEN })).messages.length, 2);
        } finally {
          await close();
          await pro.close();
        }
      });

      test('a cursor the server did not give is refused with -32602', async () => {
        const { call, close } = await connectClient(app.url);
        try {
          assert.equal(await errorCode(call('prompts/list', { cursor: 'made-up' })), -32602);
        } finally {
          await close();
        }
      });
    });

    describe('2026-07-28 (SDK v2 client, pinned)', () => {
      const connect = async (headers: Record<string, string> = {}) => {
        const client = new V2Client({ name: 'reach-tests', version: '0.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } as never } });
        await client.connect(new V2Transport(new URL(app.url), { requestInit: { headers } }));
        assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
        return client;
      };

      test('tools/list, read_skill by URI and by name, hidden as missing', async () => {
        const client = await connect();
        try {
          const { tools } = await client.listTools();
          assert.deepEqual(
            tools.map((t) => t.name),
            ['add', 'read_skill', 'search_skills'],
          );
          const byUri = await client.callTool({ name: 'read_skill', arguments: { uri: 'skill://acme/billing/refunds/templates/approved.md' } });
          assert.deepEqual(textOf(byUri), [onDisk('acme/billing/refunds/templates/approved.md')]);
          const byName = await client.callTool({ name: 'read_skill', arguments: { name: 'git-workflow' } });
          assert.equal(textOf(byName)[0], onDisk('git-workflow/SKILL.md'));
          const hidden = await client.callTool({ name: 'read_skill', arguments: { name: HIDDEN } });
          const missing = await client.callTool({ name: 'read_skill', arguments: { name: 'no-such-skill' } });
          assert.equal(hidden.isError, true);
          assert.equal(textOf(hidden)[0], textOf(missing)[0]!.replace('no-such-skill', HIDDEN));
        } finally {
          await client.close();
        }
      });

      test('search_skills per request: hidden as missing, a bad cursor a tool error', async () => {
        const client = await connect();
        const pro = await connect({ 'x-plan': 'pro' });
        try {
          const uris = async (c: V2Client, query: string) =>
            ((await c.callTool({ name: 'search_skills', arguments: { query } })).structuredContent as any).skills.map((s: any) => s.uri);
          assert.deepEqual(await uris(client, 'commit messages'), ['skill://git-workflow/SKILL.md']);
          assert.deepEqual(await uris(client, 'PDF forms'), []);
          assert.deepEqual(await uris(pro, 'PDF forms'), [`skill://${HIDDEN}/SKILL.md`]);
          const bad = await client.callTool({ name: 'search_skills', arguments: { query: 'git', cursor: 'not-a-cursor' } });
          assert.equal(bad.isError, true);
          assert.match(textOf(bad)[0]!, /cursor/);
        } finally {
          await client.close();
          await pro.close();
        }
      });

      test('prompts/list and prompts/get per request', async () => {
        const client = await connect();
        const pro = await connect({ 'x-plan': 'pro' });
        try {
          assert.deepEqual(
            (await client.listPrompts()).prompts.map((p) => p.name),
            ['greet', 'refunds', 'git-workflow'],
          );
          assert.deepEqual(
            (await pro.listPrompts()).prompts.map((p) => p.name),
            ['greet', 'refunds', 'git-workflow', HIDDEN],
          );
          const got = await client.getPrompt({ name: 'refunds' });
          assert.equal((got.messages[0]!.content as any).resource.text, onDisk('acme/billing/refunds/SKILL.md'));
          await assert.rejects(client.getPrompt({ name: HIDDEN }), /not found/);
          assert.equal((await pro.getPrompt({ name: HIDDEN })).messages.length, 2);
        } finally {
          await client.close();
          await pro.close();
        }
      });
    });

    test('a session hears notifications/prompts/list_changed after a reload, and the new skill is a prompt', { timeout: 60_000 }, async () => {
      const storage = memoryStorage({ 'alpha/SKILL.md': '---\nname: alpha\ndescription: Alpha.\n---\n' });
      const reloading = await startAdapter(kind, { storage, server: appServer, sessions: true, prompts: true });
      // Watched before connecting: the client opens its event stream right after initialize.
      const opened = reloading.streamOpened();
      const { client, close } = await connectClient(reloading.url);
      try {
        const heard = new Promise<void>((resolve) => client.setNotificationHandler(PromptListChangedNotificationSchema, () => resolve()));
        assert.deepEqual(
          (await client.listPrompts()).prompts.map((p) => p.name),
          ['greet', 'alpha'],
        );
        await opened;
        storage.write('beta/SKILL.md', '---\nname: beta\ndescription: Beta.\n---\n');
        await reloading.skills.reload();
        await heard;
        assert.deepEqual(
          (await client.listPrompts()).prompts.map((p) => p.name),
          ['greet', 'alpha', 'beta'],
        );
      } finally {
        await close();
        await reloading.close();
      }
    });

    test('an app server that already has a read_skill tool is refused at start, naming the tool', async () => {
      const clashing = () => {
        const mcp = appServer();
        mcp.registerTool('read_skill', { description: "the app's own" }, async () => ({ content: [] }));
        return mcp;
      };
      await assert.rejects(startAdapter(kind, { storage: fsStorage(EXAMPLES), server: clashing, tools: true }), (error: Error & { code?: string }) => {
        assert.equal(error.name, 'OptionError');
        assert.equal(error.code, 'conflicting-options');
        assert.match(error.message, /option "tools" adds a tool named "read_skill", and this server already has a tool by that name/);
        return true;
      });
    });

    test('an app server that already has a search_skills tool is refused at start, naming the tool and the option', async () => {
      const clashing = () => {
        const mcp = appServer();
        mcp.registerTool('search_skills', { description: "the app's own" }, async () => ({ content: [] }));
        return mcp;
      };
      await assert.rejects(startAdapter(kind, { storage: fsStorage(EXAMPLES), server: clashing, search: true }), (error: Error & { code?: string }) => {
        assert.equal(error.name, 'OptionError');
        assert.equal(error.code, 'conflicting-options');
        assert.match(error.message, /option "search" adds a tool named "search_skills", and this server already has a tool by that name/);
        return true;
      });
    });

    test('tools and prompts must be booleans; search too, beside a ready catalog', async () => {
      await assert.rejects(startAdapter(kind, { storage: fsStorage(EXAMPLES), tools: 'yes' as never }), {
        message: `${PACKAGE[kind]}: option "tools" must be true or false, got "yes"`,
      });
      const catalog = await SkillCatalog.load(memoryStorage({ 'alpha/SKILL.md': '---\nname: alpha\ndescription: Alpha.\n---\n' }));
      await assert.rejects(startAdapter(kind, { catalog, search: 'yes' as never }), {
        message: `${PACKAGE[kind]}: option "search" must be true, false or { text: true }, got "yes"`,
      });
      await assert.rejects(
        startAdapter(kind, { catalog, search: { text: true } }),
        /option "search" as an object shapes the index .* applies only with storage/,
      );
    });
  });
}
