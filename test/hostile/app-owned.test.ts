/**
 * An app that owns `resources/read` (a low-level Server with its own handler, attached with
 * `resources: 'manual'`, the documented way to gate reads) must see every read on every path:
 * 2025-11-25 stateless and in a session, and 2026-07-28. Before, the endpoint answered skill://
 * reads from the source on all three, and the gated SKILL.md went to a caller without the scope;
 * only a request with one extra param reached the app. Checks an app makes in its server factory
 * hold for skills requests too. Real sockets, the SDK's own client, both adapters.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListResourcesRequestSchema, McpError, ReadResourceRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { SkillCatalog, attach, memoryStorage } from '@skillmount/core';
import { connectClient, errorCode } from '../support/client.js';
import { modern } from '../modern/support.js';
import { FRAMEWORKS, serve } from './servers.js';

const FILES = {
  'open/SKILL.md': '---\nname: open\ndescription: Anyone may read this.\n---\nOpen.\n',
  'secret/SKILL.md': '---\nname: secret\ndescription: Only with the scope.\n---\nThe secret body.\n',
};
const SECRET = 'skill://secret/SKILL.md';
const FORBIDDEN = -32001;
const SCOPE = { 'x-scope': 'secret' };

/** A low-level Server whose own resources/read refuses skill://secret/… to callers without the scope header. */
function gatedApp(catalog: SkillCatalog, seen: string[]) {
  return () => {
    const server = new Server({ name: 'gated', version: '1.0.0' }, { capabilities: { resources: {} } });
    const skills = attach(server, catalog, { resources: 'manual', onWarning: () => {} });
    server.setRequestHandler(ListResourcesRequestSchema, async (_request, extra) => {
      seen.push('resources/list');
      const listed = await skills.listResources(extra);
      return { resources: listed.filter((r) => r.uri !== SECRET || extra.requestInfo?.headers['x-scope'] === 'secret') };
    });
    server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
      seen.push(request.params.uri);
      if (request.params.uri.startsWith('skill://secret/') && extra.requestInfo?.headers['x-scope'] !== 'secret') {
        throw new McpError(FORBIDDEN, `Forbidden: ${request.params.uri} needs the secret scope`);
      }
      const result = await skills.readResource(request.params.uri, extra);
      if (!result) throw new McpError(-32602, `Resource ${request.params.uri} not found`);
      return result;
    });
    return server;
  };
}

/** The text of a read's first content, or `undefined` as a string when it has none (a blob). */
const firstText = (result: { contents: ({ text: string } | { blob: string })[] }) => {
  const first = result.contents[0];
  return String(first && 'text' in first ? first.text : undefined);
};

async function catalogOf(): Promise<SkillCatalog> {
  return SkillCatalog.load(memoryStorage(FILES), { onWarning: () => {} });
}

const MODES = [
  { name: '2025-11-25 stateless', sessions: false },
  { name: '2025-11-25 sessions', sessions: true },
] as const;

