/**
 * Signed skills as the host-side client reads them, end to end through one live skillmount server
 * over a folder of signed, unsigned and broken skills: each refusal with its code before any file
 * but the signature is read, key rotation, the verdict read once per skill version, and the
 * re-ask after a reload checked against the entry read.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
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
import { connectV1, serveOurFolder } from '../client/support/servers.js';

type Served = Awaited<ReturnType<typeof serveOurFolder>>;
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
  served = await serveOurFolder(root, { onWarning: () => {}, retainMs: 0 });
});

after(async () => {
  for (const client of clients) await client.close();
  await served?.close();
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

test('after a reload the client asks for the entry again and checks the signature of the entry it reads against', async () => {
  const skills = await client({ trustedKeys: [aliceKey], requireSignature: true });
  const held = (await entries(skills)).get('moving')!;
  assert.equal((await skills.read(held)).signature?.state, 'verified');

  // Signed again after an edit: the new entry, its new signature read and verified.
  await writeSkill(root, 'moving', alice, 'moving', { 'notes.md': 'Notes, edited and signed again.\n' });
  await served.catalog.reload();
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
  await served.catalog.reload();
  await assert.rejects(skills.read(file!.skill!, 'notes.md'), refusedWith('changed-file', 'moving', /notes\.md is not the file signed/));
});
