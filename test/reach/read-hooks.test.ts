/**
 * The read hooks (`onSkillLoad`, `onFileRead`): one call per file answered, on both protocol
 * eras, through every way a file is read (resources/read, the read tool, a prompt, a .well-known
 * download), with the client as it named itself; none for a listing, a paging walk, a refused
 * read, a HEAD or a 304. A hook that throws or rejects never fails the read and is reported once.
 * Through a real endpoint over HTTP with the SDK's own client; once through each adapter.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Fastify from 'fastify';
import express from 'express';
import skillsPlugin from '@skillmount/fastify';
import { skillsMiddleware } from '@skillmount/express';
import { createSkillsEndpoint, memoryStorage, SkillCatalog, type SkillReadEvent, type SkillWarning } from '@skillmount/core';
import { connectClient, errorCode } from '../support/client.js';
import { listenExpressSkills, listenFastify, listenHttp, type Listening } from '../support/apps.js';
import { modern } from '../modern/support.js';
import { skillMd } from '../support/skill-md.js';

const FILES = {
  'alpha/SKILL.md': skillMd('alpha', 'First skill.'),
  'alpha/reference/notes.md': '# Notes\n',
  'beta/SKILL.md': skillMd('beta', 'Second skill.'),
  'gamma/SKILL.md': skillMd('gamma', 'Third skill.'),
  'secret/SKILL.md': skillMd('secret', 'Hidden from everyone.'),
};
const uri = (path: string) => `skill://${path}`;
const hidden = (entry: { frontmatter: { name: string } }) => entry.frontmatter.name !== 'secret';

/** What a hook heard, without the context (checked apart). */
const seen = (events: SkillReadEvent[]) => events.map(({ ctx: _ctx, ...rest }) => rest);

describe('read hooks through the endpoint', () => {
  const loads: SkillReadEvent[] = [];
  const reads: SkillReadEvent[] = [];
  const warnings: SkillWarning[] = [];
  let http: Listening;
  let origin: string;
  let endpoint: ReturnType<typeof createSkillsEndpoint>;

  before(async () => {
    const catalog = await SkillCatalog.load(memoryStorage(FILES), { pageSize: 1 });
    endpoint = createSkillsEndpoint({
      source: catalog,
      sessions: true,
      tools: true,
      prompts: true,
      wellKnown: true,
      attach: {
        visible: hidden,
        onWarning: (warning) => void warnings.push(warning),
        onSkillLoad: (event) => void loads.push(event),
        onFileRead: (event) => void reads.push(event),
      },
    });
    http = await listenHttp((req, res) => endpoint.handle(req, res, undefined, { tenant: 'acme' }));
    origin = new URL(http.url).origin;
  });
  after(async () => {
    await endpoint.close();
    await http.close();
  });

  test('2025-11-25: one load per SKILL.md answered, with the client; a file read apart; none for a listing, a paging walk or a refused read', async () => {
    loads.length = 0;
    reads.length = 0;
    const { client, call, close } = await connectClient(http.url);
    try {
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await call('skills/list', cursor === undefined ? {} : { cursor });
        cursor = page.nextCursor;
        pages++;
      } while (cursor !== undefined);
      assert.equal(pages, 3, 'three visible skills, one per page');
      await call('skills/get', { uri: uri('alpha/SKILL.md') });
      assert.equal(loads.length, 0, 'listing and skills/get load nothing');

      for (const name of ['alpha', 'beta', 'gamma']) await client.readResource({ uri: uri(`${name}/SKILL.md`) });
      await client.readResource({ uri: uri('alpha/reference/notes.md') });
      assert.equal(await errorCode(client.readResource({ uri: uri('secret/SKILL.md') })), -32602);
      assert.equal(await errorCode(client.readResource({ uri: uri('nothing/SKILL.md') })), -32602);

      const client25 = { name: 'skillmount-tests', version: '0.0.0' };
      assert.deepEqual(
        seen(loads),
        ['alpha', 'beta', 'gamma'].map((name) => ({
          skill: name,
          uri: uri(`${name}/SKILL.md`),
          bytes: Buffer.byteLength(FILES[`${name}/SKILL.md` as keyof typeof FILES]),
          via: 'resources/read',
          era: '2025-11-25',
          client: client25,
        })),
      );
      assert.deepEqual(seen(reads), [
        { skill: 'alpha', uri: uri('alpha/reference/notes.md'), bytes: 8, via: 'resources/read', era: '2025-11-25', client: client25 },
      ]);
      assert.equal(loads[0]!.ctx.tenant, 'acme', "the request's context, the app's fields included");

      loads.length = 0;
      await client.callTool({ name: 'read_skill', arguments: { name: 'beta' } });
      await client.getPrompt({ name: 'gamma' });
      assert.deepEqual(
        loads.map((e) => [e.skill, e.via, e.era, e.client?.name]),
        [
          ['beta', 'read_skill', '2025-11-25', 'skillmount-tests'],
          ['gamma', 'prompts/get', '2025-11-25', 'skillmount-tests'],
        ],
      );
    } finally {
      await close();
    }
  });

  test('2026-07-28: the era and the client from the request, through resources/read and the read tool answered in process', async () => {
    loads.length = 0;
    const meta = { 'io.modelcontextprotocol/clientInfo': { name: 'x'.repeat(300), version: '2.0.0' } };
    const read = await modern(http.url, 'resources/read', { uri: uri('alpha/SKILL.md') }, { meta });
    assert.equal(read.status, 200, read.text);
    const tool = await modern(http.url, 'tools/call', { name: 'read_skill', arguments: { name: 'beta' } });
    assert.equal(tool.status, 200, tool.text);
    const refused = await modern(http.url, 'resources/read', { uri: uri('secret/SKILL.md') });
    assert.ok(refused.message.error, refused.text);
    assert.deepEqual(
      loads.map((e) => [e.skill, e.via, e.era, e.client]),
      [
        ['alpha', 'resources/read', '2026-07-28', { name: 'x'.repeat(256), version: '2.0.0' }],
        ['beta', 'read_skill', '2026-07-28', { name: 'skillmount-modern-tests', version: '0.0.0' }],
      ],
    );
  });

  test('.well-known: one load per archive or SKILL.md downloaded, none for the index, a HEAD or a 304', async () => {
    loads.length = 0;
    reads.length = 0;
    const index = (await (await fetch(`${origin}/.well-known/agent-skills/index.json`)).json()) as { skills: { name: string; url: string }[] };
    const paths = Object.fromEntries(
      (index.skills as { name: string; url: string }[]).map((s) => [s.name, new URL(s.url, `${origin}/.well-known/agent-skills/`).href]),
    );
    const archive = await fetch(paths.alpha!);
    const body = new Uint8Array(await archive.arrayBuffer());
    assert.equal((await fetch(paths.alpha!, { method: 'HEAD' })).status, 200);
    assert.equal((await fetch(paths.alpha!, { headers: { 'if-none-match': archive.headers.get('etag')! } })).status, 304);
    const single = await fetch(paths.beta!);
    assert.equal(single.status, 200);
    assert.deepEqual(seen(loads), [
      { skill: 'alpha', uri: uri('alpha/SKILL.md'), bytes: body.byteLength, via: 'well-known', era: undefined, client: undefined },
      { skill: 'beta', uri: uri('beta/SKILL.md'), bytes: Buffer.byteLength(FILES['beta/SKILL.md']), via: 'well-known', era: undefined, client: undefined },
    ]);
    assert.equal(reads.length, 0, 'the files inside an archive are not reads of their own');
  });
});

