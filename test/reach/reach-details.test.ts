/**
 * The read and search tools and the prompts beyond the common path: prompt list changes on reload (a
 * 2025-11-25 session, and subscriptions/listen on 2026-07-28), a low-level Server whose own tools
 * and prompts handlers are joined, an app that owns resources/read (the tool reads through it),
 * binary files, skills that share a name, and prompts/list paged by the catalog's cursor; search_skills
 * over an app that owns skills/list and over custom sources, with and without a search of their own.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListToolsRequestSchema,
  PromptListChangedNotificationSchema,
  ReadResourceRequestSchema,
  ListResourcesRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { attach, createSkillsEndpoint, memoryStorage, SkillCatalog, type SkillEntry, type SkillSource, type SkillWarning } from '@skillmount/core';
import { listenHttp } from '../support/apps.js';
import { connectClient, WITH_SKILLS_EXTENSION } from '../support/client.js';
import { listen } from '../modern/support.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

const skillMd = (name: string, description = `The ${name} skill.`) => `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`;
const textOf = (result: any) => (result.content as { text: string }[]).map((c) => c.text);

async function serve(catalog: SkillSource, options: { server?: () => Server; sessions?: boolean; visible?: (entry: SkillEntry) => boolean } = {}) {
  const endpoint = createSkillsEndpoint({
    source: catalog,
    tools: true,
    prompts: true,
    search: true,
    sessions: options.sessions ?? true,
    ...(options.server ? { server: options.server } : {}),
    ...(options.visible ? { attach: { visible: options.visible } } : {}),
  });
  const http = await listenHttp((req, res) => endpoint.handle(req, res, undefined));
  return {
    url: http.url,
    close: async () => {
      await endpoint.close();
      await http.close();
    },
  };
}

describe('reloads', () => {
  test('a 2025-11-25 session hears notifications/prompts/list_changed after a reload, and lists the new skill', async () => {
    const storage = memoryStorage({ 'alpha/SKILL.md': skillMd('alpha') });
    const catalog = await SkillCatalog.load(storage);
    const app = await serve(catalog);
    const { client, close } = await connectClient(app.url);
    try {
      const heard = new Promise<void>((resolve) => client.setNotificationHandler(PromptListChangedNotificationSchema, () => resolve()));
      assert.deepEqual(
        (await client.listPrompts()).prompts.map((p) => p.name),
        ['alpha'],
      );
      // The client opens its GET stream after initialize; give it a moment to be there.
      await new Promise((r) => setTimeout(r, 300));
      storage.write('beta/SKILL.md', skillMd('beta'));
      await catalog.reload();
      await Promise.race([heard, new Promise((_, reject) => setTimeout(() => reject(new Error('no prompts/list_changed in 10 s')), 10_000))]);
      assert.deepEqual(
        (await client.listPrompts()).prompts.map((p) => p.name),
        ['alpha', 'beta'],
      );
    } finally {
      await close();
      await app.close();
    }
  });

  test('2026-07-28: subscriptions/listen honours promptsListChanged and sends it on a reload', async () => {
    const storage = memoryStorage({ 'alpha/SKILL.md': skillMd('alpha') });
    const catalog = await SkillCatalog.load(storage);
    const app = await serve(catalog);
    const stream = await listen(app.url, { promptsListChanged: true, resourcesListChanged: true });
    try {
      const ack = await stream.frame(1);
      assert.deepEqual(ack.params.notifications, { resourcesListChanged: true, promptsListChanged: true });
      storage.write('beta/SKILL.md', skillMd('beta'));
      await catalog.reload();
      await stream.frame(3);
      assert.deepEqual(
        stream.frames.slice(1, 3).map((f) => f.method),
        ['notifications/resources/list_changed', 'notifications/prompts/list_changed'],
      );
    } finally {
      stream.close();
      await app.close();
    }
  });
});

describe('a low-level Server with its own tools and prompts', () => {
  const lowLevel = () => {
    const server = new Server({ name: 'low', version: '1.0.0' }, { capabilities: { tools: {}, prompts: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: 'ping', inputSchema: { type: 'object' } }] }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => ({ content: [{ type: 'text', text: `pong ${request.params.name}` }] }));
    server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: [{ name: 'own' }] }));
    server.setRequestHandler(GetPromptRequestSchema, async (request) => {
      if (request.params.name !== 'own') throw Object.assign(new Error(`Prompt ${request.params.name} not found`), { code: -32602 });
      return { messages: [{ role: 'user', content: { type: 'text', text: 'the app prompt' } }] };
    });
    return server;
  };

  test("tools/list and prompts/list join the app's own; calls reach the right handler", async () => {
    const catalog = await SkillCatalog.load(memoryStorage({ 'alpha/SKILL.md': skillMd('alpha') }));
    const app = await serve(catalog, { server: lowLevel, sessions: false });
    const { client, close } = await connectClient(app.url);
    try {
      assert.deepEqual(
        (await client.listTools()).tools.map((t) => t.name),
        ['ping', 'read_skill', 'search_skills'],
      );
      assert.deepEqual(textOf(await client.callTool({ name: 'ping' })), ['pong ping']);
      const found = await client.callTool({ name: 'search_skills', arguments: { query: 'alpha' } });
      assert.deepEqual(found.structuredContent, { skills: [{ name: 'alpha', description: 'The alpha skill.', uri: 'skill://alpha/SKILL.md' }] });
      assert.equal((await client.callTool({ name: 'search_skills', arguments: { query: 42 } })).isError, true);
      assert.deepEqual(textOf(await client.callTool({ name: 'read_skill', arguments: { name: 'alpha' } }))[0], skillMd('alpha'));
      assert.deepEqual(
        (await client.listPrompts()).prompts.map((p) => p.name),
        ['own', 'alpha'],
      );
      assert.deepEqual((await client.getPrompt({ name: 'own' })).messages[0]!.content, { type: 'text', text: 'the app prompt' });
      assert.equal(((await client.getPrompt({ name: 'alpha' })).messages[0]!.content as any).resource.text, skillMd('alpha'));
    } finally {
      await close();
      await app.close();
    }
  });

  test('one that already lists a read_skill tool fails tools/list and is told why', async () => {
    const catalog = await SkillCatalog.load(memoryStorage({ 'alpha/SKILL.md': skillMd('alpha') }));
    const warnings: string[] = [];
    const server = new Server({ name: 'low', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: 'read_skill', inputSchema: { type: 'object' } }] }));
    server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [] }));
    attach(server, catalog, { tools: true, onWarning: (w) => warnings.push(`${w.code}: ${w.message}`) });
    const handler = (server as any)._requestHandlers.get('tools/list');
    await assert.rejects(handler({ method: 'tools/list', params: {} }, {}), /two tools named read_skill/);
    assert.match(warnings.join('\n'), /tool-name-taken: .*already has a tool by that name/);
  });
});

describe('prompts the app adds after attach', () => {
  /** An SDK v1 client connected in memory to `server`. */
  const connected = async (server: Server | McpServer) => {
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const client = new Client({ name: 'reach-tests', version: '0.0.0' });
    await client.connect(b);
    return client;
  };

  test("an McpServer's registerPrompt after attach still works and joins the skills' prompts", async () => {
    const catalog = await SkillCatalog.load(memoryStorage({ 'alpha/SKILL.md': skillMd('alpha') }));
    const mcp = new McpServer({ name: 'late', version: '1.0.0' });
    attach(mcp, catalog, { prompts: true });
    mcp.registerPrompt('late', { description: 'added after attach' }, () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'late' } }] }));
    const client = await connected(mcp);
    try {
      assert.deepEqual(
        (await client.listPrompts()).prompts.map((p) => p.name),
        ['late', 'alpha'],
      );
      assert.deepEqual((await client.getPrompt({ name: 'late' })).messages[0]!.content, { type: 'text', text: 'late' });
    } finally {
      await client.close();
    }
  });

  test("a Server's own prompts/list handler set after attach keeps prompts/list its own", async () => {
    const catalog = await SkillCatalog.load(memoryStorage({ 'alpha/SKILL.md': skillMd('alpha') }));
    const server = new Server({ name: 'owner', version: '1.0.0' }, { capabilities: { prompts: {} } });
    attach(server, catalog, { prompts: true });
    server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: [{ name: 'mine-only' }] }));
    const client = await connected(server);
    try {
      assert.deepEqual(
        (await client.listPrompts()).prompts.map((p) => p.name),
        ['mine-only'],
      );
    } finally {
      await client.close();
    }
  });
});

