/**
 * Our SkillsClient (over SDK v1) and the official SDK v2 SkillsClient, run against the same servers
 * (ours and the lying one): they must agree on which reads verify and why each refusal happened,
 * wherever the two define the same outcome.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Client as V2Client } from '@modelcontextprotocol/client';
import { SkillsClient as V2SkillsClient, SkillVerificationError as V2VerificationError } from '@modelcontextprotocol/client/ext/skills';
import { SkillResultError, SkillsClient, SkillVerificationError, type SkillEntry, type SkillsClientOptions } from '@skillmount/core/client';
import { EXAMPLES } from '../support/skills-suite.js';
import { READ_SKILLS, startLyingServer, type LyingServer } from './support/lying-server.js';
import { connectV1, connectV2, serveOurFolder, trickySkillsFolder, type Served } from './support/servers.js';

type Outcome = string;

/** What a read came to, in terms both clients share. */
async function outcome(read: () => Promise<{ verified: boolean; frontmatter?: unknown }>): Promise<Outcome> {
  try {
    const file = await read();
    return file.verified ? 'verified' : 'unverified';
  } catch (error) {
    if (error instanceof SkillVerificationError || error instanceof V2VerificationError) return error.reason;
    if (error instanceof SkillResultError) return 'invalid-result';
    if ((error as { code?: unknown }).code === 'INVALID_RESULT') return 'invalid-result';
    if (error instanceof TypeError) return 'type-error';
    if (typeof (error as { code?: unknown }).code === 'number') return `server error ${(error as { code: number }).code}`;
    return `error ${(error as Error).name}: ${(error as Error).message}`;
  }
}

/** Every file of every skill, by URI and by relative path, plus refs that must be refused. */
function refsOf(skill: SkillEntry): (string | undefined)[] {
  const root = skill.uri.slice(0, -'SKILL.md'.length);
  const listed = skill.resources === 'dynamic' ? ['data.txt'] : skill.resources.flatMap((r) => [r.uri, r.uri.slice(root.length)]);
  return [undefined, ...listed, 'not-there.md', '../escape/SKILL.md', 'skill://somewhere-else/SKILL.md'];
}

/** Both clients read `refs` of `skill`; returns the rows where they disagree. */
async function compareReads(ours: SkillsClient, theirs: V2SkillsClient, skill: SkillEntry, refs = refsOf(skill)) {
  const rows: { ref: string; ours: Outcome; theirs: Outcome }[] = [];
  for (const ref of refs) {
    const a = await outcome(() => ours.read(skill, ref));
    const b = await outcome(() => theirs.read(skill as never, ref));
    rows.push({ ref: ref ?? '(SKILL.md)', ours: a, theirs: b });
  }
  return rows;
}

describe('agreement on our server (examples/skills and awkward names)', () => {
  const folders = [{ root: EXAMPLES, remove() {} }, trickySkillsFolder()];
  const servers: Served[] = [];
  const closers: (() => Promise<void>)[] = [];

  before(async () => {
    for (const folder of folders) servers.push(await serveOurFolder(folder.root));
  });
  after(async () => {
    for (const close of closers) await close();
    for (const served of servers) await served.close();
    for (const folder of folders) folder.remove();
  });

  test('the same skills are accepted, and every read has the same outcome', async () => {
    let compared = 0;
    for (const served of servers) {
      const v1: Client = await connectV1(served.url);
      const v2: V2Client = await connectV2(served.url);
      closers.push(
        () => v1.close(),
        () => v2.close(),
      );
      const ours = new SkillsClient(v1);
      const theirs = new V2SkillsClient(v2, { skipInvalid: true });
      assert.equal(theirs.supported, ours.supported);
      assert.equal(theirs.directoryRead, ours.directoryRead);
      const mine = await ours.list();
      const other = await theirs.list();
      // Known difference: SDK v2 also requires frontmatter `metadata` to map strings to strings
      // (Agent Skills), which core's entry rules do not check yet.
      for (const refused of other.invalid) assert.match(refused.reason, /metadata must map strings to strings/, refused.uri);
      const accepted = other.skills.map((s) => s.uri);
      assert.deepEqual(
        accepted,
        mine.skills.map((s) => s.uri).filter((uri) => !other.invalid.some((i) => i.uri === uri)),
      );
      for (const skill of mine.skills.filter((s) => accepted.includes(s.uri))) {
        const rows = await compareReads(ours, theirs, skill);
        for (const row of rows) assert.equal(row.ours, row.theirs, `${skill.uri} ${row.ref}`);
        assert.ok(rows.some((r) => r.ours === 'verified') && rows.some((r) => r.ours === 'unlisted'));
        compared += rows.length;
      }
    }
    assert.ok(compared >= 30, `${compared} reads compared`);
  });
});

