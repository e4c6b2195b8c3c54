/**
 * `skillmount serve <folder>` follows the folder (fs.watch): a connected session client is told
 * (`notifications/resources/list_changed`) and sees the new digest, with no restart. `--no-watch`
 * turns that off.
 */
import assert from 'node:assert/strict';
import { cp, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { EXAMPLES } from '../support/skills-suite.js';
import { waitFor } from '../support/wait.js';
import { LIVE_PATIENCE_MS, sha256, startServe, watchingClient } from './helpers.js';

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

test('folder: a file replaced by a rename (as editors and sed -i save), then edited in place, is served anew each time within 10 s', async (t) => {
  const root = await copyOfExamples(t);
  const server = await startServe(root);
  t.after(async () => {
    assert.equal(await server.stop(), 0, server.stderr());
  });
  const client = await watchingClient(server.url);
  t.after(() => client.close());
  const file = path.join(root, FILE_PATH);
  // Each within 10 s (client.changed): well under the 60 s full walk that used to be the only thing to catch the edits.
  const served = async (what: string, content: string, write: () => Promise<void>) => {
    const since = client.changes;
    const started = Date.now();
    await write();
    await client.changed(since);
    await waitFor(async () => (await client.digestOf(SKILL, FILE)) === sha256(content), `${what}: the new digest published`, LIVE_PATIENCE_MS);
    t.diagnostic(`${what}: served ${Date.now() - started} ms after the write`);
  };
  const replaced = '# Commit messages\n\nReplaced by a rename.\n';
  await served('replaced', replaced, async () => {
    await writeFile(`${file}.tmp`, replaced);
    await rename(`${file}.tmp`, file);
  });
  const edited = '# Commit messages\n\nThen edited in place.\n';
  await served('edited in place', edited, () => writeFile(file, edited));
  const same = '# Commit messages\n\nThen EDITED in place.\n';
  assert.equal(same.length, edited.length, 'same size: the token must not rest on the size alone');
  await served('edited again, same size', same, () => writeFile(file, same));
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