test('a hook that throws or rejects: every read answered, each hook reported once', async () => {
  const warnings: SkillWarning[] = [];
  let calls = 0;
  const endpoint = createSkillsEndpoint({
    source: await SkillCatalog.load(memoryStorage(FILES)),
    attach: {
      onWarning: (warning) => void warnings.push(warning),
      onSkillLoad: () => {
        calls++;
        throw new Error('analytics down');
      },
      onFileRead: async () => {
        calls++;
        throw new Error('queue full');
      },
    },
  });
  const http = await listenHttp((req, res) => endpoint.handle(req, res, undefined));
  const { client, close } = await connectClient(http.url);
  try {
    for (let i = 0; i < 3; i++) {
      const read = await client.readResource({ uri: uri('alpha/SKILL.md') });
      assert.equal((read.contents[0] as { text: string }).text, FILES['alpha/SKILL.md']);
      await client.readResource({ uri: uri('alpha/reference/notes.md') });
    }
    // The rejection is reported on a later turn of the event loop than the answer.
    await new Promise<void>((resolve) => setImmediate(resolve));
    assert.equal(calls, 6, 'called for every read');
    const failed = warnings.filter((w) => w.code === 'read-hook-failed');
    assert.deepEqual(
      failed.map((w) => w.message),
      [
        `the onSkillLoad hook failed for ${uri('alpha/SKILL.md')}: analytics down; the read was answered (reported once per hook)`,
        `the onFileRead hook failed for ${uri('alpha/reference/notes.md')}: queue full; the read was answered (reported once per hook)`,
      ],
    );
  } finally {
    await close();
    await endpoint.close();
    await http.close();
  }
});

test('the adapters take the hooks as options, and refuse a hook that is not a function', async () => {
  // Stateless (the adapters' default): the client's initialize went to another server, so no request names it.
  const heard: string[] = [];
  const onSkillLoad = (event: SkillReadEvent) => void heard.push(`${event.skill} ${event.era} ${event.client?.name}`);

  const fastify = Fastify({ requestTimeout: 30_000 });
  await fastify.register(skillsPlugin, { storage: memoryStorage(FILES), onSkillLoad });
  const onFastify = await listenFastify(fastify);
  const app = express();
  const router = skillsMiddleware({ storage: memoryStorage(FILES), onSkillLoad });
  const onExpress = await listenExpressSkills(app, router);
  try {
    for (const url of [onFastify.url, onExpress.url]) {
      const { client, close } = await connectClient(url);
      await client.readResource({ uri: uri('gamma/SKILL.md') });
      await close();
    }
    assert.deepEqual(heard, ['gamma 2025-11-25 undefined', 'gamma 2025-11-25 undefined']);
  } finally {
    await onFastify.close();
    await onExpress.close();
  }

  assert.throws(() => skillsMiddleware({ storage: memoryStorage(FILES), onFileRead: 'log' as never }), {
    message: '@skillmount/express: option "onFileRead" must be a function (event) => void, got string',
  });
  assert.throws(() => createSkillsEndpoint({ source: memoryStorage(FILES) as never, attach: { onSkillLoad: {} as never } }), /onSkillLoad/);
});
