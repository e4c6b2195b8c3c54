import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EXAMPLES } from '../support/skills-suite.js';

const BIN = path.resolve(import.meta.dirname, '../../packages/cli/dist/bin.js');
const cli = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });

test('check: the examples are clean', () => {
  const r = cli('check', EXAMPLES);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /3 skills valid, 0 problems/);
  assert.match(r.stdout, /ok skill:\/\/acme\/billing\/refunds\/SKILL\.md \(5 files, \d+ bytes\)/);
});

test('check: every problem is printed with its path, and the exit code is 1', async (t) => {
  const root = await mkdtemp(path.join(tmpdir(), 'skillmount-check-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const put = async (rel: string, content: string) => {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), content);
  };
  await put('good/SKILL.md', '---\nname: good\ndescription: Fine.\n---\n');
  await put('wrong-name/SKILL.md', '---\nname: other\ndescription: Mismatch.\n---\n');
  await put('no-description/SKILL.md', '---\nname: no-description\n---\n');
  await put('broken-yaml/SKILL.md', '---\nname: [unclosed\ndescription: x\n---\n');
  await put('linked/SKILL.md', '---\nname: linked\ndescription: Has a symlink.\n---\n');
  await symlink('/etc/hostname', path.join(root, 'linked/escape.txt'));
  await put('SKILL.md', '---\nname: root\ndescription: At the root.\n---\n');

  const r = cli('check', root);
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /wrong-name\/SKILL\.md: .*must equal its folder name "wrong-name"/);
  assert.match(r.stdout, /no-description\/SKILL\.md: .*description/);
  assert.match(r.stdout, /broken-yaml\/SKILL\.md: .*invalid YAML/);
  assert.match(r.stdout, /linked\/escape\.txt: .*symlink/);
  assert.match(r.stdout, /SKILL\.md: .*storage root/);
  assert.match(r.stdout, /1 skill valid, 5 problems/);

  const json = cli('check', root, '--json');
  assert.equal(json.status, 1);
  const parsed = JSON.parse(json.stdout);
  assert.deepEqual(parsed.skills.map((s: { uri: string }) => s.uri), ['skill://good/SKILL.md']);
  assert.equal(parsed.problems.length, 5);
});

test('usage mistakes exit 2 with a pointer to --help', () => {
  for (const args of [['check'], ['frobnicate'], ['check', EXAMPLES, '--bogus'], ['serve', EXAMPLES, '--port', 'x'], ['serve', EXAMPLES, '--framework', 'koa']]) {
    const r = cli(...args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /skillmount --help/);
  }
  const missing = cli('check', '/no/such/folder');
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /no such folder: \/no\/such\/folder/);
});

test('--help', () => {
  const r = cli('--help');
  assert.equal(r.status, 0);
  assert.match(r.stdout, /skillmount serve <folder>/);
});
