/**
 * The skills methods behind each adapter: on protocol 2025-11-25 through the SDK's own client, on
 * 2026-07-28 request by request, beside the app's own server, with the catalog options that shape
 * what is served.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  generateSigningKey,
  keyFileSigner,
  memoryStorage,
  SIGNATURE_FILE,
  SIGNATURE_META_KEY,
  SkillCatalog,
  signSkill,
  type SkillWarning,
} from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import * as z from 'zod';
import { connectClient, errorCode } from '../support/client.js';
import { checkSkillsEndpoint, EXAMPLES, exampleFiles } from '../support/skills-suite.js';
import { skillMd } from '../support/skill-md.js';
import { modern } from '../modern/support.js';
import { ADAPTERS, startAdapter } from './support.js';

const EXAMPLE_SKILLS = ['skill://acme/billing/refunds/SKILL.md', 'skill://git-workflow/SKILL.md', 'skill://pdf-processing/SKILL.md'];
const sha = (bytes: Uint8Array) => 'sha256:' + createHash('sha256').update(bytes).digest('hex');

/** The result of one 2026-07-28 request, which must succeed. */
async function modernResult(url: string, method: string, params: Record<string, unknown>): Promise<any> {
  const { status, message } = await modern(url, method, params);
  assert.equal(status, 200, `${method} ${JSON.stringify(params)}`);
  assert.ok(message.result, `${method} ${JSON.stringify(params)}: ${JSON.stringify(message)}`);
  assert.equal(message.result.resultType, 'complete');
  return message.result;
}

/** Every skills method on 2026-07-28, over examples/skills served `pageSize` to a page: the same entries and bytes as on 2025-11-25. */
async function checkModernSkills(url: string, pageSize: number, legacyEntries: any[]): Promise<void> {
  const skills: any[] = [];
  let cursor: string | undefined;
  do {
    const page = await modernResult(url, 'skills/list', cursor ? { cursor } : {});
    assert.ok(page.skills.length <= pageSize);
    assert.equal(typeof page.ttlMs, 'number', 'cache fields are required on 2026-07-28');
    skills.push(...page.skills);
    cursor = page.nextCursor;
  } while (cursor);
  assert.deepEqual(skills, legacyEntries, 'the entries of both eras are the same');
  for (const skill of skills) {
    assert.deepEqual((await modernResult(url, 'skills/get', { uri: skill.uri })).skill, skill);
    for (const file of skill.resources) {
      const [content] = (await modernResult(url, 'resources/read', { uri: file.uri })).contents;
      const bytes = content.text !== undefined ? Buffer.from(content.text, 'utf8') : Buffer.from(content.blob, 'base64');
      assert.equal(sha(bytes), file.digest, file.uri);
      assert.ok(bytes.equals(readFileSync(path.join(EXAMPLES, file.uri.slice('skill://'.length)))), `${file.uri} is served byte for byte`);
    }
  }
  // Every folder, down every level: the files seen are the files on disk.
  const seen: string[] = [];
  const walk = async (uri: string): Promise<void> => {
    let dirCursor: string | undefined;
    do {
      const page = await modernResult(url, 'resources/directory/read', dirCursor ? { uri, cursor: dirCursor } : { uri });
      for (const child of page.resources) {
        if (child.mimeType === 'inode/directory') await walk(child.uri);
        else seen.push(child.uri.slice('skill://'.length));
      }
      dirCursor = page.nextCursor;
    } while (dirCursor);
  };
  for (const skill of skills) await walk(skill.uri.slice(0, -'/SKILL.md'.length));
  assert.deepEqual(seen.sort(), exampleFiles());
  for (const [method, uri] of [
    ['skills/get', 'skill://nope/SKILL.md'],
    ['resources/read', 'skill://git-workflow/missing.md'],
    ['resources/directory/read', 'skill://git-workflow/SKILL.md'],
  ] as const) {
    const { status, message } = await modern(url, method, { uri });
    assert.equal(status, 200);
    assert.equal(message.error?.code, -32602, `${method} ${uri}`);
  }
}

