/**
 * The SkillSource contract a hand-written source meets, over real HTTP on both protocol eras of
 * one endpoint (2025-11-25 through the SDK v1 client, 2026-07-28 as raw requests): `undefined`
 * for what it does not serve, `read()` as bytes, `{ bytes }` or `{ text }`, anything else refused
 * with -32603 and one warning, and invalid entries dropped from skills/list (failing it under strict).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import {
  SkillCatalog,
  buildSkillEntry,
  createSkillsEndpoint,
  memoryStorage,
  tenantCatalogs,
  type SkillEntry,
  type SkillSource,
  type SkillsEndpointOptions,
  type SkillWarning,
} from '@skillmount/core';
import { connectClient, WITH_SKILLS_EXTENSION } from '../support/client.js';
import { modern } from '../modern/support.js';
import { readJsonBody } from './helpers.js';
import { listenHttp } from '../support/apps.js';
import { skillMd } from '../support/skill-md.js';

const sha = (content: string | Uint8Array) => 'sha256:' + createHash('sha256').update(content).digest('hex');

interface WireError {
  code: number;
  message: string;
  data?: unknown;
}

type Outcome = { result: Record<string, any> } | { error: WireError };

/** One endpoint, asked the same thing on both eras. */
interface Eras {
  legacy(method: string, params?: Record<string, unknown>): Promise<Outcome>;
  modern(method: string, params?: Record<string, unknown>): Promise<Outcome>;
  both(method: string, params?: Record<string, unknown>): Promise<[Outcome, Outcome]>;
  close(): Promise<void>;
}

async function serve(options: SkillsEndpointOptions): Promise<Eras> {
  const endpoint = createSkillsEndpoint(options);
  const http = await listenHttp(async (req, res) => {
    const body = req.method === 'POST' ? await readJsonBody(req) : undefined;
    await endpoint.handle(req, res, body);
  });
  const client = await connectClient(http.url, {}, WITH_SKILLS_EXTENSION);
  const legacy = async (method: string, params: Record<string, unknown> = {}): Promise<Outcome> => {
    try {
      return { result: await client.call(method, params) };
    } catch (error) {
      const { code, message, data } = error as WireError;
      // The SDK v1 client puts "MCP error <code>: " before the message it received.
      return { error: { code, message: message.replace(/^MCP error -?\d+: /, ''), ...(data !== undefined ? { data } : {}) } };
    }
  };
  const modernCall = async (method: string, params: Record<string, unknown> = {}): Promise<Outcome> => {
    // A request's own `_meta` (a named digest) goes beside the 2026-07-28 envelope.
    const { message } = await modern(http.url, method, params, { meta: params._meta as Record<string, unknown> | undefined });
    return 'error' in message ? { error: message.error } : { result: message.result };
  };
  return {
    legacy,
    modern: modernCall,
    both: async (method, params) => [await legacy(method, params), await modernCall(method, params)],
    close: async () => {
      await client.close();
      await endpoint.close();
      await http.close();
    },
  };
}

function errorOf(outcome: Outcome): WireError {
  assert.ok('error' in outcome, `expected an error, got ${JSON.stringify(outcome)}`);
  return outcome.error;
}

function resultOf(outcome: Outcome): Record<string, any> {
  assert.ok('result' in outcome, `expected a result, got ${JSON.stringify(outcome)}`);
  return outcome.result;
}

const collect = () => {
  const list: SkillWarning[] = [];
  return { list, onWarning: (w: SkillWarning) => void list.push(w) };
};

const NOTES = '# Notes\n\nText with ü and ✓.\n';
const BINARY = new Uint8Array([0, 159, 146, 150, 255]);
const notes = buildSkillEntry('notes', { 'SKILL.md': skillMd('notes'), 'notes.md': NOTES, 'data.bin': BINARY });

/** A source written the SDK v2 way: `undefined` for what it does not have, `{ text }` and `{ bytes }` from read. */
function v2StyleSource(overrides: Partial<SkillSource> = {}): SkillSource {
  return {
    list: async () => ({ skills: [notes] }),
    get: async (uri) => (uri === notes.uri ? notes : undefined),
    read: async (uri) => {
      if (uri === 'skill://notes/SKILL.md') return { text: skillMd('notes') };
      if (uri === 'skill://notes/notes.md') return { text: NOTES, mimeType: 'text/markdown' };
      if (uri === 'skill://notes/data.bin') return { bytes: BINARY };
      return undefined;
    },
    readDirectory: async () => undefined,
    ...overrides,
  };
}

