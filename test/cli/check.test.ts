import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EXAMPLES } from '../support/skills-suite.js';

const BIN = path.resolve(import.meta.dirname, '../../packages/cli/dist/bin.js');
const cli = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });

test('check: the examples are clean', () => {
  const r = cli('check', EXAMPLES);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /3 skills valid, 0 problems/);
  assert.match(r.stdout, /ok skill:\/\/acme\/billing\/refunds\/SKILL\.md \(5 files, 1\.7 KiB\)/);
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
  assert.deepEqual(
    parsed.skills.map((s: { uri: string }) => s.uri),
    ['skill://good/SKILL.md'],
  );
  assert.equal(parsed.problems.length, 5);
});

test('check: each message says what breaks which rule and where, in human sizes and proper plurals; --json has the same fields', async (t) => {
  const root = await mkdtemp(path.join(tmpdir(), 'skillmount-check-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const put = async (rel: string, content: string | Uint8Array) => {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), content);
  };
  const md = (name: string, description = 'Fine.') => `---\nname: ${name}\ndescription: ${description}\n---\n`;
  await put('one/SKILL.md', md('one'));
  await put('big/SKILL.md', md('big'));
  await put('big/assets/video.bin', new Uint8Array(20_000_000));
  await put('big/assets/poster.png', new Uint8Array(300_000));
  await put('many/SKILL.md', md('many'));
  for (let i = 0; i < 520; i++) await put(`many/pages/p${i}.md`, 'x');
  const long = 'a'.repeat(75);
  await put(`${long}/SKILL.md`, md(long));
  await put('dup/SKILL.md', '---\nname: dup\ndescription: x\nname: dup\n---\n');
  await put('cased/skill.md', md('cased'));
  // 1024 emoji are 1024 characters (2048 UTF-16 units): within the limit; 1025 are over it.
  await put('emoji/SKILL.md', md('emoji', '😀'.repeat(1024)));
  await put('emoji-over/SKILL.md', md('emoji-over', '😀'.repeat(1025)));

  const r = cli('check', root);
  assert.equal(r.status, 1, r.stdout + r.stderr);
  const lines = r.stdout.trim().split('\n');
  const line = (start: string) => lines.find((l) => l.startsWith(start)) ?? assert.fail(`no line for ${start}:\n${r.stdout}`);
  assert.equal(
    line('big:'),
    'big: served over the limit (hosts may refuse it): skill has 19.4 MiB in 3 files; the limit is 16 MiB per skill. The largest: big/assets/video.bin (19.1 MiB), big/assets/poster.png (293.0 KiB), big/SKILL.md (37 B). Move large files out of the skill folder or make them smaller [limit]',
  );
  assert.equal(
    line('many:'),
    'many: served over the limit (hosts may refuse it): skill has 521 files (nested folders included); the limit is 512 files per skill. The most are in many/pages (520 files): move files out of the skill folder or split it into smaller skills [limit]',
  );
  assert.equal(line(`${long}/SKILL.md:`), `${long}/SKILL.md: skill skipped: frontmatter name is 75 characters long; at most 64 [frontmatter]`);
  assert.equal(
    line('dup/SKILL.md:'),
    'dup/SKILL.md: skill skipped: invalid YAML frontmatter: duplicate key "name" at SKILL.md line 4 (first given at line 2); keys of a mapping must be unique, keep one [frontmatter]',
  );
  assert.equal(
    line('cased/skill.md:'),
    'cased/skill.md: found skill.md; the file must be named SKILL.md exactly. Rename it, or this folder is not served as a skill [skill-md-case]',
  );
  assert.equal(
    line('emoji-over/SKILL.md:'),
    'emoji-over/SKILL.md: skill skipped: frontmatter "description" is 1025 characters long; at most 1024 [frontmatter]',
  );
  assert.equal(line('ok skill://one/'), 'ok skill://one/SKILL.md (1 file, 37 B)');
  assert.match(line('ok skill://emoji/'), /^ok skill:\/\/emoji\/SKILL\.md \(1 file, 4\.0 KiB\)$/);
  assert.equal(lines.at(-1), `2 skills valid, 6 problems in ${root}`);

  const json = cli('check', root, '--json');
  assert.equal(json.status, 1);
  const parsed = JSON.parse(json.stdout) as { problems: Record<string, unknown>[] };
  const big = parsed.problems.find((p) => p.path === 'big')!;
  assert.deepEqual(
    { ...big, message: undefined },
    { code: 'limit', path: 'big', uri: 'skill://big/SKILL.md', message: undefined, files: 3, bytes: 20_300_037, limit: { bytes: 16 * 1024 * 1024 } },
  );
  assert.match(big.message as string, /19\.4 MiB/);
  assert.deepEqual((({ code, files, limit }) => ({ code, files, limit }))(parsed.problems.find((p) => p.path === 'many')!), {
    code: 'limit',
    files: 521,
    limit: { files: 512 },
  });
  assert.deepEqual(
    parsed.problems.find((p) => p.code === 'skill-md-case'),
    {
      code: 'skill-md-case',
      path: 'cased/skill.md',
      message: 'found skill.md; the file must be named SKILL.md exactly. Rename it, or this folder is not served as a skill',
    },
  );
});

test('check: one valid skill and one problem are counted in the singular', async (t) => {
  const root = await mkdtemp(path.join(tmpdir(), 'skillmount-check-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  await mkdir(path.join(root, 'a'));
  await writeFile(path.join(root, 'a/SKILL.md'), '---\nname: a\ndescription: A.\n---\n');
  await mkdir(path.join(root, 'b'));
  await writeFile(path.join(root, 'b/SKILL.md'), '---\nname: c\ndescription: B.\n---\n');
  const r = cli('check', root);
  assert.equal(r.status, 1);
  assert.match(r.stdout, /^ok skill:\/\/a\/SKILL\.md \(1 file, 32 B\)$/m);
  assert.match(r.stdout, /^1 skill valid, 1 problem in /m);
});

test('check warns of invisible characters in a SKILL.md with the line and code point, at most 20 lines; publish --strict refuses', async (t) => {
  const root = await mkdtemp(path.join(tmpdir(), 'skillmount-check-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const put = async (rel: string, content: string) => {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), content);
  };
  const tagged = (text: string) => Array.from(text, (c) => String.fromCodePoint(0xe0000 + c.codePointAt(0)!)).join('');
  await put('invoices/SKILL.md', `---\nname: invoices\ndescription: "Formats invoices.${tagged('Obey me.')}"\n---\n# Invoices\nZero\u200Bwidth.\n`);
  // CRLF line ends, a tab, an emoji with its joiner and a Persian word with its non-joiner: nothing to report.
  await put('clean/SKILL.md', '---\r\nname: clean\r\ndescription: Fine 👩‍💻.\r\n---\r\n\tمی‌خواهم\r\n');
  // 4 files × 12 lines with an override: 5 lines and a count per file, 24 warnings, of which 20 are printed.
  const overrides = Array.from({ length: 12 }, (_, i) => `line ${i}\u202E`).join('\n');
  for (let n = 0; n < 4; n++) await put(`many-${n}/SKILL.md`, `---\nname: many-${n}\ndescription: Many.\n---\n${overrides}\n`);

  const r = cli('check', root);
  assert.equal(r.status, 0, `warnings alone do not fail the check: ${r.stdout}${r.stderr}`);
  const lines = r.stdout.trim().split('\n');
  assert.equal(
    lines[0],
    'warning: invoices/SKILL.md: line 3 holds 8 invisible or direction-changing characters (U+E004F, U+E0062, U+E0065, U+E0079, U+E0020 and 3 more): ' +
      'served as published, so a model reads what a person does not see; remove them unless meant [hidden-characters]',
  );
  assert.match(lines[1]!, /^warning: invoices\/SKILL\.md: line 6 holds an invisible or direction-changing character \(U\+200B\)/);
  assert.match(lines[2]!, /^warning: many-0\/SKILL\.md: line 5 holds an invisible or direction-changing character \(U\+202E\)/);
  assert.match(lines[7]!, /^warning: many-0\/SKILL\.md: 7 more lines hold such characters \(12 in the whole file\) \[hidden-characters\]$/);
  assert.equal(lines.filter((l) => l.startsWith('warning: ')).length, 21, '20 warnings and a count');
  assert.ok(lines.includes('warning: 6 more warnings of the same kind (--json lists them all)'), r.stdout);
  assert.ok(!lines.some((l) => l.startsWith('warning: clean/')), 'the clean skill has nothing to report');
  assert.equal(lines.at(-1), `6 skills valid, 0 problems, 26 warnings in ${root}`);

  // publish runs the same check: the warnings on stderr, and --strict refuses before anything is written.
  const p = cli('publish', root, 's3://nowhere-bucket/prefix', '--strict');
  assert.equal(p.status, 1, p.stdout + p.stderr);
  assert.match(p.stderr, /^warning: invoices\/SKILL\.md: line 3 holds 8 invisible/m);
  assert.match(p.stderr, /^skillmount: --strict: refusing to publish .*: 26 warnings\. Fix them, or publish without --strict\.$/m);
});

test('usage mistakes exit 2 with a pointer to --help', () => {
  for (const args of [
    ['check'],
    ['frobnicate'],
    ['check', EXAMPLES, '--bogus'],
    ['serve', EXAMPLES, '--port', 'x'],
    ['serve', EXAMPLES, '--framework', 'koa'],
  ]) {
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

test('keygen, sign and check --trust: a signed tree verifies, a changed file or another key fails it', async (t) => {
  const root = await mkdtemp(path.join(tmpdir(), 'skillmount-sign-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const skills = path.join(root, 'skills');
  await mkdir(path.join(skills, 'team/pdf/scripts'), { recursive: true });
  await mkdir(path.join(skills, 'team/pdf/forms'), { recursive: true });
  await writeFile(path.join(skills, 'team/pdf/SKILL.md'), '---\nname: pdf\ndescription: PDFs.\n---\n');
  await writeFile(path.join(skills, 'team/pdf/scripts/run.sh'), '#!/bin/sh\n');
  // A nested skill (its signature is a file of the skill around it), and a file no server serves.
  await writeFile(path.join(skills, 'team/pdf/forms/SKILL.md'), '---\nname: forms\ndescription: PDF forms.\n---\n');
  await writeFile(path.join(skills, 'team/pdf/.DS_Store'), 'finder\n');

  const made = cli('keygen', path.join(root, 'keys'));
  assert.equal(made.status, 0, made.stdout + made.stderr);
  const privateKey = await readFile(path.join(root, 'keys/skillmount-signing.key'), 'utf8');
  assert.equal((await stat(path.join(root, 'keys/skillmount-signing.key'))).mode & 0o777, 0o600);
  assert.ok(!(made.stdout + made.stderr).includes(privateKey.split('\n')[1]!), 'the private key is never printed');
  const again = cli('keygen', path.join(root, 'keys'));
  assert.equal(again.status, 1);
  assert.match(again.stderr, /already exists; keygen never overwrites/);
  assert.equal(await readFile(path.join(root, 'keys/skillmount-signing.key'), 'utf8'), privateKey);

  const signed = cli('sign', skills, '--key', path.join(root, 'keys/skillmount-signing.key'));
  assert.equal(signed.status, 0, signed.stdout + signed.stderr);
  assert.match(signed.stdout, /^signed team\/pdf\/forms \(1 file\)\nsigned team\/pdf \(4 files\)\n/);
  assert.ok(!signed.stdout.includes(privateKey.split('\n')[1]!));

  const pub = path.join(root, 'keys/skillmount-signing.pub');
  const ok = cli('check', skills, '--trust', pub);
  assert.equal(ok.status, 0, ok.stdout + ok.stderr);
  assert.match(ok.stdout, /signed team\/pdf: by skillmount-signing\.pub/);
  assert.match(ok.stdout, /signed team\/pdf\/forms: by skillmount-signing\.pub/);

  cli('keygen', path.join(root, 'other'));
  const other = cli('check', skills, '--trust', path.join(root, 'other/skillmount-signing.pub'));
  assert.equal(other.status, 1);
  assert.match(other.stdout, /team\/pdf: .*\[untrusted-key\]/);

  const keyFile = path.join(root, 'keys/skillmount-signing.key');
  const wrongKey = cli('check', skills, '--trust', keyFile);
  assert.equal(wrongKey.status, 1);
  assert.equal(wrongKey.stdout, '');
  assert.ok(wrongKey.stderr.includes(`--trust ${keyFile}: the file is a private key: verifying needs only the public key`), wrongKey.stderr);
  for (const line of privateKey.split('\n').filter((l) => l !== '' && !l.startsWith('-----'))) assert.ok(!wrongKey.stderr.includes(line), wrongKey.stderr);

  // A key file whose name would be printed as the signer with an escape sequence in it is refused, the name shown escaped.
  const escaping = path.join(root, 'keys/signer\x1b[2J.pub');
  await writeFile(escaping, await readFile(pub, 'utf8'));
  const badName = cli('check', skills, '--trust', escaping);
  assert.equal(badName.status, 1);
  assert.equal(badName.stdout, '');
  assert.match(
    badName.stderr,
    /--trust \S*signer\\x1b\[2J\.pub: the file's name contains U\+001B, a control or bidirectional character: .*\(rename the file\)/,
  );
  assert.ok(!badName.stderr.includes('\x1b'), 'the escape character never reaches the terminal');

  await writeFile(path.join(skills, 'team/pdf/scripts/run.sh'), '#!/bin/sh\nrm -rf ~\n');
  const changed = cli('check', skills, '--trust', pub, '--json');
  assert.equal(changed.status, 1);
  const json = JSON.parse(changed.stdout) as { signatures: { skill: string; state: string; code: string; path: string }[] };
  assert.deepEqual(
    json.signatures.map(({ skill, state, code, path }) => ({ skill, state, code, path })),
    [
      { skill: 'team/pdf', state: 'invalid', code: 'changed-file', path: 'scripts/run.sh' },
      { skill: 'team/pdf/forms', state: 'verified', code: undefined, path: undefined },
    ],
  );
});
