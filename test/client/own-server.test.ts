/**
 * The skills client against our own server (createSkillsEndpoint + SkillCatalog over examples/skills
 * and a folder of awkward names), over real HTTP: the shared client suite, and what only our server
 * answers: paging and cache fields, search through its search_skills tool, lengths in characters, a
 * client entry point free of server code.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CatalogOptions } from '@skillmount/core';
import { SkillsClient, type SkillEntry, type SkillResource } from '@skillmount/core/client';
import { waitFor } from '../support/wait.js';
import { SkillCatalog } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import { EXAMPLES } from '../support/skills-suite.js';
import { GIT, REFUNDS, skillsClientSuite } from '../support/skills-client-suite.js';
import { connectV1, serveOurFolder, serveOurs, type Served } from './support/servers.js';

skillsClientSuite('our server', serveOurFolder, {
  more(context) {
    test('speaks the 2025-11-25 protocol', () => {
      assert.equal(context().skills.protocolVersion, '2025-11-25');
    });

    test('list() walks every page and validates every entry', async () => {
      const { skills, served } = context();
      const pagesBefore = served.methods!.filter((m) => m === 'skills/list').length;
      const listing = await skills.list();
      assert.deepEqual(
        listing.skills.map((s) => s.uri),
        [REFUNDS, GIT, 'skill://pdf-processing/SKILL.md'],
      );
      assert.deepEqual(listing.invalid, []);
      assert.equal(listing.nextCursor, undefined);
      assert.equal(listing.ttlMs, 0);
      assert.equal(listing.cacheScope, 'private');
      assert.equal(served.methods!.filter((m) => m === 'skills/list').length - pagesBefore, 3, 'one request per page');
    });

    test('list({ cursor }) returns that one page and its nextCursor', async () => {
      const { skills, client } = context();
      const first = await client.request({ method: 'skills/list', params: {} } as never, ResultSchema);
      const second = await skills.list({ cursor: first.nextCursor as string });
      assert.deepEqual(
        second.skills.map((s) => s.uri),
        [GIT],
      );
      assert.equal(typeof second.nextCursor, 'string');
      const third = await skills.list({ cursor: second.nextCursor! });
      assert.deepEqual(
        third.skills.map((s) => s.uri),
        ['skill://pdf-processing/SKILL.md'],
      );
      assert.equal(third.nextCursor, undefined);
    });

    test('get() returns each listed entry with its cache fields', async () => {
      const { skills, listed } = context();
      for (const entry of listed) {
        const got = await skills.get(entry.uri);
        assert.deepEqual(got.skill, entry);
        assert.equal(got.ttlMs, 0);
        assert.equal(got.cacheScope, 'private');
      }
    });
  },
});

test("search() uses our server's search_skills tool when it lists one: the index's order, each entry got and verifiable", async () => {
  const catalog = await SkillCatalog.load(fsStorage(EXAMPLES), { search: true, onWarning: () => {} });
  const served = await serveOurs(catalog, { search: true });
  const client = await connectV1(served.url);
  try {
    const skills = new SkillsClient(client);
    const found = await skills.search('pdf forms');
    assert.equal(found.ranked, 'server');
    assert.deepEqual(found.skills, JSON.parse(JSON.stringify(catalog.search('pdf forms').skills)));
    assert.equal((await skills.read(found.skills[0]!)).verified, true);
    const before = served.methods.length;
    const paged = await skills.search('git refund pdf', { limit: 1 });
    const next = await skills.search('git refund pdf', { limit: 1, cursor: paged.nextCursor! });
    assert.deepEqual(next.skills, JSON.parse(JSON.stringify(catalog.search('git refund pdf', { limit: 1, cursor: paged.nextCursor! }).skills)));
    // The tool was looked for once: later searches are one tools/call and a skills/get per match.
    assert.deepEqual(served.methods.slice(before), ['tools/call', 'skills/get', 'tools/call', 'skills/get']);
    await assert.rejects(skills.search('pdf', { cursor: 'not-a-cursor' }), (error: Error) => {
      assert.equal(error.name, 'SkillResultError');
      assert.match(error.message, /search_skills refused the search: .*cursor/);
      return true;
    });
  } finally {
    await client.close();
    await served.close();
  }
});

describe('SkillsClient against our server: lengths in characters (code points), the same rules as the catalog', () => {
  let root: string;
  let served: Served;
  let client: Client;
  let skills: SkillsClient;
  let entry: SkillEntry;
  const EMOJI = '😀';

  before(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'skillmount-lengths-'));
    mkdirSync(path.join(root, 'emoji'));
    // 1024 emoji and 500 combining marks on letters: at the limits as characters, twice them in UTF-16 units.
    const md = `---\nname: emoji\ndescription: ${EMOJI.repeat(1024)}\ncompatibility: ${'e\u0301'.repeat(250)}\n---\n# Emoji\n`;
    writeFileSync(path.join(root, 'emoji/SKILL.md'), md);
    served = await serveOurFolder(root);
    client = await connectV1(served.url);
    skills = new SkillsClient(client);
    [entry] = (await skills.list()).skills as [SkillEntry];
  });
  after(async () => {
    await client.close();
    await served.close();
    rmSync(root, { recursive: true, force: true });
  });

  test('a skill at the limits is served, listed, read and its SKILL.md frontmatter agrees', async () => {
    assert.equal(entry.uri, 'skill://emoji/SKILL.md');
    assert.equal(entry.frontmatter.description.length, 2048, 'UTF-16 units');
    const md = await skills.read(entry);
    assert.equal(md.verified, true);
    assert.deepEqual(md.frontmatter, entry.frontmatter);
  });

  test('one character over is refused by the client with the length in characters, before any request', async () => {
    const before = served.methods.length;
    const over = (field: string, value: string) => ({ ...entry, frontmatter: { ...entry.frontmatter, [field]: value } });
    await assert.rejects(
      skills.read(over('description', EMOJI.repeat(1025))),
      (error: unknown) => error instanceof TypeError && /"description" is 1025 characters long; at most 1024/.test(error.message),
    );
    await assert.rejects(
      skills.read(over('compatibility', `${'e\u0301'.repeat(250)}!`)),
      (error: unknown) => error instanceof TypeError && /"compatibility" is 501 characters long; at most 500/.test(error.message),
    );
    assert.equal(served.methods.length, before, 'nothing was requested');
  });
});

describe('a skill reloaded while a client holds its entry', () => {
  const DIGEST = 'io.github.skillmount/digest';
  const URI = 'skill://moving/SKILL.md';
  const text = (description: string) => `---\nname: moving\ndescription: ${description}\n---\n# Moving\n`;
  const sha = (value: string) => `sha256:${createHash('sha256').update(value).digest('hex')}`;
  const roots: string[] = [];
  const closing: (() => Promise<void>)[] = [];
  after(async () => {
    for (const close of closing) await close();
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });

  /** A folder with one skill (and `extra` files) served by our catalog, an entry held and its files read, then every file edited and reloaded. */
  async function heldThenReloaded(options: CatalogOptions, extra: Record<string, string> = {}) {
    const root = mkdtempSync(path.join(tmpdir(), 'skillmount-moving-'));
    roots.push(root);
    mkdirSync(path.join(root, 'moving'));
    const old = text('Before the edit.');
    writeFileSync(path.join(root, 'moving/SKILL.md'), old);
    for (const [name, body] of Object.entries(extra)) writeFileSync(path.join(root, 'moving', name), body);
    const served = await serveOurFolder(root, options);
    const client = await connectV1(served.url);
    closing.push(() => client.close(), served.close);
    const skills = new SkillsClient(client);
    const { skill: held } = await skills.get(URI);
    for (const name of ['SKILL.md', ...Object.keys(extra)]) await skills.read(held, name); // now in the byte cache
    writeFileSync(path.join(root, 'moving/SKILL.md'), text('After the edit, a longer description.'));
    for (const [name, body] of Object.entries(extra)) writeFileSync(path.join(root, 'moving', name), body.toUpperCase());
    await served.catalog.reload();
    const reloadedAt = Date.now();
    const raw = (uri: string, digest?: string) =>
      client.request({ method: 'resources/read', params: digest === undefined ? { uri } : { uri, _meta: { [DIGEST]: digest } } } as never, ResultSchema);
    return { served, skills, held, old, raw, reloadedAt };
  }

  const entryChanged = (uri: string, digest: string) => (error: unknown) => {
    const { code, data, message } = error as { code: number; data: unknown; message: string };
    assert.equal(code, -32602);
    assert.deepEqual(data, { uri, digest, reason: 'entry-changed' });
    assert.match(message, /reloaded.*skills\/get/);
    assert.ok(message.includes(uri), message);
    return true;
  };

  test('a read naming the held digest gets the bytes from before the reload; one naming nothing, the current bytes', async () => {
    const { skills, held, old, raw } = await heldThenReloaded({ onWarning: () => {} });
    const heldDigest = (held.resources as SkillResource[])[0]!.digest;
    assert.equal(heldDigest, sha(old));
    const named = (await raw(URI, heldDigest)).contents as { text: string }[];
    assert.equal(named[0]!.text, old);
    const current = (await raw(URI)).contents as { text: string }[];
    assert.equal(current[0]!.text, text('After the edit, a longer description.'));
    const file = await skills.read(held);
    assert.equal(file.verified, true);
    assert.equal(file.text, old);
    assert.equal(file.skill, undefined, 'verified against the entry held: nothing was asked again');
  });

  test('after the window, or beyond the byte budget, the entry-changed error; SkillsClient asks for the entry once and reads it', async () => {
    const late = await heldThenReloaded({ onWarning: () => {}, retainMs: 1 });
    await waitFor(() => Date.now() > late.reloadedAt + 1, 'the retention window to end');
    const heldDigest = (late.held.resources as SkillResource[])[0]!.digest;
    await assert.rejects(late.raw(URI, heldDigest), entryChanged(URI, heldDigest));
    const before = late.served.methods.length;
    const file = await late.skills.read(late.held);
    assert.equal(file.text, text('After the edit, a longer description.'));
    assert.deepEqual(file.skill, (await late.skills.get(URI)).skill);
    assert.deepEqual(late.served.methods.slice(before, before + 3), ['resources/read', 'skills/get', 'resources/read']);

    // A cache of 8 KiB keeps a quarter of it from before a reload: one of two 1000-byte files (2000 bytes with their encodings).
    const files = { 'a.md': 'a'.repeat(1000), 'b.md': 'b'.repeat(1000) };
    const tight = await heldThenReloaded({ onWarning: () => {}, cacheBytes: 8 * 1024 }, files);
    const listed = (name: string) => (tight.held.resources as SkillResource[]).find((r) => r.uri.endsWith(`/${name}`))!;
    await assert.rejects(tight.raw(listed('a.md').uri, listed('a.md').digest), entryChanged(listed('a.md').uri, listed('a.md').digest));
    assert.deepEqual((await tight.raw(listed('b.md').uri, listed('b.md').digest)).contents, [
      { uri: listed('b.md').uri, mimeType: 'text/markdown', text: files['b.md'] },
    ]);
  });
});

