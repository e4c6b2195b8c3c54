/**
 * examples/s3-replicas, two replicas started as its README says, on one prefix of the S3-protocol
 * server the tests use (s3rver, or S3_ENDPOINT): both serve what `skillmount publish` wrote, one
 * client whose requests alternate between them (a round-robin load balancer) lists and verifies
 * every skill, and a second publish reaches both by their own polling.
 */
import assert from 'node:assert/strict';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SkillsClient } from '@skillmount/core/client';
import { runCli } from '../live/helpers.js';
import { s3Env, s3ForTest } from '../support/s3-server.js';
import { EXAMPLES } from '../support/skills-suite.js';
import { waitFor } from '../support/wait.js';
import { freshPrefix } from '../storage-s3/helpers.js';
import { connectSkills, listedUris, skillNamed, lastFirst, startExample } from './helpers.js';

const SKILL_URIS = ['skill://acme/billing/refunds/SKILL.md', 'skill://git-workflow/SKILL.md', 'skill://pdf-processing/SKILL.md'];
const RELEASE_NOTES = '---\nname: release-notes\ndescription: Write release notes from merged pull requests.\n---\n\n# Release notes\n';

test('s3-replicas: two replicas serve one bucket, any request to either, and both follow a publish', async (t) => {
  const cleanups = lastFirst(t);
  const { server, bucket } = await s3ForTest(cleanups);
  const prefix = freshPrefix('examples-replicas');
  const folder = await mkdtemp(path.join(tmpdir(), 'skillmount-replicas-'));
  cleanups.after(() => rm(folder, { recursive: true, force: true }));
  await cp(EXAMPLES, folder, { recursive: true });
  const publish = async () => {
    const result = await runCli(['publish', folder, `s3://${bucket}/${prefix}`], s3Env(server));
    assert.equal(result.code, 0, `skillmount publish failed:\n${result.stderr}`);
  };
  await publish();

  const env = { ...s3Env(server), S3_BUCKET: bucket, S3_PREFIX: prefix, S3_POLL_INTERVAL_MS: '200' };
  const replicas = await Promise.all(['one', 'two'].map((name) => startExample(cleanups, 's3-replicas', { ...env, REPLICA_NAME: name })));

  // Each replica on its own: the same skills, the same digests, and its own name in the instructions.
  const sessions = await Promise.all(replicas.map((replica) => connectSkills(cleanups, replica.url)));
  assert.deepEqual(
    sessions.map((s) => s.client.getInstructions()?.startsWith('Served by replica ')),
    [true, true],
  );
  assert.match(sessions[0]!.client.getInstructions()!, /replica one\./);
  assert.match(sessions[1]!.client.getInstructions()!, /replica two\./);
  const listings = await Promise.all(sessions.map((s) => s.skills.list()));
  assert.deepEqual(listings[0]!.skills.map((e) => e.uri).sort(), SKILL_URIS);
  assert.deepEqual(listings[1]!.skills, listings[0]!.skills, 'both replicas publish the same entries and digests');

  // One client behind a round-robin balancer: initialize on one replica, the next request on the other, and so on.
  const hits = [0, 0];
  const balanced = new Client({ name: 'examples-test', version: '1.0.0' });
  await balanced.connect(
    new StreamableHTTPClientTransport(new URL(replicas[0]!.url), {
      fetch: (_url, init) => {
        const turn = (hits[0]! + hits[1]!) % 2;
        hits[turn]!++;
        return fetch(replicas[turn]!.url, init);
      },
    }),
  );
  cleanups.after(() => balanced.close());
  const skills = new SkillsClient(balanced);
  for (const entry of (await skills.list()).skills) {
    if (entry.resources === 'dynamic') assert.fail(`${entry.uri} is listed with its files`);
    for (const file of entry.resources) {
      const read = await skills.read(entry, file.uri);
      assert.equal(read.verified, true, file.uri);
      assert.deepEqual(Buffer.from(read.bytes), await readFile(path.join(EXAMPLES, file.uri.slice('skill://'.length))), file.uri);
    }
  }
  assert.ok(hits[0]! >= 5 && hits[1]! >= 5, `requests reached both replicas (${hits.join(' and ')})`);
  await balanced.close();

  // Publish once: each replica notices by itself (one conditional GET of the manifest per poll).
  await mkdir(path.join(folder, 'release-notes'));
  await writeFile(path.join(folder, 'release-notes/SKILL.md'), RELEASE_NOTES);
  await publish();
  for (const [index, session] of sessions.entries()) {
    await waitFor(
      async () => (await listedUris(session.skills)).includes('skill://release-notes/SKILL.md'),
      `replica ${index + 1} to serve the new skill`,
      20_000,
    );
    const md = await session.skills.read(await skillNamed(session.skills, 'release-notes'));
    assert.equal(md.text, RELEASE_NOTES);
  }

  for (const session of sessions) await session.client.close();
  await Promise.all(replicas.map((replica) => replica.stop()));
});
