/**
 * /.well-known/agent-skills and the app's own server: every request builds the app's server from
 * its factory, as an MCP request does, so the factory's checks hold (one that throws refuses the
 * request, and nothing is served); a server that answers `resources/read` or `skills/list` with a
 * handler of its own (the documented way to gate reads) decides what a client may read, and this
 * surface cannot ask it, so it answers everything with the one 404 and warns once. Before, the
 * gated SKILL.md was published to anyone here while the MCP route refused it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpError, ReadResourceRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { attach, SkillCatalog, memoryStorage, type SkillWarning } from '@skillmount/core';
import { z } from 'zod';
import { get, index, KINDS, PREFIX, serveWellKnown } from './fixture.js';

const FILES = {
  'open/SKILL.md': '---\nname: open\ndescription: Anyone may read this.\n---\nOpen.\n',
  'secret/SKILL.md': '---\nname: secret\ndescription: Only with the scope.\n---\nThe secret body.\n',
};

/** The answer every path gets when nothing is published there, without the `date` header. */
async function nothingHere(origin: string) {
  const answer = await get(`${origin}${PREFIX}skill-that-exists-nowhere/SKILL.md`);
  assert.equal(answer.status, 404);
  return answer;
}

const OwnSkillsList = z.object({ method: z.literal('skills/list'), params: z.unknown().optional() });

const withoutDate = (headers: Headers) => [...headers].filter(([name]) => name !== 'date');

for (const kind of KINDS) {
  test(`${kind}: a server that owns resources/read gets nothing published here, and one warning`, async (t) => {
    const catalog = await SkillCatalog.load(memoryStorage(FILES), { onWarning: () => {} });
    let built = 0;
    let asked = 0;
    const server = () => {
      built++;
      const low = new Server({ name: 'gated', version: '1.0.0' }, { capabilities: { resources: {} } });
      const skills = attach(low, catalog, { resources: 'manual', onWarning: () => {} });
      low.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
        asked++;
        if (request.params.uri.startsWith('skill://secret/')) throw new McpError(-32001, `Forbidden: ${request.params.uri}`);
        const read = await skills.readResource(request.params.uri, extra);
        if (!read) throw new McpError(-32602, `Resource ${request.params.uri} not found`);
        return read;
      });
      return low;
    };
    const warnings: SkillWarning[] = [];
    const served = await serveWellKnown(kind, catalog, { server, onWarning: (w) => warnings.push(w) });
    t.after(served.close);

    const missing = await nothingHere(served.origin);
    for (const path of ['index.json', 'secret/SKILL.md', 'open/SKILL.md']) {
      const answer = await get(`${served.origin}${PREFIX}${path}`);
      assert.equal(answer.status, 404, `${path}: not published`);
      assert.doesNotMatch(answer.bytes.toString(), /secret body/);
      assert.deepEqual(answer.bytes, missing.bytes, `${path}: the one 404`);
      assert.deepEqual(withoutDate(answer.headers), withoutDate(missing.headers), `${path}: the one 404's headers`);
    }
    assert.equal(built, 4, 'the factory ran for every request');
    assert.equal(asked, 0, "the app's handler was never bypassed: it was not asked, and nothing was read around it");
    const notServed = warnings.filter((w) => w.code === 'well-known-not-served');
    assert.equal(notServed.length, 1, JSON.stringify(warnings));
    assert.match(notServed[0]!.message, /resources\/read/);
    assert.match(notServed[0]!.message, /visible/, 'the warning says what to do');
  });

  test(`${kind}: a server that answers skills/list itself (set after attach) gets nothing published here either`, async (t) => {
    const catalog = await SkillCatalog.load(memoryStorage(FILES), { onWarning: () => {} });
    const server = () => {
      const mcp = new McpServer({ name: 'own-listing', version: '1.0.0' });
      attach(mcp, catalog, { onWarning: () => {} });
      // The app lists skills itself, say a curated subset: that listing is the app's to decide.
      mcp.server.setRequestHandler(OwnSkillsList, async () => ({ skills: [] }));
      return mcp;
    };
    const warnings: SkillWarning[] = [];
    const served = await serveWellKnown(kind, catalog, { server, onWarning: (w) => warnings.push(w) });
    t.after(served.close);
    assert.equal((await get(`${served.origin}${PREFIX}index.json`)).status, 404);
    assert.equal(warnings.filter((w) => w.code === 'well-known-not-served').length, 1);
  });

  test(`${kind}: the factory's checks hold here; a factory that throws refuses the request and serves nothing`, async (t) => {
    const catalog = await SkillCatalog.load(memoryStorage(FILES), { onWarning: () => {} });
    let open = false;
    let built = 0;
    const server = () => {
      built++;
      // An app's own check (a licence, a maintenance switch, a rate it keeps itself): here, a flag.
      if (!open) throw new Error('refused by the app');
      const mcp = new McpServer({ name: 'checked', version: '1.0.0' });
      mcp.registerTool('own-tool', { description: 'The app’s own tool.' }, async () => ({ content: [] }));
      return mcp;
    };
    const served = await serveWellKnown(kind, catalog, { server, onWarning: () => undefined });
    t.after(served.close);

    const refused = await get(`${served.origin}${PREFIX}open/SKILL.md`);
    assert.equal(refused.status, 500, 'the factory threw: refused');
    assert.doesNotMatch(refused.bytes.toString(), /Open\./);
    open = true;
    const listing = await index(served.origin);
    assert.deepEqual(listing.skills.map((s) => s.name).sort(), ['open', 'secret'], 'a server without handlers of its own: published as before');
    const file = await get(`${served.origin}${PREFIX}open/SKILL.md`);
    assert.equal(file.status, 200);
    assert.equal(built, 3, 'the factory ran once per request');
  });
}
