import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { checkSkillsEndpoint, EXAMPLES } from '../support/skills-suite.js';
import { connectClient } from '../support/client.js';
import { ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

const BIN = path.resolve(import.meta.dirname, '../../packages/cli/dist/bin.js');

// A test that fails before it stops its server must not leave it running: its pipes would keep
// this file's process, and so the whole run, waiting for ever.
const started = new Set<ReturnType<typeof spawn>>();
after(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** Start `skillmount serve`, resolve with its URL once it prints it. */
async function serve(args: string[]) {
  const child = spawn(process.execPath, [BIN, 'serve', ...args, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  started.add(child);
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${stderr}`)), 20_000);
    child.stdout.on('data', (d) => {
      stdout += d;
      const m = /serving \d+ skills at (http:\/\/\S+)/.exec(stdout);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  return { child, url, stdout: () => stdout, stderr: () => stderr };
}

for (const framework of ['fastify', 'express']) {
  test(`serve --framework ${framework}: the examples over HTTP, stops on SIGTERM`, async () => {
    const s = await serve([EXAMPLES, '--framework', framework, '--page-size', '2']);
    assert.match(s.stdout(), new RegExp(`serving 3 skills at http://127\\.0\\.0\\.1:\\d+/mcp \\(${framework}, sessions, watching\\)`));
    await checkSkillsEndpoint(s.url, { pageSize: 2 });
    s.child.kill('SIGTERM');
    const [code] = await once(s.child, 'exit');
    assert.equal(code, 0, s.stderr());
  });
}

test('serve: a changed folder is reloaded and connected clients are told', async (t) => {
  const root = await mkdtemp(path.join(tmpdir(), 'skillmount-serve-'));
  await cp(EXAMPLES, root, { recursive: true });
  const s = await serve([root]);
  t.after(async () => {
    s.child.kill('SIGTERM');
    await once(s.child, 'exit');
    await rm(root, { recursive: true, force: true });
  });
  const { client, call, close } = await connectClient(s.url);
  const changed = new Promise<void>((resolve) => client.setNotificationHandler(ResourceListChangedNotificationSchema, () => resolve()));
  const before = (await call('skills/get', { uri: 'skill://git-workflow/SKILL.md' })).skill;
  await writeFile(path.join(root, 'git-workflow/references/commit-messages.md'), '# Commit messages\n\nChanged.\n');
  await changed;
  const after = (await call('skills/get', { uri: 'skill://git-workflow/SKILL.md' })).skill;
  assert.notDeepEqual(after.resources, before.resources);
  const read = await client.readResource({ uri: 'skill://git-workflow/references/commit-messages.md' });
  assert.equal((read.contents[0] as { text: string }).text, '# Commit messages\n\nChanged.\n');
  await close();
});

test('serve --prefix and --stateless', async () => {
  const s = await serve([EXAMPLES, '--prefix', 'org', '--stateless']);
  const { call, close } = await connectClient(s.url);
  const list = await call('skills/list', {});
  assert.ok(list.skills.every((e: { uri: string }) => e.uri.startsWith('skill://org/')));
  await close();
  s.child.kill('SIGINT');
  const [code] = await once(s.child, 'exit');
  assert.equal(code, 0);
});
