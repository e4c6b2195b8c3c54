import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HOSTILE_TEXT, startLyingServer, type LyingServer } from '../client/support/lying-server.js';

/**
 * Terminal injection: text from a server, a storage or a file name must reach the terminal with
 * its control characters (C0, DEL, C1) and bidirectional overrides shown escaped, never raw.
 */
const BIN = path.resolve(import.meta.dirname, '../../packages/cli/dist/bin.js');

const cli = (...args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [BIN, ...args], { encoding: 'utf8' }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });

// Newlines and tabs are the CLI's own layout; everything else here would drive the terminal.
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;

function assertInert(text: string, what: string): void {
  const found = RAW_CONTROL.exec(text);
  assert.equal(found, null, `${what} holds a raw U+${found?.[0].codePointAt(0)?.toString(16).padStart(4, '0')} at ${found?.index}: ${JSON.stringify(text)}`);
}

let liar: LyingServer;
before(async () => {
  liar = await startLyingServer();
});
after(() => liar.close());

test('ls: descriptions with OSC 52, title, clear-screen, C1 and bidi sequences are shown escaped', async () => {
  const r = await cli('ls', liar.url('terminal'));
  assert.equal(r.code, 0, r.stderr);
  assertInert(r.stdout, 'stdout');
  assertInert(r.stderr, 'stderr');
  // The description column shows the description as a reader sees it (controls become spaces, bidi controls go: the
  // visible-text policy), cut at 80 characters counted as shown; --json below keeps the exact text.
  assert.match(r.stdout, /painted .*Harmless\. \]52;c;Y3VybCBldmlsLnNoIHwgc2g= \]0;pwned \[2J \[H/);
});

test('ls --json stays valid JSON that round-trips the exact text, with C1 and bidi escaped too', async () => {
  const r = await cli('ls', liar.url('terminal'), '--json');
  assert.equal(r.code, 0, r.stderr);
  assertInert(r.stdout, 'stdout');
  const rows = JSON.parse(r.stdout) as { name: string; description: string }[];
  assert.equal(rows.find((row) => row.name === 'painted')?.description, HOSTILE_TEXT);
});

test("ls: a skill's version (metadata.version) is one bounded line, escaped; a skill without one shows -; --json has it only where named", async () => {
  const r = await cli('ls', liar.url('versions'));
  assert.equal(r.code, 0, r.stderr);
  assertInert(r.stdout, 'stdout');
  const lines = r.stdout.trim().split('\n');
  assert.match(lines[0]!, /^NAME\s+VERSION\s+FILES\s+SIZE\s+URI\s+DESCRIPTION$/);
  // Controls and the line break become spaces, the bidi override goes, and the line is cut to 32 characters, the ellipsis included.
  const shown = '1.0 ]52;c;Y3VybCBldmlsLnNoIHwgc…';
  assert.equal([...shown].length, 32);
  assert.match(lines[1]!, new RegExp(`^versioned\\s+${shown.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s+1\\s`));
  assert.match(lines[2]!, /^alpha\s+-\s+2\s/);
  assert.equal(lines.length, 3);

  const json = await cli('ls', liar.url('versions'), '--json');
  assertInert(json.stdout, 'stdout');
  const rows = JSON.parse(json.stdout) as { name: string; version?: string }[];
  assert.deepEqual(
    rows.map((row) => [row.name, row.version]),
    [
      ['versioned', shown],
      ['alpha', undefined],
    ],
  );
  assert.ok(!('version' in rows[1]!), 'no version key without a version');
});

test('ls: a listed URI with control characters in its first segment is refused, and the refusal is escaped', async () => {
  const r = await cli('ls', liar.url('terminal-uri'));
  assertInert(r.stdout, 'stdout');
  assertInert(r.stderr, 'stderr');
  assert.equal(r.code, 1, r.stdout);
  assert.match(r.stderr, /1 invalid entry/);
  assert.match(r.stderr, /skill:\/\/acme\\x1b\]0;pwned\\x07\\x1b\[2J\/painted-uri\/SKILL\.md: .*control character/);
});

test('get: a refusal quoting a hostile entry, and a hostile error message, are escaped', async () => {
  const refused = await cli('get', liar.url('terminal'), 'skill://painted-lie/SKILL.md');
  assert.equal(refused.code, 1, refused.stderr);
  assert.equal(refused.stdout, '');
  assertInert(refused.stderr, 'stderr of a refusal');
  assert.match(refused.stderr, /refused \(frontmatter\)/);
  assert.match(refused.stderr, /the entry has "Harmless\.\\u001b\]52;c;.*\\x9b8m hidden \\u202egnp\.exe"/);

  const missing = await cli('get', liar.url('terminal'), 'skill://missing/SKILL.md');
  assert.equal(missing.code, 1, missing.stderr);
  assertInert(missing.stderr, 'stderr of a server error');
  assert.match(missing.stderr, /not found: .*No skill here\.Harmless\.\\x1b\]52;c;/);

  // A URI typed with control characters is refused by the client before any request, and echoed escaped.
  const typed = await cli('get', liar.url('terminal'), 'skill://x\x1b[2J/SKILL.md');
  assert.notEqual(typed.code, 0);
  assertInert(typed.stderr, 'stderr of a typed URI');
  assert.match(typed.stderr, /skill:\/\/x\\x1b\[2J\/SKILL\.md/);
});

/** A skills folder whose file and folder names carry terminal sequences. */
async function paintedFolder(): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'skillmount-terminal-'));
  const put = async (rel: string, content: string) => {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), content);
  };
  await put('good/SKILL.md', '---\nname: good\ndescription: Fine.\n---\n');
  // A file inside a skill, and a skill folder, named with an OSC title sequence and a screen clear.
  await put('named/SKILL.md', '---\nname: named\ndescription: Has a hostile file name.\n---\n');
  await put('named/evil\x1b]0;pwned\x07\x1b[2J.md', 'x');
  await put('title\x1b]0;pwned\x07\u202e/SKILL.md', '---\nname: title\ndescription: Hostile folder name.\n---\n');
  return root;
}

test('check: problems about file and folder names with control characters are printed escaped', async (t) => {
  const root = await paintedFolder();
  t.after(() => rm(root, { recursive: true, force: true }));
  const r = await cli('check', root);
  assertInert(r.stdout, 'stdout');
  assertInert(r.stderr, 'stderr');
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /named\/evil\\x1b\]0;pwned\\x07\\x1b\[2J\.md: .*control character/);
  assert.match(r.stdout, /title\\x1b\]0;pwned\\x07\\u202e: .*control character/);
  assert.match(r.stdout, /1 skill valid, 2 problems/);

  const json = await cli('check', root, '--json');
  assertInert(json.stdout, 'JSON stdout');
  const parsed = JSON.parse(json.stdout) as { problems: { path: string }[] };
  assert.ok(
    parsed.problems.some((p) => p.path === 'named/evil\x1b]0;pwned\x07\x1b[2J.md'),
    'the JSON keeps the exact path',
  );
});

test('serve: warnings about names with control characters reach stderr escaped', async (t) => {
  const root = await paintedFolder();
  const child = spawn(process.execPath, [BIN, 'serve', root, '--port', '0', '--no-watch'], { stdio: ['ignore', 'pipe', 'pipe'] });
  t.after(async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    await rm(root, { recursive: true, force: true });
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${err}`)), 20_000);
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('serving')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
  });
  assertInert(out, 'stdout');
  assertInert(err, 'stderr');
  assert.match(err, /warning: named\/evil\\x1b\]0;pwned\\x07\\x1b\[2J\.md: .*control character/);
  assert.match(out, /serving 1 skill at/);
});