for (const kind of ADAPTERS) {
  test(`${kind}: 2025-11-25, stateless: every skills method over examples/skills, two skills per page`, async (t) => {
    const started = await startAdapter(kind, { storage: fsStorage(EXAMPLES), pageSize: 2 });
    t.after(() => started.close());
    await checkSkillsEndpoint(started.url, { pageSize: 2 });
    assert.deepEqual(
      started.skills.entries.map((entry) => entry.uri),
      EXAMPLE_SKILLS,
    );
    assert.ok(started.skills.catalog, 'a catalog loaded from storage is exposed');
    assert.equal(started.skills.catalog.entries, started.skills.entries);
  });

  test(`${kind}: 2026-07-28: every skills method answers the entries and bytes of 2025-11-25`, async (t) => {
    const started = await startAdapter(kind, { storage: fsStorage(EXAMPLES), pageSize: 2 });
    t.after(() => started.close());
    const { skills } = await checkSkillsEndpoint(started.url, { pageSize: 2 });
    await checkModernSkills(started.url, 2, skills);
  });

  test(`${kind}: the app's own McpServer, built per request, serves its tool and resource beside the skills`, async (t) => {
    let built = 0;
    const started = await startAdapter(kind, {
      storage: fsStorage(EXAMPLES),
      server: () => {
        built++;
        const server = new McpServer({ name: 'my-app', version: '1.0.0' });
        server.registerTool('add', { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({
          content: [{ type: 'text', text: String(a + b) }],
        }));
        server.registerTool('where', { description: 'The request URL the tool sees' }, async (extra) => ({
          content: [{ type: 'text', text: String(extra.requestInfo?.url) }],
        }));
        server.registerResource('readme', 'app://readme', { mimeType: 'text/plain' }, async (uri) => ({
          contents: [{ uri: uri.href, text: 'the app readme' }],
        }));
        return server;
      },
    });
    t.after(() => started.close());
    const { client, call, close } = await connectClient(started.url);
    try {
      assert.equal(client.getServerVersion()?.name, 'my-app');
      assert.deepEqual(
        (await client.listTools()).tools.map((tool) => tool.name),
        ['add', 'where'],
      );
      const where = await client.callTool({ name: 'where' });
      assert.equal(new URL((where.content as { text: string }[])[0]!.text).pathname, '/mcp', 'handlers see the full request URL');
      assert.deepEqual((await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).content, [{ type: 'text', text: '5' }]);
      const readme = await client.readResource({ uri: 'app://readme' });
      assert.equal((readme.contents[0] as { text: string }).text, 'the app readme');
      const listed = (await client.listResources()).resources.map((r) => r.uri);
      assert.ok(listed.includes('app://readme'), "the app's resource is listed");
      assert.ok(listed.includes('skill://git-workflow/SKILL.md'), 'the skills are listed too');
      assert.equal((await call('skills/list')).skills.length, 3);
      assert.ok(built >= 5, `stateless: a server per request (built ${built})`);
    } finally {
      await close();
    }
    await checkSkillsEndpoint(started.url);
  });

  test(`${kind}: a low-level Server from the factory serves its handlers beside the skills`, async (t) => {
    const started = await startAdapter(kind, {
      storage: fsStorage(EXAMPLES),
      server: () => {
        const server = new Server({ name: 'low-level', version: '1.0.0' }, { capabilities: { tools: {} } });
        server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: 'ping', inputSchema: { type: 'object' } }] }));
        server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [{ type: 'text', text: 'pong' }] }));
        return server;
      },
    });
    t.after(() => started.close());
    const { client, close } = await connectClient(started.url);
    try {
      assert.equal(client.getServerVersion()?.name, 'low-level');
      assert.deepEqual((await client.callTool({ name: 'ping', arguments: {} })).content, [{ type: 'text', text: 'pong' }]);
    } finally {
      await close();
    }
    await checkSkillsEndpoint(started.url);
  });

  test(`${kind}: "prefix" is the skill path prefix, not a route prefix`, async (t) => {
    const started = await startAdapter(kind, { storage: memoryStorage({ 'hello/SKILL.md': skillMd('hello') }), prefix: 'team/tools' });
    t.after(() => started.close());
    assert.ok(started.url.endsWith('/mcp'));
    const { call, close } = await connectClient(started.url);
    try {
      assert.deepEqual(
        (await call('skills/list')).skills.map((s: { uri: string }) => s.uri),
        ['skill://team/tools/hello/SKILL.md'],
      );
    } finally {
      await close();
    }
  });

  test(`${kind}: "trust" reaches the catalog it loads: under requireSignature an unsigned skill is not served`, async (t) => {
    const { privateKey, publicKey } = await generateSigningKey();
    const signed = { 'SKILL.md': skillMd('signed') };
    const files = [{ path: 'SKILL.md', bytes: new TextEncoder().encode(signed['SKILL.md']) }];
    const storage = memoryStorage({
      'signed/SKILL.md': signed['SKILL.md'],
      [`signed/${SIGNATURE_FILE}`]: await signSkill({ path: 'signed', files }, await keyFileSigner(privateKey)),
      'unsigned/SKILL.md': skillMd('unsigned'),
    });
    const warned: string[] = [];
    const trust = { keys: [{ name: 'vendor.pub', publicKey }], requireSignature: true };
    const started = await startAdapter(kind, { storage, trust, onWarning: (w) => warned.push(`${w.code} ${w.uri}`) });
    t.after(() => started.close());
    const { call, close } = await connectClient(started.url);
    try {
      const { skills } = await call('skills/list');
      assert.deepEqual(
        skills.map((s: { uri: string }) => s.uri),
        ['skill://signed/SKILL.md'],
      );
      assert.equal(skills[0]._meta[SIGNATURE_META_KEY].signer.name, 'vendor.pub');
      assert.deepEqual(warned, ['signature-missing skill://unsigned/SKILL.md']);
    } finally {
      await close();
    }
  });

  test(`${kind}: with a custom source, strict fails a skills/list page that holds an invalid entry; without it the entry is dropped`, async (t) => {
    const good = await SkillCatalog.load(memoryStorage({ 'hello/SKILL.md': skillMd('hello') }));
    const [hello] = good.entries;
    const misnamed = {
      ...hello!,
      uri: 'skill://other/SKILL.md',
      resources: [{ ...(hello!.resources as { uri: string; digest: string; size: number }[])[0]!, uri: 'skill://other/SKILL.md' }],
    };
    for (const strict of [undefined, false, true]) {
      // A source of its own each time: a bad entry is told once per source, whatever onWarning hears it.
      const source = { list: async () => ({ skills: [hello!, misnamed] }), get: async () => undefined, read: async () => undefined };
      const warned: string[] = [];
      const onWarning = (w: SkillWarning) => warned.push(`${w.code} ${w.uri}`);
      const started = await startAdapter(kind, { source, onWarning, ...(strict === undefined ? {} : { strict }) });
      t.after(() => started.close());
      const { call, close } = await connectClient(started.url);
      try {
        if (strict) assert.equal(await errorCode(call('skills/list')), -32603);
        else
          assert.deepEqual(
            (await call('skills/list')).skills.map((s: { uri: string }) => s.uri),
            [hello!.uri],
          );
        // Under strict, the initialize's listing for the instructions fails on the entry first: the handshake
        // still succeeds, with the app's instructions alone, and says so.
        const expected = strict ? ['invalid-entry skill://other/SKILL.md', 'instructions-failed undefined'] : ['invalid-entry skill://other/SKILL.md'];
        assert.deepEqual(warned, expected, `strict: ${strict}`);
      } finally {
        await close();
      }
    }
  });
}
