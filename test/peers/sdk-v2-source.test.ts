/**
 * One hand-written `SkillSource` in the official SDK v2's style (`undefined` for what it does not
 * serve, `{ text }` and `{ bytes }` from read, one invalid entry in its list), served twice on
 * loopback: by skillmount (the Fastify plugin's `source` option) and by the SDK v2 itself
 * (`SkillsExtension` + `createMcpHandler`). The same requests, on both protocol eras, must get the
 * same answers on the wire; each remaining difference is pinned below with the reason for it.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { McpServer as V2McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { SkillsExtension, type SkillSource as V2SkillSource } from '@modelcontextprotocol/server/ext/skills';
import { SkillsClient } from '@skillmount/core/client';
import type { SkillSource } from '@skillmount/core';
import skillsPlugin from '@skillmount/fastify';
import Fastify from 'fastify';
import { connectClient } from '../support/client.js';
import { connectV1 } from '../client/support/servers.js';
import { serveFetchHandler } from '../client/support/v2-http.js';
import { listenFastify } from '../support/apps.js';
import { modern } from '../modern/support.js';

// --- The source: what an app written for the SDK v2 has, unchanged ------------------------------

const encoder = new TextEncoder();
const sha256 = (bytes: Uint8Array) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

const SKILL_MD =
  '---\nname: release-notes\ndescription: Writes release notes from merged changes.\n---\n# Release notes\n\nFollow [the template](templates/notes.md).\n';
const TEMPLATE = '# Version {version}\n\n## Added ✓\n\n- …\n';
const LOGO = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]);
const SCRIPT = '#!/bin/sh\ngit log --merges --oneline "$1"..HEAD\n';

/** Files by URI: text files answered as `{ text }`, the others as `{ bytes }`. */
const FILES = new Map<string, { text: string; mimeType: string } | { bytes: Uint8Array }>([
  ['skill://team/release-notes/SKILL.md', { text: SKILL_MD, mimeType: 'text/markdown' }],
  ['skill://team/release-notes/templates/notes.md', { text: TEMPLATE, mimeType: 'text/markdown' }],
  ['skill://team/release-notes/assets/logo.png', { bytes: LOGO }],
  ['skill://team/release-notes/scripts/merged.sh', { bytes: encoder.encode(SCRIPT) }],
]);
const bytesOf = (file: { text: string } | { bytes: Uint8Array }) => ('text' in file ? encoder.encode(file.text) : file.bytes);

const releaseNotes = {
  uri: 'skill://team/release-notes/SKILL.md',
  frontmatter: { name: 'release-notes', description: 'Writes release notes from merged changes.' },
  resources: [...FILES].map(([uri, file]) => ({ uri, digest: sha256(bytesOf(file)), size: bytesOf(file).byteLength })).sort((a, b) => (a.uri < b.uri ? -1 : 1)),
};
/** Invalid: its name is not the last segment of its path. Both servers must leave it out of skills/list. */
const misnamed = {
  uri: 'skill://team/changelog/SKILL.md',
  frontmatter: { name: 'release-notes', description: 'Misnamed on purpose.' },
  resources: [{ uri: 'skill://team/changelog/SKILL.md', digest: sha256(encoder.encode('x')), size: 1 }],
};
const ENTRIES = [misnamed, releaseNotes];

// No context parameter: the same object meets both SDKs' SkillSource types.
const source = {
  async list() {
    return { skills: ENTRIES };
  },
  async get(uri: string) {
    return ENTRIES.find((entry) => entry.uri === uri);
  },
  async read(uri: string) {
    return FILES.get(uri);
  },
} satisfies V2SkillSource & SkillSource;

// --- Both servers --------------------------------------------------------------------------------

interface Served {
  name: 'skillmount' | 'sdk-v2';
  url: string;
  warnings: string[];
  close(): Promise<void>;
}

async function serveSkillmount(): Promise<Served> {
  const warnings: string[] = [];
  // A request timeout, as a deployed app sets one: the plugin warns of its absence otherwise.
  const app = Fastify({ requestTimeout: 30_000 });
  await app.register(skillsPlugin, { source, onWarning: (w) => warnings.push(`${w.uri}: ${w.message}`) });
  return { name: 'skillmount', ...(await listenFastify(app)), warnings };
}

