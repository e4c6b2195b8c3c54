import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SkillCatalog } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import { EXAMPLES } from '../support/skills-suite.js';
import { serveOurs, type Served } from '../client/support/servers.js';
import { hostileSkills, startLyingServer, type LyingServer } from '../client/support/lying-server.js';

const BIN = path.resolve(import.meta.dirname, '../../packages/cli/dist/bin.js');

/** Run the CLI without blocking this process, which serves the endpoints it talks to. */
const cli = (...args: string[]) =>
  new Promise<{ code: number; stdout: Buffer; stderr: string }>((resolve) => {
    execFile(process.execPath, [BIN, ...args], { encoding: 'buffer' }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr: stderr.toString('utf8') }),
    );
  });

let ours: Served;
let liar: LyingServer;
before(async () => {
  ours = await serveOurs(await SkillCatalog.load(fsStorage(EXAMPLES)));
  liar = await startLyingServer();
});
after(async () => {
  await ours.close();
  await liar.close();
});

test('ls prints a table of every skill', async () => {
  const r = await cli('ls', ours.url);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.toString('utf8').trim().split('\n');
  // refunds names its version (metadata.version); the others have none.
  assert.match(lines[0]!, /^NAME\s+VERSION\s+FILES\s+SIZE\s+URI\s+DESCRIPTION$/);
  assert.match(lines[1]!, /^refunds\s+2\.3\.0\s+5\s+[\d.]+ KiB\s+skill:\/\/acme\/billing\/refunds\/SKILL\.md\s+Process customer refund/);
  assert.match(lines[2]!, /^git-workflow\s+-\s+2\s/);
  assert.equal(lines.length, 4);
});

test('ls --json', async () => {
  const r = await cli('ls', ours.url, '--json');
  assert.equal(r.code, 0, r.stderr);
  const rows = JSON.parse(r.stdout.toString('utf8'));
  assert.deepEqual(
    rows.map((x: { name: string }) => x.name),
    ['refunds', 'git-workflow', 'pdf-processing'],
  );
  assert.equal(rows[0].version, '2.3.0');
  const gitWorkflow = rows[1];
  assert.ok(!('version' in gitWorkflow), 'no version key without a version');
  const onDisk = ['SKILL.md', 'references/commit-messages.md'].reduce((n, f) => n + readFileSync(path.join(EXAMPLES, 'git-workflow', f)).length, 0);
  assert.equal(gitWorkflow.files, 2);
  assert.equal(gitWorkflow.bytes, onDisk);
});

test('get prints verified bytes: SKILL.md by default, a file relative to the skill, a binary file', async () => {
  const md = await cli('get', ours.url, 'skill://git-workflow/SKILL.md');
  assert.equal(md.code, 0, md.stderr);
  assert.ok(md.stdout.equals(readFileSync(path.join(EXAMPLES, 'git-workflow/SKILL.md'))));
  const ref = await cli('get', ours.url, 'skill://git-workflow/SKILL.md', 'references/commit-messages.md');
  assert.ok(ref.stdout.equals(readFileSync(path.join(EXAMPLES, 'git-workflow/references/commit-messages.md'))));
  const png = await cli('get', ours.url, 'skill://pdf-processing/SKILL.md', './assets/logo.png');
  assert.ok(png.stdout.equals(readFileSync(path.join(EXAMPLES, 'pdf-processing/assets/logo.png'))));
});

test('get refuses what does not verify, naming the reason, and prints none of it', async () => {
  const cases: [string, string | undefined, string][] = [
    ['skill://wrong-size/SKILL.md', 'data.txt', 'size'],
    ['skill://wrong-digest/SKILL.md', 'data.txt', 'digest'],
    ['skill://frontmatter-lie/SKILL.md', undefined, 'frontmatter'],
    ['skill://honest/SKILL.md', 'not-listed.md', 'unlisted'],
  ];
  for (const [skill, file, reason] of cases) {
    const r = await cli('get', liar.url('reads'), skill, ...(file ? [file] : []));
    assert.equal(r.code, 1, `${skill} ${file}: ${r.stderr}`);
    assert.match(r.stderr, new RegExp(`refused \\(${reason}\\)`), r.stderr);
    assert.equal(r.stdout.length, 0, 'no bytes on stdout');
  }
});

test('get refuses a hostile SKILL.md, naming the limit it broke, and prints none of it', async () => {
  const cases: [string, RegExp][] = [
    [hostileSkills().byKey.keys40k!.uri, /cannot be parsed: the frontmatter is \d+ bytes; the limit is 64 KiB/],
    [hostileSkills().byKey.flowSeqNesting!.uri, /more than 32 levels deep/],
    [hostileSkills().byKey.scalar15MiB!.uri, /was not requested: SKILL\.md is \d+ bytes; the limit is 1 MiB/],
  ];
  for (const [uri, limit] of cases) {
    const r = await cli('get', liar.url('hostile'), uri);
    assert.equal(r.code, 1, `${uri}: ${r.stderr}`);
    assert.match(r.stderr, /refused \(frontmatter\)/);
    assert.match(r.stderr, limit);
    assert.equal(r.stdout.length, 0, 'no bytes on stdout');
  }
});

test('search: a server without search_skills is ranked here; a table, --json, --limit, and usage errors', async () => {
  const table = await cli('search', ours.url, 'pdf forms');
  assert.equal(table.code, 0, table.stderr);
  const lines = table.stdout.toString('utf8').trim().split('\n');
  assert.match(lines[0]!, /^NAME\s+URI\s+DESCRIPTION$/);
  assert.match(lines[1]!, /^pdf-processing\s+skill:\/\/pdf-processing\/SKILL\.md\s+Extract text/);
  assert.match(table.stderr, /matched, ranked here \(the server has no search_skills tool\)/);
  const json = await cli('search', ours.url, 'git refund pdf', '--json', '--limit', '1');
  assert.equal(json.code, 0, json.stderr);
  const found = JSON.parse(json.stdout.toString('utf8'));
  assert.equal(found.ranked, 'client');
  assert.equal(found.skills.length, 1);
  assert.equal(typeof found.nextCursor, 'string');
  assert.deepEqual(Object.keys(found.skills[0]).sort(), ['description', 'name', 'uri']);
  for (const args of [['--limit', '0'], ['--limit', '51'], []]) {
    const bad = await cli('search', ours.url, ...(args.length === 0 ? [' '] : ['pdf', ...args]));
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, args.length === 0 ? /the query is empty/ : /--limit must be/);
  }
});

test('get of an unknown skill, and a bad URL', async () => {
  const missing = await cli('get', ours.url, 'skill://nope/SKILL.md');
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /not found: .*skill:\/\/nope\/SKILL\.md/);
  const bad = await cli('ls', 'not a url');
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /is not a URL/);
});
