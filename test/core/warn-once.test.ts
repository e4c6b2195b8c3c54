/**
 * Warnings about what a source returned are told once per source and subject (the URI they are
 * about), never once per onWarning function: an app's own stateless route attaches the source to a
 * new server per request, often with a new arrow as onWarning, and must not hear the same warning
 * per request. Real HTTP on loopback, the SDK's own client, a hand-written source.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { attach, buildSkillEntry, type SkillEntry, type SkillSource, type SkillWarning } from '@skillmount/core';
import { connectClient } from '../support/client.js';
import { listenHttp } from '../support/apps.js';
import { skillMd } from '../support/skill-md.js';
import { statelessTransport } from '../support/stateless-route.js';

const sha = (content: string) => 'sha256:' + createHash('sha256').update(content).digest('hex');
const notes = buildSkillEntry('notes', { 'SKILL.md': skillMd('notes') });

/** An entry whose frontmatter name is not its folder's: `invalid-entry`, dropped from every page. */
function misnamed(folder: string): SkillEntry {
  const uri = `skill://${folder}/SKILL.md`;
  return { ...notes, uri, resources: [{ uri, digest: sha('x'), size: 1 }], frontmatter: { name: 'other', description: 'd' } };
}

function listing(skills: () => SkillEntry[]): SkillSource {
  return {
    list: async () => ({ skills: skills() }),
    get: async (uri) => skills().find((entry) => entry.uri === uri),
    read: async () => undefined,
  };
}

/**
 * The route an app writes itself: per request a new McpServer, `attach(server, source, { onWarning })`
 * with a new arrow each time, and a stateless transport. Resolves to the route's URL and what it heard.
 */
async function ownStatelessRoute(source: () => SkillSource) {
  const warned: SkillWarning[] = [];
  const sinks = new Set<unknown>();
  const http = await listenHttp(async (req, res) => {
    const mcp = new McpServer({ name: 'app', version: '1.0.0' });
    const onWarning = (warning: SkillWarning) => void warned.push(warning);
    sinks.add(onWarning);
    attach(mcp, source(), { onWarning });
    const transport = await statelessTransport(mcp, res);
    await transport.handleRequest(req, res);
  });
  return { url: http.url, warned, sinks, close: http.close };
}

describe('a warning about a source is told once per source and subject, whatever onWarning function hears it', { timeout: 60_000 }, () => {
  test('a fresh onWarning arrow per attach on a stateless own route: the same invalid entry listed 20 times is told once', async () => {
    const bad = misnamed('misnamed');
    const source = listing(() => [notes, bad]);
    const route = await ownStatelessRoute(() => source);
    const { call, close } = await connectClient(route.url);
    try {
      for (let i = 0; i < 20; i++) {
        const page = await call('skills/list');
        assert.deepEqual(
          page.skills.map((s: SkillEntry) => s.uri),
          [notes.uri],
          'the invalid entry is dropped from every page',
        );
      }
      assert.ok(route.sinks.size >= 21, `a new server and onWarning per request (${route.sinks.size})`);
      assert.deepEqual(
        route.warned.map((w) => [w.code, w.uri]),
        [['invalid-entry', bad.uri]],
      );
      assert.match(route.warned[0]!.message, /dropped from the page/);
    } finally {
      await close();
      await route.close();
    }
  });

  test('another URI, or another source with the same bad entry, is told on its own', async () => {
    const skills = [notes, misnamed('first')];
    const first = listing(() => skills);
    const second = listing(() => [misnamed('first')]);
    let which = first;
    const route = await ownStatelessRoute(() => which);
    const { call, close } = await connectClient(route.url);
    try {
      await call('skills/list');
      await call('skills/list');
      skills.push(misnamed('later'));
      await call('skills/list');
      await call('skills/list');
      which = second;
      await call('skills/list');
      await call('skills/list');
      assert.deepEqual(
        route.warned.map((w) => w.uri),
        ['skill://first/SKILL.md', 'skill://later/SKILL.md', 'skill://first/SKILL.md'],
      );
    } finally {
      await close();
      await route.close();
    }
  });

  test('what is remembered is bounded: 1000 bad entries are told once, 1100 again when listed again', async () => {
    for (const [count, again] of [
      [1000, 0],
      [1100, 1100],
    ] as const) {
      const skills = Array.from({ length: count }, (_, i) => misnamed(`bad-${i}`));
      const source = listing(() => skills);
      const route = await ownStatelessRoute(() => source);
      // A client with the Skills extension: its initialize lists nothing (instructions: 'auto'), so the counts are skills/list's.
      const { call, close } = await connectClient(route.url, {}, { extensions: { 'io.modelcontextprotocol/skills': {} } });
      try {
        await call('skills/list');
        assert.equal(route.warned.length, count, 'each bad entry told the first time');
        await call('skills/list');
        // Past 1024 per source the oldest is forgotten: a full scan of 1100 finds each one forgotten again.
        assert.equal(route.warned.length - count, again);
      } finally {
        await close();
        await route.close();
      }
    }
  });
});
