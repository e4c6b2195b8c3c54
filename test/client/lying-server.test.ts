/**
 * The skills client against a deliberately lying server (low-level SDK v1 Server, hand-written
 * handlers, real HTTP): every lie is refused with the right reason or error, and no refused
 * content is ever returned.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  SkillLimitError,
  SkillResultError,
  SkillsClient,
  SkillsUnsupportedError,
  SkillVerificationError,
  type SkillEntry,
  type SkillVerificationReason,
} from '@skillmount/core/client';
import {
  alpha,
  bravo,
  changedHeld,
  changedNow,
  frontmatterLie,
  honest,
  live,
  liveLie,
  notUtf8,
  otherUri,
  startLyingServer,
  twoItems,
  wrongDigest,
  wrongSize,
  type LyingServer,
} from './support/lying-server.js';
import { connectV1 } from './support/servers.js';

let lying: LyingServer;
const clients: Client[] = [];
const connect = async (scenario: Parameters<LyingServer['url']>[0]) => {
  const client = await connectV1(lying.url(scenario));
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

/** Rejects with a SkillVerificationError of `reason`, carrying no content. */
const refused = (reason: SkillVerificationReason, uri?: string) => (error: unknown) => {
  assert.ok(error instanceof SkillVerificationError, String(error));
  assert.equal(error.reason, reason);
  if (uri) assert.equal(error.uri, uri);
  assert.equal('bytes' in error || 'text' in error, false, 'no content on the error');
  assert.match(error.message, /get\(|listed in the entry/, 'the message says what to do');
  return true;
};
const resultError = (method: string, pattern: RegExp) => (error: unknown) => {
  assert.ok(error instanceof SkillResultError, String(error));
  assert.equal(error.method, method);
  assert.match(error.message, pattern);
  return true;
};

describe('a file that changed since its entry was fetched', () => {
  test('read() asks for the entry again once and verifies the file against it; with refresh off, the mismatch throws', async () => {
    const skills = new SkillsClient(await connect('changed'));
    const file = await skills.read(changedHeld, 'data.txt');
    assert.equal(file.text, 'hello world');
    assert.equal(file.verified, true);
    assert.deepEqual(file.skill, changedNow);
    assert.deepEqual(
      lying.methods('changed').filter((m) => m === 'skills/get' || m === 'resources/read'),
      ['resources/read', 'skills/get', 'resources/read'],
    );
    const strict = new SkillsClient(await connect('changed'), { refresh: false });
    await assert.rejects(strict.read(changedHeld, 'data.txt'), refused('digest', 'skill://changed/data.txt'));
  });
});

describe('lying about files', () => {
  let skills: SkillsClient;
  let listed: SkillEntry[];
  before(async () => {
    skills = new SkillsClient(await connect('reads'));
    listed = (await skills.list()).skills;
  });

  test('the honest skill is listed as served and reads verified', async () => {
    assert.equal(listed.length, 9);
    const md = await skills.read(honest);
    assert.equal(md.verified, true);
    assert.deepEqual(md.frontmatter, { name: 'honest', description: 'An honest skill.', metadata: { reviewed: 'yes', draft: 'no', enabled: 'on' } });
    const bin = await skills.read(honest, 'assets/bin.dat');
    assert.deepEqual([...bin.bytes], [0, 255, 1, 254, 2], 'a blob is base64-decoded');
    assert.equal(bin.text, undefined);
    assert.equal(bin.mimeType, 'application/octet-stream');
  });

  test('an entry spelling a name raw (Q&A.md) matches an encoded ref, and is requested raw', async () => {
    for (const ref of ['references/Q%26A.md', 'references/Q&A.md']) {
      const file = await skills.read(honest, ref);
      assert.equal(file.uri, 'skill://honest/references/Q&A.md');
      assert.equal(file.verified, true);
    }
    const spaced = await skills.read(honest, 'references/read me ü.md');
    assert.equal(spaced.uri, 'skill://honest/references/read%20me%20%C3%BC.md');
  });

  test('wrong size: refused as size', async () => {
    await assert.rejects(skills.read(wrongSize, 'data.txt'), refused('size', 'skill://wrong-size/data.txt'));
  });

  test('wrong digest: refused as digest once the entry asked for again lies too, and the message names both digests', async () => {
    const listedDigest = (wrongDigest.resources as { uri: string; digest: string }[]).find((r) => r.uri.endsWith('/data.txt'))!.digest;
    const servedDigest = 'sha256:' + createHash('sha256').update('hello world').digest('hex');
    const before = lying.methods('reads').length;
    await assert.rejects(skills.read(wrongDigest, 'data.txt'), (error: unknown) => {
      assert.deepEqual(lying.methods('reads').slice(before), ['resources/read', 'skills/get', 'resources/read'], 'asked again once');
      refused('digest', 'skill://wrong-digest/data.txt')(error);
      assert.ok((error as Error).message.includes(`has digest ${servedDigest} but the skill entry lists ${listedDigest}`), (error as Error).message);
      return true;
    });
  });

  test('frontmatter that differs from the entry: refused, one line per field', async () => {
    await assert.rejects(skills.read(frontmatterLie), (error: unknown) => {
      refused('frontmatter', 'skill://frontmatter-lie/SKILL.md')(error);
      assert.deepEqual((error as SkillVerificationError).differences, [
        'description: the entry has "Says one thing.", SKILL.md has "Does another thing."',
        'license: the entry has "MIT", SKILL.md has nothing',
      ]);
      return true;
    });
  });

  test('a SKILL.md that is not UTF-8 is a frontmatter failure', async () => {
    await assert.rejects(skills.read(notUtf8), refused('frontmatter'));
  });

  test('an unlisted file the server would serve is refused without a request', async () => {
    const before = lying.methods('reads').length;
    await assert.rejects(skills.read(honest, 'secret.txt'), refused('unlisted', 'skill://honest/secret.txt'));
    await assert.rejects(skills.read(honest, 'skill://honest/secret.txt'), refused('unlisted'));
    assert.equal(lying.methods('reads').length, before);
  });

  test('a content item for another URI, or two for the same, is refused', async () => {
    await assert.rejects(
      skills.read(otherUri, 'data.txt'),
      resultError('resources/read', /exactly one content item.*returned 0 \(skill:\/\/other-uri\/elsewhere\.txt\)/),
    );
    await assert.rejects(skills.read(twoItems, 'data.txt'), resultError('resources/read', /returned 2/));
  });

  test('a dynamic skill reads unverified, its frontmatter still checked', async () => {
    const md = await skills.read(live);
    assert.equal(md.verified, false);
    assert.deepEqual(md.frontmatter, live.frontmatter);
    const data = await skills.read(live, 'data.txt');
    assert.equal(data.verified, false);
    assert.equal(data.text, 'live data');
    await assert.rejects(skills.read(liveLie), refused('frontmatter', 'skill://live-lie/SKILL.md'));
    await assert.rejects(skills.read(live, '../honest/SKILL.md'), refused('unlisted'));
  });

  test('a dynamic skill stops at the total-size limit on what was fetched', async () => {
    const small = new SkillsClient(clients[0]!, { limits: { bytes: 1000 } });
    await small.read(live, 'big-a.txt');
    await small.read(live, 'big-a.txt'); // a re-read replaces that file's count
    await assert.rejects(small.read(live, 'big-b.txt'), (error: unknown) => {
      assert.ok(error instanceof SkillLimitError);
      assert.equal(error.limit, 'bytes');
      assert.equal(error.actual, 1200);
      assert.equal(error.max, 1000);
      return true;
    });
  });

  test('a skill over the limits is declined from its entry, before any request', async () => {
    const before = lying.methods('reads').length;
    const strict = new SkillsClient(clients[0]!, { limits: { files: 2 } });
    assert.equal(strict.checkLimits(honest)?.limit, 'files');
    await assert.rejects(strict.read(honest), SkillLimitError);
    assert.equal(lying.methods('reads').length, before);
  });

  test('readDirectory is refused when the server did not declare directoryRead', async () => {
    const before = lying.methods('reads').length;
    assert.equal(skills.directoryRead, false);
    await assert.rejects(skills.readDirectory('skill://honest'), SkillsUnsupportedError);
    assert.equal(lying.methods('reads').length, before);
  });
});

describe('lying about listings', () => {
  test('repeated URIs and invalid entries: list() throws naming each, with indexes across pages', async () => {
    const client = await connect('repeated');
    await assert.rejects(new SkillsClient(client).list(), (error: unknown) => {
      resultError('skills/list', /3 invalid entries/)(error);
      const message = (error as Error).message;
      assert.match(message, /#0 skill:\/\/alpha\/SKILL\.md: the same uri is listed 2 times/);
      assert.match(message, /#2 skill:\/\/charlie\/SKILL\.md: frontmatter name "not-charlie" must equal its folder name/);
      assert.match(message, /#3 skill:\/\/alpha\/SKILL\.md/);
      return true;
    });
    const lenient = await new SkillsClient(client, { skipInvalid: true }).list();
    assert.deepEqual(lenient.skills, [bravo]);
    assert.deepEqual(
      lenient.invalid.map((e) => [e.index, e.uri]),
      [
        [0, alpha.uri],
        [2, 'skill://charlie/SKILL.md'],
        [3, alpha.uri],
      ],
    );
  });

  test('the same URI spelled two ways counts as repeated', async () => {
    const listing = await new SkillsClient(await connect('repeated-spelling'), { skipInvalid: true }).list();
    assert.deepEqual(
      listing.skills.map((s) => s.uri),
      [bravo.uri],
    );
    assert.deepEqual(
      listing.invalid.map((e) => e.uri),
      [alpha.uri, 'skill://%61lpha/SKILL.md'],
    );
  });

  test('a cursor that repeats is refused instead of looping', async () => {
    const client = await connect('loop');
    await assert.rejects(new SkillsClient(client).list(), resultError('skills/list', /cursor "again" a second time/));
    assert.equal(lying.methods('loop').filter((m) => m === 'skills/list').length, 2);
  });

  test('endless pages stop at maxPages', async () => {
    const client = await connect('endless');
    await assert.rejects(new SkillsClient(client, { maxPages: 5 }).list(), resultError('skills/list', /more than 5 pages/));
    assert.equal(lying.methods('endless').filter((m) => m === 'skills/list').length, 5);
  });

  test('on 2026-07-28 a result without ttlMs and cacheScope is refused', async () => {
    // SDK v1 cannot negotiate 2026-07-28, so the revision is set with the protocolVersion option.
    const client = await connect('uncached');
    const legacy = new SkillsClient(client);
    assert.deepEqual((await legacy.list()).skills, [bravo]);
    assert.deepEqual((await legacy.get(bravo.uri)).skill, bravo);
    const modern = new SkillsClient(client, { protocolVersion: '2026-07-28' });
    await assert.rejects(modern.list(), resultError('skills/list', /no ttlMs or cacheScope, which protocol 2026-07-28 requires/));
    await assert.rejects(modern.get(bravo.uri), resultError('skills/get', /no ttlMs or cacheScope/));
  });

  test('skills/get answering with another skill, or an invalid entry, is refused', async () => {
    await assert.rejects(new SkillsClient(await connect('get-other')).get(alpha.uri), resultError('skills/get', /another skill, skill:\/\/bravo\/SKILL\.md/));
    await assert.rejects(new SkillsClient(await connect('get-invalid')).get('skill://charlie/SKILL.md'), resultError('skills/get', /invalid entry/));
  });

  test('a directory child outside the folder is refused', async () => {
    const skills = new SkillsClient(await connect('dir-lie'));
    assert.equal(skills.directoryRead, true);
    await assert.rejects(
      skills.readDirectory('skill://bravo'),
      resultError('resources/directory/read', /skill:\/\/elsewhere\/evil\.md, which is not a direct child/),
    );
  });

  test('a server without the extension: empty listing and no request', async () => {
    const client = await connect('plain');
    const skills = new SkillsClient(client);
    const before = [...lying.methods('plain')];
    assert.equal(skills.supported, false);
    assert.deepEqual(await skills.list(), { skills: [], invalid: [] });
    assert.deepEqual(lying.methods('plain'), before, 'no request was sent');
    assert.ok(!before.includes('skills/list'));
    await assert.rejects(skills.get(bravo.uri), SkillsUnsupportedError);
    await assert.rejects(skills.read(bravo), SkillsUnsupportedError);
    assert.deepEqual(lying.methods('plain'), before);
  });
});