async function serveSdkV2(): Promise<Served> {
  const warnings: string[] = [];
  const extension = new SkillsExtension({ source, onWarning: (w) => warnings.push(`${w.path}: ${w.message}`) });
  const handler = createMcpHandler(() => {
    const mcp = new V2McpServer({ name: 'v2-skills', version: '1.0.0' });
    extension.attach(mcp);
    return mcp;
  });
  const served = await serveFetchHandler(handler);
  return { name: 'sdk-v2', url: served.url, warnings, close: served.close };
}

// --- Asking both the same thing -------------------------------------------------------------------

type Era = '2025-11-25' | '2026-07-28';
type Answer = { result: Record<string, any> } | { error: { code: number; message: string; data?: unknown } };

/** One request on one era: 2025-11-25 through the SDK v1 client, 2026-07-28 as a raw request. */
async function ask(served: Served, era: Era, method: string, params: Record<string, unknown> = {}): Promise<Answer> {
  if (era === '2026-07-28') {
    const { message } = await modern(served.url, method, params);
    return 'error' in message ? { error: message.error } : { result: message.result };
  }
  const client = await connectClient(served.url);
  try {
    return { result: await client.call(method, params) };
  } catch (error) {
    const { code, message, data } = error as { code: number; message: string; data?: unknown };
    return { error: { code, message, ...(data !== undefined ? { data } : {}) } };
  } finally {
    await client.close();
  }
}

/**
 * What the two servers must agree on. Left out, each for a reason:
 * - `_meta` holds each server's own name and version;
 * - error messages are each server's own prose (the code and `data` are the contract);
 * - on 2025-11-25 skillmount sends `resultType`, `ttlMs` and `cacheScope` on every result, where
 *   the SDK v2 sends them only on 2026-07-28: the fields are harmless earlier, and one shape for
 *   both eras keeps caches in hosts simple. On 2026-07-28 both send all three, and they are compared.
 */
function normalised(answer: Answer, era: Era): unknown {
  if ('error' in answer) return { error: { code: answer.error.code, ...(answer.error.data !== undefined ? { data: answer.error.data } : {}) } };
  const { _meta, ...result } = answer.result;
  if (era === '2025-11-25') {
    delete result.resultType;
    delete result.ttlMs;
    delete result.cacheScope;
  }
  return { result };
}

/** A file's bytes from a `resources/read` result, whichever way it was encoded. */
function contentBytes(answer: Answer): Buffer {
  assert.ok('result' in answer, JSON.stringify(answer));
  const [content, ...more] = answer.result.contents;
  assert.equal(more.length, 0, 'exactly one content item');
  return typeof content.text === 'string' ? Buffer.from(content.text, 'utf8') : Buffer.from(content.blob, 'base64');
}