describe('a SkillSource that answers undefined for what it does not serve', { timeout: 30_000 }, () => {
  test('skills/get, resources/read and resources/directory/read answer exactly as a catalog does for an unknown URI, on both eras', async () => {
    const catalog = await SkillCatalog.load(memoryStorage({ 'notes/SKILL.md': skillMd('notes') }), { onWarning: () => {} });
    const ours = await serve({ source: v2StyleSource() });
    const theirs = await serve({ source: catalog });
    try {
      const asks: [string, Record<string, unknown>][] = [
        ['skills/get', { uri: 'skill://nowhere/SKILL.md' }],
        ['resources/read', { uri: 'skill://nowhere/SKILL.md' }],
        ['resources/read', { uri: 'skill://notes/missing.md' }],
        ['resources/directory/read', { uri: 'skill://nowhere' }],
      ];
      for (const [method, params] of asks) {
        const [legacy, modernAnswer] = (await ours.both(method, params)).map(errorOf);
        const [catalogLegacy, catalogModern] = (await theirs.both(method, params)).map(errorOf);
        assert.equal(legacy!.code, -32602, `${method} ${params.uri}`);
        assert.deepEqual(legacy!.data, { uri: params.uri });
        // Byte for byte the catalog's answer: nothing tells a source's miss from a catalog's.
        assert.deepEqual(legacy, catalogLegacy, `${method} ${params.uri} (2025-11-25)`);
        assert.deepEqual(modernAnswer, catalogModern, `${method} ${params.uri} (2026-07-28)`);
        assert.deepEqual(modernAnswer, legacy, `${method} ${params.uri}: the same on both eras`);
      }
    } finally {
      await ours.close();
      await theirs.close();
    }
  });

  test('a tenant whose loaded source answers undefined gets the catalog answer too', async () => {
    const catalog = await SkillCatalog.load(memoryStorage({ 'notes/SKILL.md': skillMd('notes') }), { onWarning: () => {} });
    const tenants = tenantCatalogs({ key: () => 'acme', load: async () => v2StyleSource() });
    const ours = await serve({ source: tenants });
    const theirs = await serve({ source: catalog });
    try {
      for (const [method, uri] of [
        ['skills/get', 'skill://nowhere/SKILL.md'],
        ['resources/read', 'skill://notes/missing.md'],
      ] as const) {
        const [legacy, modernAnswer] = (await ours.both(method, { uri })).map(errorOf);
        const [catalogLegacy, catalogModern] = (await theirs.both(method, { uri })).map(errorOf);
        assert.deepEqual(legacy, catalogLegacy, `${method} (2025-11-25)`);
        assert.deepEqual(modernAnswer, catalogModern, `${method} (2026-07-28)`);
      }
      for (const outcome of await ours.both('resources/read', { uri: 'skill://notes/notes.md' })) assert.equal(resultOf(outcome).contents[0].text, NOTES);
    } finally {
      await ours.close();
      await theirs.close();
      await tenants.close();
    }
  });

  test('null means the same as undefined', async () => {
    const eras = await serve({ source: v2StyleSource({ get: async () => null, read: async () => null, readDirectory: async () => null }) });
    try {
      for (const [method, uri] of [
        ['skills/get', notes.uri],
        ['resources/read', 'skill://notes/notes.md'],
        ['resources/directory/read', 'skill://notes'],
      ] as const) {
        for (const outcome of await eras.both(method, { uri })) assert.deepEqual([errorOf(outcome).code, errorOf(outcome).data], [-32602, { uri }]);
      }
    } finally {
      await eras.close();
    }
  });
});

