/**
 * The skills client against our own server (createSkillsEndpoint + SkillCatalog over examples/skills
 * and a folder of awkward names), over real HTTP: list, get, read every file verified, directories,
 * relative refs, percent-encoding, limits.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { SkillVerificationError, SkillsClient, checkLimits, type SkillEntry } from '@skillmount/core/client';
import { EXAMPLES, exampleFiles } from '../support/skills-suite.js';
import { diskBytes } from './support/disk.js';
import { connectV1, serveOurFolder, trickySkillsFolder, type Served } from './support/servers.js';

const REFUNDS = 'skill://acme/billing/refunds/SKILL.md';
const GIT = 'skill://git-workflow/SKILL.md';

describe('SkillsClient against our server (examples/skills, one skill per page)', () => {
  let served: Served;
  let client: Client;
  let skills: SkillsClient;
  let listed: SkillEntry[];
  const byUri = (uri: string) => listed.find((s) => s.uri === uri)!;

  before(async () => {
    served = await serveOurFolder(EXAMPLES, { pageSize: 1 });
    client = await connectV1(served.url);
    skills = new SkillsClient(client);
    listed = (await skills.list()).skills;
  });
  after(async () => {
    await client.close();
    await served.close();
  });

  test('declares the extension with directoryRead', () => {
    assert.equal(skills.supported, true);
    assert.equal(skills.directoryRead, true);
    assert.equal(skills.protocolVersion, '2025-11-25');
  });

  test('list() walks every page and validates every entry', async () => {
    const pagesBefore = served.methods.filter((m) => m === 'skills/list').length;
    const listing = await skills.list();
    assert.deepEqual(listing.skills.map((s) => s.uri), [REFUNDS, GIT, 'skill://pdf-processing/SKILL.md']);
    assert.deepEqual(listing.invalid, []);
    assert.equal(listing.nextCursor, undefined);
    assert.equal(listing.ttlMs, 0);
    assert.equal(listing.cacheScope, 'private');
    assert.equal(served.methods.filter((m) => m === 'skills/list').length - pagesBefore, 3, 'one request per page');
  });

  test('list({ cursor }) returns that one page and its nextCursor', async () => {
    const first = await client.request({ method: 'skills/list', params: {} } as never, ResultSchema);
    const second = await skills.list({ cursor: first.nextCursor as string });
    assert.deepEqual(second.skills.map((s) => s.uri), [GIT]);
    assert.equal(typeof second.nextCursor, 'string');
    const third = await skills.list({ cursor: second.nextCursor! });
    assert.deepEqual(third.skills.map((s) => s.uri), ['skill://pdf-processing/SKILL.md']);
    assert.equal(third.nextCursor, undefined);
  });

  test('get() returns each listed entry with its cache fields', async () => {
    for (const entry of listed) {
      const got = await skills.get(entry.uri);
      assert.deepEqual(got.skill, entry);
      assert.equal(got.ttlMs, 0);
      assert.equal(got.cacheScope, 'private');
    }
  });

  test('read() verifies every file of every skill, byte for byte', async () => {
    const read: string[] = [];
    for (const entry of listed) {
      assert.notEqual(entry.resources, 'dynamic');
      for (const resource of entry.resources as { uri: string }[]) {
        const file = await skills.read(entry, resource.uri);
        assert.equal(file.verified, true, resource.uri);
        assert.equal(file.uri, resource.uri);
        assert.ok(Buffer.from(file.bytes).equals(diskBytes(EXAMPLES, resource.uri)), `${resource.uri} bytes`);
        if (resource.uri.endsWith('.png')) {
          assert.equal(file.text, undefined);
          assert.equal(file.mimeType, 'image/png');
        } else assert.equal(file.text, Buffer.from(file.bytes).toString('utf8'));
        read.push(resource.uri.slice('skill://'.length));
      }
    }
    assert.deepEqual(read.sort(), exampleFiles());
  });

  test("read(skill) is the skill's own SKILL.md with its frontmatter and body", async () => {
    const refunds = byUri(REFUNDS);
    const md = await skills.read(refunds);
    assert.equal(md.uri, REFUNDS);
    assert.equal(md.verified, true);
    assert.deepEqual(md.frontmatter, refunds.frontmatter);
    assert.equal((md.frontmatter as any).metadata.reviewed, 'yes', 'yes stays a string');
    assert.ok(md.body!.startsWith('\n# Refunds'), md.body);
    assert.equal(md.text, readFileSync(path.join(EXAMPLES, 'acme/billing/refunds/SKILL.md'), 'utf8'));
  });

  test('relative refs resolve against the skill folder: ./, .., #fragment, absolute URIs', async () => {
    const refunds = byUri(REFUNDS);
    const approved = 'skill://acme/billing/refunds/templates/approved.md';
    for (const ref of ['templates/approved.md', './templates/approved.md', 'templates/regional/../approved.md#when', '../refunds/templates/approved.md', approved, `${approved}#top`]) {
      const file = await skills.read(refunds, ref);
      assert.equal(file.uri, approved, ref);
      assert.equal(file.verified, true);
    }
    assert.equal((await skills.read(refunds, './SKILL.md#steps')).frontmatter?.name, 'refunds');
  });

  test('a ref outside the skill or not in its entry is refused before any request', async () => {
    const git = byUri(GIT);
    const before = served.methods.length;
    for (const ref of ['../pdf-processing/SKILL.md', '../../../etc/passwd', '/SKILL.md', 'references/missing.md', 'skill://pdf-processing/SKILL.md', 'references', 'references/commit-messages.md?x=1']) {
      await assert.rejects(skills.read(git, ref), (error: unknown) => {
        assert.ok(error instanceof SkillVerificationError, `${ref}: ${error}`);
        assert.equal(error.reason, 'unlisted');
        assert.equal(error.skillUri, GIT);
        return true;
      });
    }
    assert.equal(served.methods.length, before, 'nothing was requested');
  });

  test('an invalid entry is a TypeError before any request', async () => {
    const before = served.methods.length;
    const git = byUri(GIT);
    await assert.rejects(skills.read({ ...git, frontmatter: { ...git.frontmatter, name: 'Other' } }), TypeError);
    await assert.rejects(skills.read({ ...git, resources: [] }), TypeError);
    assert.equal(served.methods.length, before);
  });

  test('readDirectory() lists every folder, and every file of the tree is reached', async () => {
    const files: string[] = [];
    const walk = async (uri: string) => {
      const { resources } = await skills.readDirectory(uri);
      for (const child of resources) {
        if (child.mimeType === 'inode/directory') await walk(child.uri);
        else files.push(child.uri.slice('skill://'.length));
      }
    };
    for (const entry of listed) await walk(entry.uri.slice(0, -'/SKILL.md'.length));
    assert.deepEqual(files.sort(), exampleFiles());
    const templates = await skills.readDirectory('skill://acme/billing/refunds/templates');
    assert.deepEqual(templates.resources.map((r) => r.name).sort(), ['approved.md', 'partial.md', 'regional']);
  });

  test('checkLimits() finds nothing to decline in the examples', () => {
    for (const entry of listed) {
      assert.equal(checkLimits(entry), undefined);
      assert.equal(skills.checkLimits(entry), undefined);
    }
  });
});

describe('SkillsClient against our server: names that need percent-encoding', () => {
  const folder = trickySkillsFolder();
  let served: Served;
  let client: Client;
  let skills: SkillsClient;
  let entry: SkillEntry;

  before(async () => {
    served = await serveOurFolder(folder.root);
    client = await connectV1(served.url);
    skills = new SkillsClient(client);
    [entry] = (await skills.list()).skills as [SkillEntry];
  });
  after(async () => {
    await client.close();
    await served.close();
    folder.remove();
  });

  test('the entry spells names as URL parsing would, and every spelling of a ref matches it', async () => {
    const uris = (entry.resources as { uri: string }[]).map((r) => r.uri).sort();
    assert.deepEqual(uris, [
      'skill://tricky-names/SKILL.md',
      'skill://tricky-names/references/Q&A.md',
      'skill://tricky-names/references/read%20me%20%C3%BC.md',
    ]);
    for (const ref of ['references/Q&A.md', 'references/Q%26A.md', './references/Q&A.md#faq', 'skill://tricky-names/references/Q&A.md']) {
      const file = await skills.read(entry, ref);
      assert.equal(file.uri, 'skill://tricky-names/references/Q&A.md', 'requested by the entry spelling');
      assert.equal(file.verified, true);
      assert.equal(file.text, '# Questions & answers\n');
    }
    for (const ref of ['references/read me ü.md', 'references/read me ü.md#top', 'references/read%20me%20%C3%BC.md', 'references/read%20me%20ü.md']) {
      const file = await skills.read(entry, ref);
      assert.equal(file.verified, true, ref);
      assert.ok(Buffer.from(file.bytes).equals(diskBytes(folder.root, file.uri)));
    }
  });

  test('yes/no/on stay strings in the frontmatter, and the SKILL.md check agrees', async () => {
    assert.deepEqual(entry.frontmatter.metadata, { reviewed: 'yes', draft: 'no', enabled: 'on' });
    const md = await skills.read(entry);
    assert.deepEqual(md.frontmatter, entry.frontmatter);
    assert.ok(md.body!.includes('[the FAQ](references/Q&A.md)'));
  });
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
    await assert.rejects(skills.read(over('description', EMOJI.repeat(1025))), (error: unknown) => error instanceof TypeError && /"description" is 1025 characters long; at most 1024/.test(error.message));
    await assert.rejects(skills.read(over('compatibility', `${'e\u0301'.repeat(250)}!`)), (error: unknown) => error instanceof TypeError && /"compatibility" is 501 characters long; at most 500/.test(error.message));
    assert.equal(served.methods.length, before, 'nothing was requested');
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
    assert.ok(['yaml', 'zod'].includes(spec), `client.js imports ${spec}`);
  }
});