test('the client entry point loads no server code and no Node.js built-in', () => {
  const dist = path.dirname(path.resolve(import.meta.dirname, '../../packages/core/dist/client.js'));
  const specifiers = new Set<string>();
  const reached: string[] = [];
  const visit = (file: string) => {
    if (reached.includes(file)) return;
    reached.push(file);
    const code = readFileSync(path.join(dist, file), 'utf8');
    for (const [, spec] of code.matchAll(/\b(?:from|import)\s*\(?\s*"([^"]+)"/g)) {
      if (spec!.startsWith('./')) visit(spec!.slice(2));
      else specifiers.add(spec!);
    }
    assert.doesNotMatch(code, /\brequire\s*\(/, `${file} calls require()`);
    // Node's globals are not in a browser or a worker: the client uses WebCrypto, TextDecoder and its own base64.
    assert.doesNotMatch(code, /\bBuffer\b/, `${file} uses Buffer`);
    assert.doesNotMatch(code, /\bprocess\./, `${file} uses process`);
  };
  visit('client.js');
  const external = [...specifiers].sort();
  assert.ok(external.length > 0);
  const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
  for (const spec of external) {
    assert.ok(!builtins.has(spec) && !spec.startsWith('node:'), `client.js imports the Node.js built-in ${spec}`);
    // minisearch: the ranking of search() for a server without search_skills, plain JavaScript for any runtime.
    assert.ok(['yaml', 'zod', 'minisearch'].includes(spec.replace(/^minisearch\/.*/, 'minisearch')), `client.js imports ${spec}`);
  }
});