describe('what read() may return', { timeout: 30_000 }, () => {
  test('{ text } is sent as text, { bytes } and bare bytes by their content, with the mimeType given', async () => {
    const eras = await serve({
      source: v2StyleSource({
        read: async (uri) => {
          if (uri.endsWith('notes.md')) return { text: NOTES, mimeType: 'text/markdown' };
          if (uri.endsWith('data.bin')) return BINARY;
          return { bytes: new TextEncoder().encode(skillMd('notes')) };
        },
      }),
    });
    try {
      for (const outcome of await eras.both('resources/read', { uri: 'skill://notes/notes.md' })) {
        assert.deepEqual(resultOf(outcome).contents, [{ uri: 'skill://notes/notes.md', text: NOTES, mimeType: 'text/markdown' }]);
      }
      for (const outcome of await eras.both('resources/read', { uri: 'skill://notes/data.bin' })) {
        assert.deepEqual(resultOf(outcome).contents, [{ uri: 'skill://notes/data.bin', blob: Buffer.from(BINARY).toString('base64') }]);
      }
      for (const outcome of await eras.both('resources/read', { uri: 'skill://notes/SKILL.md' })) {
        assert.deepEqual(resultOf(outcome).contents, [{ uri: 'skill://notes/SKILL.md', text: skillMd('notes') }]);
      }
    } finally {
      await eras.close();
    }
  });

  test('{ text, published } is checked over its UTF-8 bytes: served when they match, refused as changed when not; a named digest must be the published one', async () => {
    const w = collect();
    const published = { size: Buffer.byteLength(NOTES), digest: sha(NOTES) };
    const eras = await serve({
      source: v2StyleSource({ read: async (uri) => ({ text: uri.endsWith('stale.md') ? NOTES + 'edited' : NOTES, published }) }),
      attach: { onWarning: w.onWarning },
    });
    try {
      for (const outcome of await eras.both('resources/read', { uri: 'skill://notes/notes.md' })) {
        assert.equal(resultOf(outcome).contents[0].text, NOTES);
      }
      for (const outcome of await eras.both('resources/read', { uri: 'skill://notes/stale.md' })) {
        const error = errorOf(outcome);
        assert.equal(error.code, -32603);
        assert.ok(!error.message.includes('edited'));
      }
      assert.deepEqual(
        w.list.map((x) => x.code),
        ['changed', 'changed'],
      );
      // A read naming a digest: the one published is served; any other is an entry that changed (a custom source keeps no earlier bytes).
      const naming = (digest: string) => ({ uri: 'skill://notes/notes.md', _meta: { 'io.github.skillmount/digest': digest } });
      for (const outcome of await eras.both('resources/read', naming(published.digest))) assert.equal(resultOf(outcome).contents[0].text, NOTES);
      const other = sha('an earlier version');
      for (const outcome of await eras.both('resources/read', naming(other))) {
        assert.deepEqual(errorOf(outcome).data, { uri: 'skill://notes/notes.md', digest: other, reason: 'entry-changed' });
      }
    } finally {
      await eras.close();
    }
  });

  const broken: [string, unknown][] = [
    ['a number', 42],
    ['a string', 'the content'],
    ['an empty object', {}],
    ['{ bytes } that are a string', { bytes: 'abc' }],
    ['{ text } that is a number', { text: 7 }],
    ['both bytes and text', { bytes: new Uint8Array(1), text: 'a' }],
    ['text with a lone surrogate', { text: 'a\uD800b' }],
    ['a mimeType that is not a string', { text: 'a', mimeType: 5 }],
    ['a published that is not { size, digest }', { text: 'a', published: { size: '1' } }],
  ];
  for (const [what, answer] of broken) {
    test(`${what} → -32603 without the cause, and one invalid-read-result warning for any number of reads`, async () => {
      const w = collect();
      const eras = await serve({ source: v2StyleSource({ read: async () => answer as never }), attach: { onWarning: w.onWarning } });
      try {
        for (let i = 0; i < 2; i++) {
          for (const outcome of await eras.both('resources/read', { uri: 'skill://notes/notes.md' })) {
            const error = errorOf(outcome);
            assert.equal(error.code, -32603);
            assert.equal(error.message, "The server's skill source gave an invalid answer to resources/read for skill://notes/notes.md");
          }
        }
        assert.equal(w.list.length, 1, JSON.stringify(w.list));
        assert.equal(w.list[0]!.code, 'invalid-read-result');
        assert.equal(w.list[0]!.uri, 'skill://notes/notes.md');
      } finally {
        await eras.close();
      }
    });
  }
});

describe('pages a source returns', { timeout: 30_000 }, () => {
  const pages: [string, Partial<SkillSource>, string, Record<string, unknown>][] = [
    ['list() resolving undefined', { list: async () => undefined as never }, 'skills/list', {}],
    ['list() with skills that are not an array', { list: async () => ({ skills: 'notes' }) as never }, 'skills/list', {}],
    ['list() with a numeric nextCursor', { list: async () => ({ skills: [], nextCursor: 2 }) as never }, 'skills/list', {}],
    ['readDirectory() without resources', { readDirectory: async () => ({}) as never }, 'resources/directory/read', { uri: 'skill://notes' }],
  ];
  for (const [what, overrides, method, params] of pages) {
    test(`${what} → -32603 and one invalid-page warning`, async () => {
      const w = collect();
      const eras = await serve({ source: v2StyleSource(overrides), attach: { onWarning: w.onWarning } });
      try {
        for (const outcome of await eras.both(method, params)) {
          const error = errorOf(outcome);
          assert.equal(error.code, -32603);
          assert.match(error.message, /invalid answer/);
        }
        assert.deepEqual(
          w.list.map((x) => x.code),
          ['invalid-page'],
        );
      } finally {
        await eras.close();
      }
    });
  }
});