describe("an app that owns resources/read (attach { resources: 'manual' })", () => {
  test('read_skill and prompts/get read through its handler, so its gate holds', async () => {
    const catalog = await SkillCatalog.load(memoryStorage({ 'open/SKILL.md': skillMd('open'), 'gated/SKILL.md': skillMd('gated') }));
    const asked: string[] = [];
    const server = () => {
      const low = new Server({ name: 'owner', version: '1.0.0' }, { capabilities: { resources: {} } });
      const skills = attach(low, catalog, { resources: 'manual', tools: true, prompts: true });
      low.setRequestHandler(ListResourcesRequestSchema, async (_r, extra) => ({ resources: await skills.listResources(extra) }));
      low.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
        asked.push(request.params.uri);
        if (request.params.uri.includes('gated')) throw Object.assign(new Error(`Resource ${request.params.uri} not found`), { code: -32602 });
        return (await skills.readResource(request.params.uri, extra)) as never;
      });
      return low;
    };
    const app = await serve(catalog, { server, sessions: false });
    const { client, close, call } = await connectClient(app.url);
    try {
      assert.equal(textOf(await client.callTool({ name: 'read_skill', arguments: { uri: 'skill://open/SKILL.md' } }))[0], skillMd('open'));
      const gated = await client.callTool({ name: 'read_skill', arguments: { name: 'gated' } });
      assert.equal(gated.isError, true);
      assert.match(textOf(gated)[0]!, /No skill named "gated"/);
      const refused = await call('prompts/get', { name: 'gated' }).catch((e) => e);
      assert.equal(refused.code, -32602);
      assert.deepEqual(asked, ['skill://open/SKILL.md', 'skill://gated/SKILL.md', 'skill://gated/SKILL.md']);
    } finally {
      await close();
      await app.close();
    }
  });
});

