/**
 * The skills client against the official SDK v2 server (`loadSkills` + `createMcpHandler`) over
 * real HTTP: list, get, read every file verified, directories, percent-encoded names.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SkillVerificationError, SkillsClient, type SkillEntry } from '@skillmount/core/client';
import { EXAMPLES } from '../support/skills-suite.js';
import { diskBytes } from './support/disk.js';
import { connectV1, serveV2Folder, trickySkillsFolder } from './support/servers.js';

type V2Served = Awaited<ReturnType<typeof serveV2Folder>>;

describe('SkillsClient against the SDK v2 server (examples/skills, one skill per page)', () => {
  let served: V2Served;
  let client: Client;
  let skills: SkillsClient;

  before(async () => {
    served = await serveV2Folder(EXAMPLES, { pageSize: 1 });
    client = await connectV1(served.url);
    skills = new SkillsClient(client);
  });
  after(async () => {
    await client.close();
    await served.close();
  });

  test('sees the extension, lists exactly what the v2 catalog serves, and gets each entry', async () => {
    assert.equal(skills.supported, true);
    assert.equal(skills.directoryRead, true);
    const listing = await skills.list();
    assert.deepEqual(listing.invalid, []);
    assert.ok(listing.skills.length >= 2);
    assert.deepEqual(listing.skills, JSON.parse(JSON.stringify(served.catalog.entries)));
    for (const entry of listing.skills) assert.deepEqual((await skills.get(entry.uri)).skill, entry);
  });

  test('read() verifies every file of every served skill against the disk', async () => {
    const { skills: entries } = await skills.list();
    let count = 0;
    for (const entry of entries) {
      for (const resource of entry.resources as { uri: string }[]) {
        const file = await skills.read(entry, resource.uri);
        assert.equal(file.verified, true, resource.uri);
        assert.ok(Buffer.from(file.bytes).equals(diskBytes(EXAMPLES, resource.uri)), resource.uri);
        count++;
      }
      const md = await skills.read(entry);
      assert.deepEqual(md.frontmatter, entry.frontmatter);
      assert.equal(typeof md.body, 'string');
    }
    assert.ok(count >= 7, `${count} files read`);
  });

  test('relative refs and an escaping ref', async () => {
    const { skills: entries } = await skills.list();
    const refunds = entries.find((s) => s.frontmatter.name === 'refunds')!;
    const file = await skills.read(refunds, './templates/regional/eu.md#wording');
    assert.equal(file.uri, 'skill://acme/billing/refunds/templates/regional/eu.md');
    assert.equal(file.verified, true);
    await assert.rejects(skills.read(refunds, '../../other/SKILL.md'), (e: unknown) => e instanceof SkillVerificationError && e.reason === 'unlisted');
  });

  test('readDirectory() reaches every listed file', async () => {
    const { skills: entries } = await skills.list();
    for (const entry of entries) {
      const files: string[] = [];
      const walk = async (uri: string) => {
        for (const child of (await skills.readDirectory(uri)).resources) {
          if (child.mimeType === 'inode/directory') await walk(child.uri);
          else files.push(child.uri);
        }
      };
      await walk(entry.uri.slice(0, -'/SKILL.md'.length));
      assert.deepEqual(files.sort(), (entry.resources as { uri: string }[]).map((r) => r.uri).sort());
    }
  });
});

describe('SkillsClient against the SDK v2 server: names that need percent-encoding', () => {
  const folder = trickySkillsFolder();
  let served: V2Served;
  let client: Client;
  let skills: SkillsClient;
  let entry: SkillEntry;

  before(async () => {
    served = await serveV2Folder(folder.root);
    client = await connectV1(served.url);
    skills = new SkillsClient(client);
    [entry] = (await skills.list()).skills as [SkillEntry];
  });
  after(async () => {
    await client.close();
    await served.close();
    folder.remove();
  });

  test('reads every spelling of the awkward names, requesting the entry spelling', async () => {
    const qa = (entry.resources as { uri: string }[]).find((r) => r.uri.includes('Q'))!.uri;
    for (const ref of ['references/Q&A.md', 'references/Q%26A.md', 'references/Q&A.md#x']) {
      const file = await skills.read(entry, ref);
      assert.equal(file.uri, qa);
      assert.equal(file.verified, true);
      assert.equal(file.text, '# Questions & answers\n');
    }
    for (const ref of ['references/read me ü.md', 'references/read%20me%20%C3%BC.md']) {
      const file = await skills.read(entry, ref);
      assert.equal(file.verified, true);
      assert.ok(Buffer.from(file.bytes).equals(diskBytes(folder.root, file.uri)));
    }
    const md = await skills.read(entry);
    assert.deepEqual(md.frontmatter?.metadata, { reviewed: 'yes', draft: 'no', enabled: 'on' });
  });
});
