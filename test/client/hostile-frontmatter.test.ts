/**
 * The skills client against a real server that serves SKILL.md files attacking the frontmatter
 * parser (key floods, 3000-level nesting, a 15 MiB scalar, a late duplicate key), with honest
 * sizes and digests: each is a `frontmatter` verification failure naming the limit it broke, and
 * a SKILL.md listed over the size limit is not even requested.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { MAX_SKILL_MD_BYTES, SkillsClient, SkillVerificationError } from '@skillmount/core/client';
import { HOSTILE_SKILL_MDS } from '../support/hostile-skillmd.js';
import { hostileSkills, startLyingServer, type LyingServer } from './support/lying-server.js';
import { connectV1 } from './support/servers.js';

let lying: LyingServer;
let client: Client;
before(async () => {
  lying = await startLyingServer();
  client = await connectV1(lying.url('hostile'));
});
after(async () => {
  await client.close();
  await lying.close();
});

const reads = () => lying.methods('hostile').filter((m) => m === 'resources/read').length;

/** Rejects as a `frontmatter` verification failure of that skill's SKILL.md, matching `pattern`. */
const refusedFor = (uri: string, pattern: RegExp) => (error: unknown) => {
  assert.ok(error instanceof SkillVerificationError, String(error));
  assert.equal(error.reason, 'frontmatter');
  assert.equal(error.uri, uri);
  assert.match(error.message, pattern);
  assert.match(error.message, /the skill must not be loaded/);
  return true;
};

describe('a hostile SKILL.md is a verification failure naming the limit', () => {
  let skills: SkillsClient;
  before(async () => {
    skills = new SkillsClient(client);
    const listed = (await skills.list()).skills.map((s) => s.uri);
    assert.equal(listed.length, Object.keys(HOSTILE_SKILL_MDS).length + 1, 'every hostile entry is valid: only reading can refuse it');
  });

  for (const [key, hostile] of Object.entries(HOSTILE_SKILL_MDS)) {
    test(hostile.label, async () => {
      const skill = hostileSkills().byKey[key]!;
      const listedSize = (skill.resources as { uri: string; size: number }[]).find((r) => r.uri === skill.uri)!.size;
      const before = reads();
      await assert.rejects(skills.read(skill), refusedFor(skill.uri, hostile.refusal));
      // Listed over 1 MiB: refused without a request. Otherwise read, then refused.
      assert.equal(reads(), before + (listedSize > MAX_SKILL_MD_BYTES ? 0 : 1));
    });
  }

  test('a SKILL.md listed over 1 MiB is refused without being requested, whatever it holds', async () => {
    const skill = hostileSkills().byKey.scalar15MiB!;
    const listed = (skill.resources as { uri: string; size: number }[]).find((r) => r.uri === skill.uri)!;
    assert.ok(listed.size > MAX_SKILL_MD_BYTES);
    const before = reads();
    await assert.rejects(skills.read(skill), refusedFor(skill.uri, new RegExp(`was not requested: SKILL\\.md is ${listed.size} bytes; the limit is 1 MiB`)));
    assert.equal(reads(), before, 'no resources/read was sent');
  });

  test('a "dynamic" skill\'s 15 MiB SKILL.md is refused once received, before it is parsed', async () => {
    const skill = hostileSkills().dynamic;
    const before = reads();
    await assert.rejects(skills.read(skill), refusedFor(skill.uri, /was not parsed: SKILL\.md is \d+ bytes; the limit is 1 MiB/));
    assert.equal(reads(), before + 1);
  });
});

test("the host's own parseFrontmatter never sees a frontmatter over 64 KiB", async () => {
  const seen: number[] = [];
  const skills = new SkillsClient(client, {
    parseFrontmatter: (yaml) => {
      seen.push(yaml.length);
      return {};
    },
  });
  for (const key of ['keys40k', 'keys60k'] as const) {
    const skill = hostileSkills().byKey[key]!;
    await assert.rejects(skills.read(skill), refusedFor(skill.uri, /cannot be parsed: the frontmatter is \d+ bytes; the limit is 64 KiB/));
  }
  const big = hostileSkills().byKey.scalar15MiB!;
  await assert.rejects(skills.read(big), refusedFor(big.uri, /was not requested/));
  assert.deepEqual(seen, [], 'the parser was not called');
});