describe('search_skills beyond a catalog', () => {
  const uris = (result: any) => (result.structuredContent as { skills: { uri: string }[] }).skills.map((s) => s.uri);

  test('an app that owns skills/list: the search ranks what its handler lists, so its gate holds', async () => {
    const catalog = await SkillCatalog.load(memoryStorage({ 'open/SKILL.md': skillMd('open'), 'gated/SKILL.md': skillMd('gated') }), { search: true });
    const server = () => {
      const mcp = new McpServer({ name: 'owner', version: '1.0.0' });
      attach(mcp, catalog, { search: true });
      // The app's own skills/list, set after attach: it leaves out the gated skill.
      const table = (mcp.server as unknown as { _requestHandlers: Map<string, (r: unknown, e: unknown) => Promise<any>> })._requestHandlers;
      const attached = table.get('skills/list')!;
      table.set('skills/list', async (request, extra) => {
        const page = await attached(request, extra);
        return { ...page, skills: page.skills.filter((entry: SkillEntry) => entry.frontmatter.name !== 'gated') };
      });
      return mcp.server;
    };
    const app = await serve(catalog, { server, sessions: false });
    const { client, close } = await connectClient(app.url);
    try {
      assert.deepEqual(uris(await client.callTool({ name: 'search_skills', arguments: { query: 'open skill' } })), ['skill://open/SKILL.md']);
      assert.deepEqual(uris(await client.callTool({ name: 'search_skills', arguments: { query: 'gated' } })), []);
    } finally {
      await close();
      await app.close();
    }
  });

  test('a custom source: its own search, checked and seen through visible(); without one, its listing ranked', async () => {
    const catalog = await SkillCatalog.load(memoryStorage({ 'open/SKILL.md': skillMd('open'), 'hidden/SKILL.md': skillMd('hidden') }), { search: true });
    const warnings: SkillWarning[] = [];
    const plain: SkillSource = {
      list: (p) => catalog.list(p),
      get: (uri) => catalog.get(uri),
      read: (uri) => catalog.read(uri),
      warn: (w) => void warnings.push(w),
    };
    const invalid = { uri: 'skill://bad/SKILL.md', frontmatter: { name: 'other', description: 'x' }, resources: [] };
    // A search that ignores visible and sends an invalid entry besides.
    const own: SkillSource = { ...plain, search: async () => ({ skills: [...catalog.entries, invalid as never] }) };
    const visible = (entry: SkillEntry) => entry.frontmatter.name !== 'hidden';
    for (const source of [plain, own]) {
      const app = await serve(source, { sessions: false, visible });
      const { client, close } = await connectClient(app.url);
      try {
        assert.deepEqual(uris(await client.callTool({ name: 'search_skills', arguments: { query: 'skill' } })), ['skill://open/SKILL.md']);
      } finally {
        await close();
        await app.close();
      }
    }
    assert.deepEqual(
      warnings.map((w) => [w.code, w.uri]),
      [['invalid-entry', 'skill://bad/SKILL.md']],
    );
  });
});