describe('agreement on the lying server', () => {
  let lying: LyingServer;
  const closers: (() => Promise<void>)[] = [];
  const pair = async (scenario: Parameters<LyingServer['url']>[0], options: { skipInvalid?: boolean } = {}, ourOptions: SkillsClientOptions = {}) => {
    const v1 = await connectV1(lying.url(scenario));
    const v2 = await connectV2(lying.url(scenario));
    closers.push(
      () => v1.close(),
      () => v2.close(),
    );
    return { ours: new SkillsClient(v1, { ...options, ...ourOptions }), theirs: new V2SkillsClient(v2, options) };
  };
  before(async () => {
    lying = await startLyingServer();
  });
  after(async () => {
    for (const close of closers) await close();
    await lying.close();
  });

  test('each lie about a file is refused for the same reason', async () => {
    const { ours, theirs } = await pair('reads');
    const listed = await theirs.list();
    assert.deepEqual(listed.invalid, []);
    assert.deepEqual(
      listed.skills.map((s) => s.uri),
      (await ours.list()).skills.map((s) => s.uri),
    );
    const expected: Record<string, Record<string, Outcome>> = {
      'skill://honest/SKILL.md': { '(SKILL.md)': 'verified', 'references/Q%26A.md': 'verified', 'secret.txt': 'unlisted' },
      'skill://wrong-size/SKILL.md': { 'data.txt': 'size' },
      'skill://wrong-digest/SKILL.md': { 'data.txt': 'digest' },
      'skill://other-uri/SKILL.md': { 'data.txt': 'invalid-result' },
      'skill://frontmatter-lie/SKILL.md': { '(SKILL.md)': 'frontmatter' },
      'skill://not-utf8/SKILL.md': { '(SKILL.md)': 'frontmatter' },
      'skill://live/SKILL.md': { '(SKILL.md)': 'unverified', 'data.txt': 'unverified' },
      'skill://live-lie/SKILL.md': { '(SKILL.md)': 'frontmatter' },
    };
    // two-items is left out: SDK v2 takes the first matching content item, we refuse an ambiguous reply.
    for (const skill of READ_SKILLS.filter((s) => s.uri !== 'skill://two-items/SKILL.md')) {
      const extra = Object.keys(expected[skill.uri] ?? {}).map((ref) => (ref === '(SKILL.md)' ? undefined : ref));
      const rows = await compareReads(ours, theirs, skill as SkillEntry, [...new Set([...refsOf(skill as SkillEntry), ...extra])]);
      for (const row of rows) {
        if (skill.resources === 'dynamic' && row.ref.startsWith('../')) {
          // SDK v2 resolves with URL rules, which clamp `..` at the authority: for skill://live it
          // requests skill://live/escape/SKILL.md. We refuse a `..` that leaves the skill folder.
          assert.equal(row.ours, 'unlisted');
          assert.equal(row.theirs, 'server error -32602');
          continue;
        }
        assert.equal(row.ours, row.theirs, `${skill.uri} ${row.ref}`);
        const want = expected[skill.uri]?.[row.ref];
        if (want) assert.equal(row.ours, want, `${skill.uri} ${row.ref}`);
      }
    }
  });

  test('repeated and invalid entries: both throw, and both report the same refused entries', async () => {
    const strict = await pair('repeated');
    await assert.rejects(strict.ours.list());
    await assert.rejects(strict.theirs.list());
    const lenient = await pair('repeated', { skipInvalid: true });
    const mine = await lenient.ours.list();
    const other = await lenient.theirs.list();
    assert.deepEqual(
      mine.skills.map((s) => s.uri),
      other.skills.map((s) => s.uri),
    );
    assert.deepEqual(
      mine.invalid.map((e) => [e.index, e.uri]),
      other.invalid.map((e) => [e.index, e.uri]),
    );
  });

  test('endless paging and skills/get answering with another skill: both refuse', async () => {
    // 64 is SDK v2's default listMaxPages.
    const endless = await pair('endless', {}, { maxPages: 64 });
    await assert.rejects(endless.ours.list(), /more than 64 pages/);
    await assert.rejects(endless.theirs.list(), /exceeded listMaxPages \(64\)/);
    const other = await pair('get-other');
    await assert.rejects(other.ours.get('skill://alpha/SKILL.md'), SkillResultError);
    await assert.rejects(other.theirs.get('skill://alpha/SKILL.md'), /returned skill:\/\/bravo\/SKILL\.md/);
  });

  test('a cursor that repeats: we refuse it, SDK v2 takes it as the end of the listing', async () => {
    const loop = await pair('loop');
    await assert.rejects(loop.ours.list(), /cursor "again" a second time/);
    assert.deepEqual(
      (await loop.theirs.list()).skills.map((s) => s.uri),
      ['skill://bravo/SKILL.md'],
    );
  });

  test('a server without the extension: both list nothing', async () => {
    const { ours, theirs } = await pair('plain');
    assert.equal(ours.supported, false);
    assert.equal(theirs.supported, false);
    const quiet = console.debug;
    console.debug = () => {};
    try {
      assert.deepEqual(await theirs.list(), await ours.list());
    } finally {
      console.debug = quiet;
    }
  });
});