describe('an invalid entry from a custom source', { timeout: 30_000 }, () => {
  const MARK = 'SECRET-MARKER-c41d';
  const misnamed: SkillEntry = {
    ...notes,
    uri: 'skill://misnamed/SKILL.md',
    resources: [{ uri: 'skill://misnamed/SKILL.md', digest: sha('x'), size: 1 }],
    frontmatter: { name: 'other', description: MARK },
  };
  const escaping: SkillEntry = {
    ...notes,
    uri: 'skill://escaping/SKILL.md',
    frontmatter: { name: 'escaping', description: 'd' },
    resources: [
      { uri: 'skill://escaping/SKILL.md', digest: sha('x'), size: 1 },
      { uri: `skill://${MARK}/x.md`, digest: sha('x'), size: 1 },
    ],
  };
  const badDigest: SkillEntry = {
    ...notes,
    uri: 'skill://bad-digest/SKILL.md',
    frontmatter: { name: 'bad-digest', description: 'd' },
    resources: [{ uri: 'skill://bad-digest/SKILL.md', digest: 'sha256:ABC', size: 1 }],
  };
  const listed = [misnamed, notes, escaping, badDigest];
  const source = () => v2StyleSource({ list: async () => ({ skills: listed }), get: async (uri) => listed.find((e) => e.uri === uri) });

  test('is dropped from the skills/list page on both eras, with one warning per entry however often it is listed', async () => {
    const w = collect();
    const eras = await serve({ source: source(), attach: { onWarning: w.onWarning } });
    try {
      for (let i = 0; i < 3; i++) {
        for (const outcome of await eras.both('skills/list')) assert.deepEqual(resultOf(outcome).skills, [JSON.parse(JSON.stringify(notes))]);
      }
      assert.deepEqual(
        w.list.map((x) => [x.code, x.uri]),
        [
          ['invalid-entry', misnamed.uri],
          ['invalid-entry', escaping.uri],
          ['invalid-entry', badDigest.uri],
        ],
      );
      assert.match(w.list[0]!.message, /name/);
      assert.match(w.list[1]!.message, /outside the skill folder/);
      assert.match(w.list[2]!.message, /digest/);
      for (const warning of w.list) assert.match(warning.message, /^skills\/list: .*dropped from the page/);
    } finally {
      await eras.close();
    }
  });

  test('fails the whole page under strict, and skills/get of it fails in any mode; the entry never reaches the wire', async () => {
    for (const strict of [true, false]) {
      const w = collect();
      const eras = await serve({ source: source(), attach: { onWarning: w.onWarning, strict } });
      try {
        if (strict) {
          for (const outcome of await eras.both('skills/list')) assert.equal(errorOf(outcome).code, -32603);
        }
        for (const entry of [misnamed, escaping, badDigest]) {
          for (const outcome of await eras.both('skills/get', { uri: entry.uri })) {
            const error = errorOf(outcome);
            assert.equal(error.code, -32603);
            assert.ok(!JSON.stringify(error).includes(MARK));
          }
        }
        assert.ok(w.list.every((x) => x.code === 'invalid-entry'));
        // Once per URI: under strict the page failure tells of the first entry, and its get is not told again.
        assert.deepEqual(
          w.list.map((x) => x.uri),
          [misnamed.uri, escaping.uri, badDigest.uri],
          JSON.stringify(w.list),
        );
        if (strict) assert.match(w.list[0]!.message, /strict is on/);
        assert.deepEqual(resultOf(await eras.legacy('skills/get', { uri: notes.uri })).skill, JSON.parse(JSON.stringify(notes)));
      } finally {
        await eras.close();
      }
    }
  });

  test('attach refuses a strict that is not a boolean', async () => {
    const { attach } = await import('@skillmount/core');
    const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
    assert.throws(() => attach(new McpServer({ name: 'a', version: '1' }), source(), { strict: 'yes' as never }), /option "strict" must be true or false/);
  });
});
