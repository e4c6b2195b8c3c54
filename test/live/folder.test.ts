/**
 * `skillmount serve <folder>` follows the folder (fs.watch): a connected session client is told
 * (`notifications/resources/list_changed`) and sees the new digest, with no restart. `--no-watch`
 * turns that off.
 */
import assert from 'node:assert/strict';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { EXAMPLES } from '../support/skills-suite.js';
import { sha256, startServe, watchingClient } from './helpers.js';

const SKILL = 'skill://git-workflow/SKILL.md';
const FILE = 'skill://git-workflow/references/commit-messages.md';
const FILE_PATH = 'git-workflow/references/commit-messages.md';

async function copyOfExamples(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'skillmount-live-folder-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  await cp(EXAMPLES, root, { recursive: true });
  return root;
}

test('folder: a changed file and a new skill reach a connected client within 10 s', async (t) => {
  const root = await copyOfExamples(t);
  const server = await startServe(root);
  t.after(async () => {
    assert.equal(await server.stop(), 0, server.stderr());
  });
  assert.match(server.stdout(), /\(fastify, sessions, watching\) from /);
  const client = await watchingClient(server.url);
  t.after(() => client.close());

  const content = '# Commit messages\n\nChanged while the server runs.\n';
  assert.notEqual(await client.digestOf(SKILL, FILE), sha256(content));
  let since = client.changes;
  const started = Date.now();
  await writeFile(path.join(root, FILE_PATH), content);
  await client.changed(since);
  t.diagnostic(`list_changed ${Date.now() - started} ms after the write`);
  assert.equal(await client.digestOf(SKILL, FILE), sha256(content), 'skills/get publishes the new digest');

  since = client.changes;
  await mkdir(path.join(root, 'release-notes'));
  await writeFile(path.join(root, 'release-notes/SKILL.md'), '---\nname: release-notes\ndescription: Write release notes.\n---\n# Release notes\n');
  await client.changed(since);
  const { skills } = await client.call('skills/list', {});
  assert.ok(
    skills.some((s: { uri: string }) => s.uri === 'skill://release-notes/SKILL.md'),
    'the new skill is listed',
  );
});

test('folder --no-watch: changes are not picked up', async (t) => {
  const root = await copyOfExamples(t);
  const server = await startServe(root, ['--no-watch']);
  t.after(async () => {
    assert.equal(await server.stop(), 0, server.stderr());
  });
  assert.match(server.stdout(), /\(fastify, sessions\) from /);
  const client = await watchingClient(server.url);
  t.after(() => client.close());

  const before = await client.digestOf(SKILL, FILE);
  await writeFile(path.join(root, FILE_PATH), '# Commit messages\n\nNot noticed.\n');
  // Longer than a watching server needs (debounce 100 ms plus a reload).
  await new Promise((resolve) => setTimeout(resolve, 1500));
  assert.equal(client.changes, 0, 'no list_changed');
  assert.equal(await client.digestOf(SKILL, FILE), before, 'the old entry is still served');
});