describe('one SDK v2-style SkillSource, served by skillmount and by the SDK v2', { timeout: 240_000 }, () => {
  let ours: Served;
  let theirs: Served;
  before(async () => {
    [ours, theirs] = await Promise.all([serveSkillmount(), serveSdkV2()]);
  });
  after(async () => {
    await ours?.close();
    await theirs?.close();
  });

  for (const era of ['2025-11-25', '2026-07-28'] as const) {
    describe(`protocol ${era}`, () => {
      const same = async (method: string, params: Record<string, unknown> = {}) => {
        const [a, b] = [await ask(ours, era, method, params), await ask(theirs, era, method, params)];
        assert.deepEqual(
          normalised(a, era),
          normalised(b, era),
          `${method} ${JSON.stringify(params)}: skillmount ${JSON.stringify(a)}\nSDK v2 ${JSON.stringify(b)}`,
        );
        return [a, b] as const;
      };

      test('skills/list: the same page, the invalid entry dropped by both', async () => {
        const [a] = await same('skills/list');
        assert.ok('result' in a);
        assert.deepEqual(a.result.skills, [releaseNotes]);
        if (era === '2026-07-28') assert.deepEqual([a.result.resultType, a.result.ttlMs, a.result.cacheScope], ['complete', 0, 'private']);
      });

      test('skills/get: the entry itself; an unknown skill -32602 from both; the invalid entry -32603 from both', async () => {
        const [a] = await same('skills/get', { uri: releaseNotes.uri });
        assert.ok('result' in a);
        assert.deepEqual(a.result.skill, releaseNotes);
        const nowhere = 'skill://team/nowhere/SKILL.md';
        const [u, v] = [await ask(ours, era, 'skills/get', { uri: nowhere }), await ask(theirs, era, 'skills/get', { uri: nowhere })];
        assert.ok('error' in u && 'error' in v);
        assert.deepEqual([u.error.code, u.error.message], [v.error.code, v.error.message]);
        assert.equal(u.error.code, -32602);
        // Deliberate difference: skillmount's miss carries data: { uri }, as its catalog's does and as
        // every resources/read miss does on both servers, so a host tells "not found" from other bad
        // params the same way for every method; the SDK v2's skills/get miss has no data.
        assert.deepEqual(u.error.data, { uri: nowhere });
        assert.equal(v.error.data, undefined);
        const [o, t] = [await ask(ours, era, 'skills/get', { uri: misnamed.uri }), await ask(theirs, era, 'skills/get', { uri: misnamed.uri })];
        assert.ok('error' in o && 'error' in t);
        assert.equal(o.error.code, -32603);
        assert.equal(t.error.code, -32603);
        // Deliberate difference: the SDK v2 puts the entry's problems in the message; skillmount
        // keeps the source's details in the server's log and tells the client only that it failed.
        assert.doesNotMatch(o.error.message, /must match|last path segment|name/);
      });

      test('resources/read of { text }: the same bytes, verified by our client against the entry on both', async () => {
        const uri = 'skill://team/release-notes/templates/notes.md';
        const [a, b] = await same('resources/read', { uri });
        assert.ok(contentBytes(a).equals(Buffer.from(TEMPLATE, 'utf8')));
        assert.ok(contentBytes(b).equals(Buffer.from(TEMPLATE, 'utf8')));
        const [md] = await same('resources/read', { uri: releaseNotes.uri });
        assert.ok('result' in md);
        assert.deepEqual(md.result.contents, [{ uri: releaseNotes.uri, mimeType: 'text/markdown', text: SKILL_MD }]);
        if (era === '2025-11-25') {
          for (const served of [ours, theirs]) {
            const client = await connectV1(served.url);
            try {
              const skills = new SkillsClient(client);
              const file = await skills.read(releaseNotes, 'templates/notes.md');
              assert.equal(file.verified, true, served.name);
              assert.equal(file.text, TEMPLATE, served.name);
              const md = await skills.read(releaseNotes);
              assert.deepEqual(md.frontmatter, releaseNotes.frontmatter, served.name);
            } finally {
              await client.close();
            }
          }
        }
      });

      test('resources/read of { bytes }: the same bytes; an unknown file -32602 with data { uri } from both', async () => {
        const uri = 'skill://team/release-notes/assets/logo.png';
        const [a, b] = await same('resources/read', { uri });
        assert.ok(contentBytes(a).equals(Buffer.from(LOGO)));
        assert.ok(contentBytes(b).equals(Buffer.from(LOGO)));
        // Deliberate difference: bytes that are valid UTF-8 go out as text from skillmount (the
        // extension's rule, and what its catalog does for every file); the SDK v2 sends { bytes }
        // as a blob. The bytes a host decodes are the same.
        const script = 'skill://team/release-notes/scripts/merged.sh';
        const [s1, s2] = [await ask(ours, era, 'resources/read', { uri: script }), await ask(theirs, era, 'resources/read', { uri: script })];
        assert.ok('result' in s1 && 'result' in s2);
        assert.equal(s1.result.contents[0].text, SCRIPT);
        assert.equal(typeof s2.result.contents[0].blob, 'string');
        assert.ok(contentBytes(s1).equals(contentBytes(s2)));
        const missing = 'skill://team/release-notes/missing.md';
        const [m] = await same('resources/read', { uri: missing });
        assert.ok('error' in m);
        assert.deepEqual([m.error.code, m.error.data], [-32602, { uri: missing }]);
      });
    });
  }

  test('both warned about the invalid entry; skillmount once, the SDK v2 on every list', async () => {
    for (const served of [ours, theirs])
      assert.ok(served.warnings.length > 0 && served.warnings.every((w) => w.startsWith(misnamed.uri)), `${served.name}: ${served.warnings.join('\n')}`);
    // Deliberate difference: a list call per second would otherwise write a line per second.
    assert.equal(ours.warnings.filter((w) => /dropped from the page/.test(w)).length, 1, ours.warnings.join('\n'));
    assert.ok(theirs.warnings.filter((w) => /dropped from skills\/list/.test(w)).length >= 2, theirs.warnings.join('\n'));
  });
});