describe('files and names', () => {
  test('a binary file is described with its type and size; skills that share a name go by their paths', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 255]);
    const catalog = await SkillCatalog.load(
      memoryStorage({
        'a/deploy/SKILL.md': skillMd('deploy', 'Deploy, team A.'),
        'b/deploy/SKILL.md': skillMd('deploy', 'Deploy, team B.'),
        'a/deploy/logo.png': png,
        'solo/SKILL.md': skillMd('solo'),
      }),
    );
    const app = await serve(catalog);
    const { client, close } = await connectClient(app.url);
    try {
      const binary = await client.callTool({ name: 'read_skill', arguments: { uri: 'skill://a/deploy/logo.png' } });
      assert.equal(binary.isError, undefined);
      assert.equal(
        textOf(binary)[0],
        'skill://a/deploy/logo.png is a binary file (image/png, 12 bytes); it is not shown as text. A host that reads MCP resources can fetch it with resources/read.',
      );
      const names = (await client.listPrompts()).prompts.map((p) => [p.name, p.description]);
      assert.deepEqual(names, [
        ['a/deploy', 'Deploy, team A.'],
        ['b/deploy', 'Deploy, team B.'],
        ['solo', 'The solo skill.'],
      ]);
      assert.equal(((await client.getPrompt({ name: 'b/deploy' })).messages[0]!.content as any).resource.uri, 'skill://b/deploy/SKILL.md');
      const byName = await client.callTool({ name: 'read_skill', arguments: { name: 'b/deploy' } });
      assert.equal(textOf(byName)[0], skillMd('deploy', 'Deploy, team B.'));
      const shared = await client.callTool({ name: 'read_skill', arguments: { name: 'deploy' } });
      assert.equal(shared.isError, true);
      assert.deepEqual(textOf(shared), ['2 skills are named "deploy": give one of their paths as the name (a/deploy, b/deploy).']);
      assert.match(String(await client.getPrompt({ name: 'deploy' }).catch((e) => e.message)), /Prompt deploy not found/);
    } finally {
      await close();
      await app.close();
    }
  });

  test('read_skill and prompts/get find a name in the index: visible() is asked about the skills that bear it, not about all 5000', async () => {
    // The property is constant work per call; the size shows it: a walk of the pages would ask visible() 5000 times per call.
    const files: Record<string, string> = {};
    for (let i = 0; i < 5000; i++) files[`skill-${String(i).padStart(4, '0')}/SKILL.md`] = skillMd(`skill-${String(i).padStart(4, '0')}`);
    for (const team of ['a', 'b', 'c']) files[`${team}/shared/SKILL.md`] = skillMd('shared', `Shared, team ${team}.`);
    const catalog = await SkillCatalog.load(memoryStorage(files));
    const asked: string[] = [];
    const hidden = 'skill://skill-0007/SKILL.md';
    const app = await serve(catalog, {
      visible: (entry) => {
        asked.push(entry.uri);
        return entry.uri !== hidden;
      },
    });
    // A client of the extension: its initialize lists nothing, so every visible() call below is the call's own.
    const { client, call, close } = await connectClient(app.url, {}, WITH_SKILLS_EXTENSION);
    const askedBy = async (work: () => Promise<unknown>) => {
      asked.length = 0;
      await work();
      return [...asked];
    };
    try {
      const read = (name: string) => client.callTool({ name: 'read_skill', arguments: { name } });
      const one = 'skill://skill-4321/SKILL.md';
      // Once to find it, once more by the read (resources/read's own check).
      assert.deepEqual(await askedBy(() => read('skill-4321')), [one, one]);
      assert.deepEqual(await askedBy(() => call('prompts/get', { name: 'skill-4321' })), [one, one]);
      const shared = ['skill://a/shared/SKILL.md', 'skill://b/shared/SKILL.md', 'skill://c/shared/SKILL.md'];
      assert.deepEqual(await askedBy(() => read('shared')), shared);
      // By path: that skill, then the others of its name until one is visible (so it goes by its path), then the read.
      assert.deepEqual(await askedBy(() => read('b/shared')), [shared[1], shared[0], shared[1]]);
      // A hidden skill and a missing one cost the same: one question (a stand-in for the missing one).
      assert.deepEqual(await askedBy(() => read('skill-0007')), [hidden]);
      assert.deepEqual(await askedBy(() => read('no-such-skill')), ['skill://no-such-skill/SKILL.md']);
      assert.equal(textOf(await read('skill-0007'))[0], textOf(await read('no-such-skill'))[0]!.replace('no-such-skill', 'skill-0007'));
    } finally {
      await close();
      await app.close();
    }
  });

  test('prompts/list pages by the catalog cursor', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 7; i++) files[`s${i}/SKILL.md`] = skillMd(`s${i}`);
    const catalog = await SkillCatalog.load(memoryStorage(files), { pageSize: 3 });
    const app = await serve(catalog);
    const { call, close } = await connectClient(app.url);
    try {
      const pages: string[][] = [];
      let cursor: string | undefined;
      do {
        const page = await call('prompts/list', cursor === undefined ? {} : { cursor });
        pages.push(page.prompts.map((p: { name: string }) => p.name));
        cursor = page.nextCursor;
      } while (cursor !== undefined && pages.length < 10);
      assert.deepEqual(pages, [['s0', 's1', 's2'], ['s3', 's4', 's5'], ['s6']]);
    } finally {
      await close();
      await app.close();
    }
  });
});
