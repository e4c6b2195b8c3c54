/**
 * The host-side rules the SDK v2 client also keeps, against real servers on loopback: no page cap
 * with maxPages 0 (our server paging one skill a page), capability checks under the SDK client's
 * enforceStrictCapabilities, strict base64 in blobs, the dynamic byte tally per held entry, and
 * skills under any URI scheme with every containment rule kept.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SkillLimitError, SkillResultError, SkillsClient, SkillsUnsupportedError, SkillVerificationError, type SkillEntry } from '@skillmount/core/client';
import { EXAMPLES } from '../support/skills-suite.js';
import { BAD_BLOBS, badBlobs, bravo, fileSkill, githubSkill, live, liveBadBlob, startLyingServer, type LyingServer } from './support/lying-server.js';
import { connectV1, serveOurFolder } from './support/servers.js';

let lying: LyingServer;
const clients: Client[] = [];
const connect = async (url: string, options?: { enforceStrictCapabilities?: boolean }) => {
  const client = new Client({ name: 'skills-host', version: '1.0.0' }, options);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  clients.push(client);
  return client;
};
before(async () => {
  lying = await startLyingServer();
});
after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await lying.close();
});
const count = (scenario: Parameters<LyingServer['url']>[0], method: string) => lying.methods(scenario).filter((m) => m === method).length;

describe('maxPages against our own server paging one skill a page', () => {
  let served: Awaited<ReturnType<typeof serveOurFolder>>;
  before(async () => {
    served = await serveOurFolder(EXAMPLES, { pageSize: 1 });
  });
  after(() => served.close());

  test('maxPages: 0 walks every page, however many', async () => {
    const client = await connectV1(served.url);
    clients.push(client);
    const before = served.methods.filter((m) => m === 'skills/list').length;
    const listing = await new SkillsClient(client, { maxPages: 0 }).list();
    assert.equal(listing.skills.length, served.catalog.entries.length);
    assert.ok(listing.skills.length >= 3, 'the examples serve several skills');
    assert.equal(served.methods.filter((m) => m === 'skills/list').length - before, listing.skills.length, 'one request a page');
  });

  test('a cap below the page count still stops the walk', async () => {
    const client = await connectV1(served.url);
    clients.push(client);
    await assert.rejects(new SkillsClient(client, { maxPages: 2 }).list(), (error: unknown) => {
      assert.ok(error instanceof SkillResultError);
      assert.match(error.message, /skills\/list has more than 2 pages.*0 for no cap/);
      return true;
    });
  });

  test('with no cap, a cursor the server repeats is still refused', async () => {
    const client = await connect(lying.url('loop'));
    await assert.rejects(new SkillsClient(client, { maxPages: 0 }).list(), /returned the cursor "again" a second time/);
    assert.equal(count('loop', 'skills/list') >= 2, true);
  });
});

describe('enforceStrictCapabilities, as the SDK v2 client', () => {
  test('extension declared without resources: supported unless the SDK client is strict', async () => {
    const lenient = new SkillsClient(await connect(lying.url('no-resources')));
    assert.equal(lenient.supported, true);
    assert.deepEqual((await lenient.list()).skills, [bravo]);

    const sent = count('no-resources', 'skills/list');
    const strict = new SkillsClient(await connect(lying.url('no-resources'), { enforceStrictCapabilities: true }));
    assert.equal(strict.supported, false);
    assert.equal(strict.directoryRead, false);
    await assert.rejects(strict.list(), (error: unknown) => {
      assert.ok(error instanceof SkillsUnsupportedError);
      assert.equal(error.method, 'skills/list');
      assert.match(error.message, /declared the io\.modelcontextprotocol\/skills extension but not the resources capability/);
      return true;
    });
    await assert.rejects(strict.get(bravo.uri), SkillsUnsupportedError);
    await assert.rejects(strict.read(bravo), SkillsUnsupportedError);
    assert.equal(count('no-resources', 'skills/list'), sent, 'nothing was sent');
  });

  test('no extension: an empty listing, or under strict capabilities an error, and no request either way', async () => {
    const before = [...lying.methods('plain')];
    assert.deepEqual(await new SkillsClient(await connect(lying.url('plain'))).list(), { skills: [], invalid: [] });
    const strict = new SkillsClient(await connect(lying.url('plain'), { enforceStrictCapabilities: true }));
    await assert.rejects(strict.list(), /did not declare the io\.modelcontextprotocol\/skills extension/);
    assert.ok(!lying.methods('plain').slice(before.length).includes('skills/list'));
  });

  test('a strict client of a server that declares both works as usual', async () => {
    const skills = new SkillsClient(await connect(lying.url('reads'), { enforceStrictCapabilities: true }));
    assert.equal(skills.supported, true);
    const md = await skills.read((await skills.get(bravo.uri.replace('bravo', 'wrong-size'))).skill);
    assert.equal(md.verified, true);
  });
});

describe('strict base64', () => {
  let skills: SkillsClient;
  before(async () => {
    skills = new SkillsClient(await connect(lying.url('blobs')));
  });

  test('well-formed blobs read verified: every padding case, every byte value', async () => {
    const good = await skills.read(badBlobs, 'good.dat');
    assert.deepEqual([...good.bytes], [0, 1, 2, 3, 4]);
    assert.equal(good.verified, true);
    for (const n of [0, 1, 2, 3, 4, 5, 256, 4099]) {
      const file = await skills.read(badBlobs, `sized-${n}.bin`);
      assert.equal(file.verified, true);
      assert.deepEqual(
        [...file.bytes],
        Array.from({ length: n }, (_, i) => (i * 167 + 13) % 256),
        `sized-${n}.bin`,
      );
    }
  });

  for (const [name, blob] of Object.entries(BAD_BLOBS)) {
    test(`${JSON.stringify(blob)} is a verification failure, though a forgiving decoder finds the listed bytes in it`, async () => {
      await assert.rejects(skills.read(badBlobs, name), (error: unknown) => {
        assert.ok(error instanceof SkillVerificationError, String(error));
        assert.equal(error.reason, 'encoding');
        assert.equal(error.uri, `skill://bad-blobs/${name}`);
        assert.match(error.message, /arrived as a blob that is not valid base64: .+; the content was not used/);
        assert.equal('bytes' in error, false);
        return true;
      });
    });
  }

  test('the message says what is wrong: the character and where, the padding, or the length', async () => {
    const message = (name: string) =>
      skills.read(badBlobs, name).then(
        () => '',
        (error: Error) => error.message,
      );
    assert.match(await message('junk-char.dat'), /the character "!" \(U\+0021\) at offset 3/);
    assert.match(await message('unpadded.dat'), /length, 7 characters, is not a multiple of 4/);
    assert.match(await message('inner-padding.dat'), /"=" at offset 2 is padding inside the data/);
    assert.match(await message('not-canonical.dat'), /not canonical base64/);
  });

  test('a dynamic skill refuses a bad blob the same way', async () => {
    await assert.rejects(skills.read(liveBadBlob, 'space.dat'), (error: unknown) => error instanceof SkillVerificationError && error.reason === 'encoding');
  });
});

describe('the dynamic byte tally belongs to the entry the host holds', () => {
  test('a fresh list() or get() starts a new count; the limit still holds under one entry', async () => {
    const client = await connect(lying.url('reads'));
    const small = new SkillsClient(client, { limits: { bytes: 1000 } });
    const held = async () => (await small.list()).skills.find((s) => s.uri === live.uri)!;

    const first = await held();
    await small.read(first, 'big-a.txt');
    await assert.rejects(small.read(first, 'big-b.txt'), (error: unknown) => {
      assert.ok(error instanceof SkillLimitError);
      assert.equal(error.actual, 1200);
      assert.match(error.message, /under this entry.*Refresh the entry with list\(\) or get\(\)/);
      return true;
    });
    // A long-lived client keeps reading: every listing is a new entry, with its own count.
    for (let round = 0; round < 3; round++) {
      const entry = await held();
      assert.equal((await small.read(entry, 'big-b.txt')).text, 'b'.repeat(600));
      await assert.rejects(small.read(entry, 'big-a.txt'), SkillLimitError);
    }
    const got = (await small.get(live.uri)).skill;
    assert.equal((await small.read(got, 'big-a.txt')).verified, false);
  });
});

describe('any URI scheme, empty authorities included', () => {
  let skills: SkillsClient;
  let listed: SkillEntry[];
  before(async () => {
    skills = new SkillsClient(await connect(lying.url('schemes')), { skipInvalid: true });
    const listing = await skills.list();
    listed = listing.skills;
    assert.equal(listing.invalid.length, 4);
  });

  test('github:// and file:/// skills are listed as served', () => {
    assert.deepEqual(listed, [githubSkill, fileSkill]);
  });

  test('every file of both reads verified, by relative path and by URI', async () => {
    for (const entry of [githubSkill, fileSkill]) {
      for (const resource of entry.resources as { uri: string }[]) {
        const file = await skills.read(entry, resource.uri);
        assert.equal(file.verified, true, resource.uri);
        assert.equal(file.uri, resource.uri);
      }
      assert.deepEqual((await skills.read(entry)).frontmatter, entry.frontmatter);
    }
    assert.equal((await skills.read(fileSkill, 'templates/report.md')).text, '# Report\n');
    assert.deepEqual([...(await skills.read(githubSkill, './assets/logo.bin')).bytes], [137, 80, 78, 71, 0, 255]);
  });

  test('get() answers for both', async () => {
    assert.deepEqual((await skills.get(fileSkill.uri)).skill, fileSkill);
    assert.deepEqual((await skills.get('GITHUB://owner/repo/skills/refunds/SKILL.md')).skill, githubSkill);
  });

  test('containment holds under every scheme: other repository, named authority, other scheme, ..', async () => {
    const { invalid } = await skills.list();
    const reasons = Object.fromEntries(invalid.map((e) => [e.uri, e.reason]));
    assert.match(reasons['github://owner/repo/skills/leaky/SKILL.md']!, /github:\/\/owner\/other\/skills\/leaky\/x\.md is outside the skill folder/);
    assert.match(reasons['file:///srv/skills/mixed/SKILL.md']!, /file:\/\/srv\/skills\/mixed\/y\.md is outside the skill folder/);
    assert.match(reasons['github://owner/repo/skills/switch/SKILL.md']!, /skill:\/\/owner\/repo\/skills\/switch\/z\.md is outside the skill folder/);
    assert.match(reasons['file:///srv/skills/climb/SKILL.md']!, /"\.\." segment/);
  });

  test('a ref out of a file:/// skill folder is refused before any request', async () => {
    const before = count('schemes', 'resources/read');
    for (const ref of ['../secret.txt', 'file:///srv/skills/secret.txt', 'file://srv/skills/daily/SKILL.md', '../../skills/daily/../secret.txt']) {
      await assert.rejects(skills.read(fileSkill, ref), (error: unknown) => error instanceof SkillVerificationError && error.reason === 'unlisted', ref);
    }
    assert.equal(count('schemes', 'resources/read'), before);
  });
});
