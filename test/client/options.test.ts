/**
 * Options and limits of the skills client: checked once at construction, the parseFrontmatter
 * hook, the limits from an entry alone, and the state before connect.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  MAX_BYTES_PER_SKILL,
  MAX_FILES_PER_SKILL,
  SkillLimitError,
  SkillSignatureError,
  SkillsClient,
  SkillVerificationError,
  checkLimits,
  type SkillEntry,
  OptionError,
} from '@skillmount/core/client';
import { live, startLyingServer, type LyingServer } from './support/lying-server.js';
import { connectV1 } from './support/servers.js';

const digest = 'sha256:' + '0'.repeat(64);
const entryWith = (count: number, size: number): SkillEntry => ({
  uri: 'skill://big/SKILL.md',
  frontmatter: { name: 'big', description: 'A big skill.' },
  resources: Array.from({ length: count }, (_, i) => ({ uri: i === 0 ? 'skill://big/SKILL.md' : `skill://big/f${i}.txt`, digest, size: i === 0 ? size : 0 })),
});

const pem = (der: Buffer) => `-----BEGIN PUBLIC KEY-----\n${der.toString('base64')}\n-----END PUBLIC KEY-----\n`;
const P256 = pem(generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'der' }));
const P384 = pem(generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey.export({ type: 'spki', format: 'der' }));

describe('construction', () => {
  const client = new Client({ name: 'host', version: '1.0.0' });

  test('bad options fail at once, naming the package and the option', () => {
    const refused = (options: unknown, message: RegExp, code: string, type: typeof TypeError | typeof RangeError) =>
      assert.throws(
        () => new SkillsClient(client, options as never),
        (error: unknown) => error instanceof OptionError && error instanceof type && error.code === code && message.test(String(error)),
        String(message),
      );
    refused({ maxPages: -1 }, /^OptionError: skillmount: option "maxPages" must be a positive integer, or 0 for no cap, got -1/, 'invalid-value', RangeError);
    assert.doesNotThrow(() => new SkillsClient(client, { maxPages: 0 }), 'maxPages: 0 turns the cap off');
    refused({ maxPages: 1.5 }, /maxPages/, 'invalid-value', RangeError);
    refused({ maxPages: '2' }, /maxPages/, 'invalid-type', TypeError);
    refused({ skipInvalid: 'yes' }, /option "skipInvalid" must be true or false/, 'invalid-type', TypeError);
    refused({ refresh: 'once' }, /option "refresh" must be true or false/, 'invalid-type', TypeError);
    refused({ parseFrontmatter: 'yaml' }, /option "parseFrontmatter" must be a function/, 'invalid-type', TypeError);
    refused({ limits: { bytes: -1 } }, /option "limits\.bytes" must be a positive number/, 'invalid-value', RangeError);
    refused({ limits: { size: 1 } }, /option "limits\.size" is not a limit/, 'unknown-option', TypeError);
    refused({ trustedKeys: 'alice.pub' }, /option "trustedKeys" must be an array of \{ name, publicKey \}, got "alice\.pub"/, 'invalid-type', TypeError);
    refused(
      { trustedKeys: [{ name: '', publicKey: P256 }] },
      /option "trustedKeys\[0\]\.name" must be a non-empty string naming the key/,
      'invalid-value',
      RangeError,
    );
    refused(
      {
        trustedKeys: [
          { name: 'a.pub', publicKey: P256 },
          { name: 'a.pub', publicKey: P256 },
        ],
      },
      /option "trustedKeys\[1\]\.name" "a\.pub" names two keys \(trustedKeys\[0\] too\): give each key its own name/,
      'invalid-value',
      RangeError,
    );
    refused(
      {
        trustedKeys: [
          { name: 'a.pub', publicKey: P256 },
          { name: 'b.key', publicKey: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n' },
        ],
      },
      /option "trustedKeys\[1\]\.publicKey" is a private key: verifying needs only the public key .*give the \.pub file `skillmount keygen` writes/,
      'invalid-value',
      RangeError,
    );
    refused(
      { trustedKeys: [{ name: 'p384.pub', publicKey: P384 }] },
      /"trustedKeys\[0\]\.publicKey" is an ECDSA P-384 key, not an ECDSA P-256 key/,
      'invalid-value',
      RangeError,
    );
    refused(
      { trustedKeys: [{ name: 'a.pub' }] },
      /"trustedKeys\[0\]\.publicKey" must be the text of a PEM "PUBLIC KEY" file, got undefined/,
      'invalid-type',
      TypeError,
    );
    refused({ requireSignature: true }, /option "trustedKeys" is needed with requireSignature: true/, 'missing-option', TypeError);
    refused(
      { requireSignature: true, trustedKeys: [] },
      /option "trustedKeys" is empty, and requireSignature: true refuses every skill/,
      'invalid-value',
      RangeError,
    );
    refused({ requireSignature: 'yes', trustedKeys: [] }, /option "requireSignature" must be true or false, got "yes"/, 'invalid-type', TypeError);
    assert.doesNotThrow(() => new SkillsClient(client, { trustedKeys: [{ name: 'a.pub', publicKey: P256 }], requireSignature: true }));
    assert.throws(() => new SkillsClient({} as never), /needs an MCP SDK Client/);
  });

  test('before connect nothing is supported and list() asks nothing', async () => {
    const skills = new SkillsClient(client);
    assert.equal(skills.supported, false);
    assert.equal(skills.directoryRead, false);
    assert.deepEqual(await skills.list(), { skills: [], invalid: [] });
  });
});

describe('limits from the entry alone', () => {
  test('512 files and 16 MiB are accepted; one more of either is declined with the reason', () => {
    assert.equal(MAX_FILES_PER_SKILL, 512);
    assert.equal(MAX_BYTES_PER_SKILL, 16 * 1024 * 1024);
    assert.equal(checkLimits(entryWith(512, 100)), undefined);
    assert.equal(checkLimits(entryWith(1, MAX_BYTES_PER_SKILL)), undefined);
    const files = checkLimits(entryWith(513, 100));
    assert.deepEqual([files?.limit, files?.actual, files?.max], ['files', 513, 512]);
    assert.match(files!.message, /lists 513 files; the limit is 512/);
    const bytes = checkLimits(entryWith(2, MAX_BYTES_PER_SKILL + 1));
    assert.deepEqual([bytes?.limit, bytes?.actual], ['bytes', MAX_BYTES_PER_SKILL + 1]);
    // Human sizes, and the exact count where rounding would hide the difference.
    assert.match(bytes!.message, /lists 16\.0 MiB of files \(16777217 bytes\); the limit is 16 MiB per skill/);
    assert.equal(checkLimits({ ...entryWith(1, 0), resources: 'dynamic' }), undefined, 'nothing to count');
  });

  test('a host may accept more', () => {
    assert.equal(checkLimits(entryWith(600, 10), { files: 1000 }), undefined);
    const skills = new SkillsClient(new Client({ name: 'h', version: '1' }), { limits: { files: 1000 } });
    assert.equal(skills.checkLimits(entryWith(600, 10)), undefined);
    assert.equal(skills.checkLimits(entryWith(1001, 10))?.limit, 'files');
  });

  test('read() declines an oversized skill before anything else', async () => {
    const skills = new SkillsClient(new Client({ name: 'h', version: '1' }));
    await assert.rejects(
      skills.read(entryWith(513, 1)),
      (error: unknown) => error instanceof SkillLimitError && error.limit === 'files' && error.skillUri === 'skill://big/SKILL.md',
    );
  });
});

let lying: LyingServer;
let client: Client;
before(async () => {
  lying = await startLyingServer();
  client = await connectV1(lying.url('reads'));
});
after(async () => {
  await client?.close();
  await lying?.close();
});

describe('the parseFrontmatter option', () => {
  // A deliberately small parser for flat `key: value` frontmatter, standing in for a host's own.
  const flat = (yaml: string) =>
    Object.fromEntries(
      yaml
        .trim()
        .split('\n')
        .map((line) => line.split(/:\s*/, 2) as [string, string]),
    );

  test('is used to parse SKILL.md, and what it returns is compared with the entry', async () => {
    const md = await new SkillsClient(client, { parseFrontmatter: flat }).read(live);
    assert.deepEqual(md.frontmatter, { name: 'live', description: 'Generated on demand.' });
    const shouting = (yaml: string) => ({ ...flat(yaml), description: flat(yaml).description!.toUpperCase() });
    await assert.rejects(new SkillsClient(client, { parseFrontmatter: shouting }).read(live), (error: unknown) => {
      assert.ok(error instanceof SkillVerificationError);
      assert.equal(error.reason, 'frontmatter');
      assert.deepEqual(error.differences, ['description: the entry has "Generated on demand.", SKILL.md has "GENERATED ON DEMAND."']);
      return true;
    });
  });

  test('a parser that throws, or returns no mapping, is a frontmatter failure', async () => {
    const throwing = () => {
      throw new Error('cannot parse this');
    };
    await assert.rejects(new SkillsClient(client, { parseFrontmatter: throwing }).read(live), (error: unknown) => {
      assert.ok(error instanceof SkillVerificationError && error.reason === 'frontmatter');
      assert.match(error.message, /cannot be parsed: cannot parse this/);
      return true;
    });
    await assert.rejects(new SkillsClient(client, { parseFrontmatter: () => [] as never }).read(live), /not a mapping of fields/);
  });
});

describe('trustedKeys and a "dynamic" skill', () => {
  test('it lists no files for a signature to cover: read as unsigned, refused with requireSignature before any request', async () => {
    const trustedKeys = [{ name: 'a.pub', publicKey: P256 }];
    const md = await new SkillsClient(client, { trustedKeys }).read(live);
    assert.deepEqual(md.signature, { state: 'unsigned', skillPath: 'live' });
    const requests = lying.methods('reads').length;
    await assert.rejects(new SkillsClient(client, { trustedKeys, requireSignature: true }).read(live), (error: unknown) => {
      assert.ok(error instanceof SkillSignatureError);
      assert.equal(error.code, 'unsigned');
      assert.match(error.message, /lists its files as "dynamic", so no signature can cover them.*none of its files was read/);
      return true;
    });
    assert.equal(lying.methods('reads').length, requests, 'nothing was requested');
  });
});