for (const framework of FRAMEWORKS) {
  for (const mode of MODES) {
    test(`${framework}, ${mode.name}: the app's own resources/read sees every skill read, and its refusal holds`, async () => {
      const seen: string[] = [];
      const catalog = await catalogOf();
      const served = await serve(framework, { catalog, sessions: mode.sessions, server: gatedApp(catalog, seen), onWarning: () => {} });
      const anonymous = await connectClient(served.url);
      const scoped = await connectClient(served.url, SCOPE);
      try {
        // Exactly the request the fast path used to answer from the source.
        assert.equal(await errorCode(anonymous.client.readResource({ uri: SECRET })), FORBIDDEN, 'the gated SKILL.md is refused without the scope');
        const read = await scoped.client.readResource({ uri: SECRET });
        assert.match(firstText(read), /The secret body/, 'and served with it');
        const open = await anonymous.client.readResource({ uri: 'skill://open/SKILL.md' });
        assert.match(firstText(open), /Open\./);
        assert.deepEqual(seen, [SECRET, SECRET, 'skill://open/SKILL.md'], "every read reached the app's handler");
        // The app's resources/list too; skills/list is still the skills' own (the app gates reads, not the listing).
        const listed = await anonymous.client.listResources();
        assert.deepEqual(
          listed.resources.map((r) => r.uri),
          ['skill://open/SKILL.md'],
        );
        assert.equal(seen.at(-1), 'resources/list');
        const skills = await anonymous.call('skills/list', {});
        assert.equal(skills.skills.length, 2);
      } finally {
        await anonymous.close();
        await scoped.close();
        await served.close();
      }
    });
  }

  test(`${framework}, 2026-07-28: the app's own resources/read sees every skill read, and its refusal holds`, async () => {
    const seen: string[] = [];
    const catalog = await catalogOf();
    const served = await serve(framework, { catalog, server: gatedApp(catalog, seen), onWarning: () => {} });
    try {
      const refused = await modern(served.url, 'resources/read', { uri: SECRET });
      assert.equal(refused.message.error?.code, FORBIDDEN, JSON.stringify(refused.message));
      const read = await modern(served.url, 'resources/read', { uri: SECRET }, { headers: SCOPE });
      assert.match(String(read.message.result?.contents?.[0]?.text), /The secret body/);
      assert.deepEqual(seen, [SECRET, SECRET]);
      const listed = await modern(served.url, 'resources/list', {});
      assert.deepEqual(
        listed.message.result.resources.map((r: { uri: string }) => r.uri),
        ['skill://open/SKILL.md'],
      );
      const skills = await modern(served.url, 'skills/list', {});
      assert.equal(skills.message.result.skills.length, 2);
    } finally {
      await served.close();
    }
  });

  test(`${framework}: a handler the app sets after attach (an McpServer's resources/read replaced) is the one that answers`, async () => {
    const catalog = await catalogOf();
    let asked = 0;
    const server = () => {
      const mcp = new McpServer({ name: 'replaced', version: '1.0.0' });
      attach(mcp, catalog, { onWarning: () => {} });
      mcp.server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
        asked++;
        throw new McpError(FORBIDDEN, `Forbidden: ${request.params.uri}`);
      });
      return mcp;
    };
    const served = await serve(framework, { catalog, server, onWarning: () => {} });
    const client = await connectClient(served.url);
    try {
      assert.equal(await errorCode(client.client.readResource({ uri: SECRET })), FORBIDDEN);
      assert.equal((await modern(served.url, 'resources/read', { uri: SECRET })).message.error?.code, FORBIDDEN);
      assert.equal(asked, 2);
    } finally {
      await client.close();
      await served.close();
    }
  });

  test(`${framework}: a check in the app's server factory holds for skills requests on every path`, async () => {
    const catalog = await catalogOf();
    let built = 0;
    let closed = false;
    const server = () => {
      built++;
      if (closed) throw new Error('maintenance: no new servers');
      return new McpServer({ name: 'factory-gate', version: '1.0.0' });
    };
    const served = await serve(framework, { catalog, server, onWarning: () => {} });
    const client = await connectClient(served.url);
    try {
      const before = built;
      assert.equal((await client.call('skills/list', {})).skills.length, 2);
      assert.equal((await modern(served.url, 'skills/list', {})).message.result.skills.length, 2);
      assert.ok(built >= before + 2, `the factory ran for the skills requests of both eras (${built - before} times)`);
      closed = true;
      await assert.rejects(client.call('skills/list', {}), 'a stateless skills request is refused when the factory refuses');
      await assert.rejects(client.client.readResource({ uri: SECRET }));
      const modernAnswer = await modern(served.url, 'skills/get', { uri: SECRET });
      assert.ok(modernAnswer.status >= 500 || modernAnswer.message?.error, `2026-07-28 refused too: ${modernAnswer.status} ${modernAnswer.text.slice(0, 200)}`);
    } finally {
      await client.close();
      await served.close();
    }
  });
}
