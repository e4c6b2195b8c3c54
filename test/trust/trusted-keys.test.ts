/**
 * checkTrustedKeys: the one check of a list of trusted public keys, and the verifiers refusing a
 * malformed list instead of reporting its keys' signatures as untrusted.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { before, describe, test } from 'node:test';
import { checkTrustedKeys as fromCore, OptionError } from '@skillmount/core';
import {
  checkTrustedKeys,
  generateSigningKey,
  keyFileSigner,
  SIGNATURE_FILE,
  signSkill,
  type TrustedKey,
  verifySkill,
  verifySkillListing,
} from '@skillmount/core/client';

let alice: { privateKey: string; publicKey: string };
let bob: { privateKey: string; publicKey: string };
before(async () => {
  [alice, bob] = await Promise.all([generateSigningKey(), generateSigningKey()]);
});

/** The base64 lines of a PEM file: none may appear in an error. */
const bodyLines = (pem: string) => pem.split('\n').filter((line) => line !== '' && !line.startsWith('-----'));

/** Asserts `error` is the OptionError for `option` with `code` and a detail matching `detail`, quoting no private key. */
function isRefusal(error: unknown, option: string, code: string, detail: RegExp): true {
  assert.ok(error instanceof OptionError, String(error));
  assert.ok(error instanceof (code === 'invalid-value' ? RangeError : TypeError), `${code} is a ${code === 'invalid-value' ? 'RangeError' : 'TypeError'}`);
  assert.equal(error.option, option, error.message);
  assert.equal(error.code, code, error.message);
  assert.match(error.detail, detail);
  assert.ok(error.message.startsWith(`skillmount: option "${option}" `), error.message);
  assert.ok(!error.message.includes('PRIVATE KEY'), error.message);
  for (const line of bodyLines(alice.privateKey)) assert.ok(!error.message.includes(line), `the private key is never quoted: ${error.message}`);
  return true;
}

describe('checkTrustedKeys', () => {
  test('good keys come back as a frozen copy, the same from @skillmount/core and @skillmount/core/client', () => {
    assert.equal(fromCore, checkTrustedKeys);
    const given: TrustedKey[] = [
      { name: 'alice.pub', publicKey: alice.publicKey },
      { name: 'bob.pub', publicKey: bob.publicKey },
    ];
    const keys = checkTrustedKeys(given);
    assert.deepEqual(keys, given);
    assert.ok(Object.isFrozen(keys) && keys.every((key) => Object.isFrozen(key)));
    // A copy: changing the caller's array or keys afterwards changes nothing checked.
    given[0]!.publicKey = alice.privateKey;
    given.push({ name: 'carol.pub', publicKey: 'not a key' });
    assert.deepEqual(
      keys.map((key) => [key.name, key.publicKey]),
      [
        ['alice.pub', alice.publicKey],
        ['bob.pub', bob.publicKey],
      ],
    );
    assert.deepEqual(checkTrustedKeys([]), []);
  });

  test('each mistake is an OptionError naming the key and what to give, never quoting a key', () => {
    const key = () => ({ name: 'alice.pub', publicKey: alice.publicKey });
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }) as string;
    const pub = /give the \.pub file `skillmount keygen` writes \(skillmount-signing\.pub\)$/;
    const cases: [unknown, string, string, RegExp][] = [
      [undefined, 'trustedKeys', 'missing-option', /^must be an array of \{ name, publicKey \}, got undefined; give the public keys/],
      ['alice.pub', 'trustedKeys', 'invalid-type', /^must be an array of \{ name, publicKey \}, got "alice\.pub"/],
      [alice.privateKey, 'trustedKeys', 'invalid-type', /got the text of a PEM file; /],
      [{ name: 'alice.pub', publicKey: alice.publicKey }, 'trustedKeys', 'invalid-type', /got an object/],
      [[key(), null], 'trustedKeys[1]', 'invalid-type', /^must be an object \{ name, publicKey \}, got null$/],
      [[alice.privateKey], 'trustedKeys[0]', 'invalid-type', /^must be an object \{ name, publicKey \}, got the text of a PEM file$/],
      // biome-ignore lint/suspicious/noSparseArray: a hole is a missing key, refused rather than skipped
      [[, key()], 'trustedKeys[0]', 'invalid-type', /got undefined$/],
      [[{ publicKey: alice.publicKey }], 'trustedKeys[0].name', 'invalid-type', /^must be a non-empty string naming the key .*, got undefined$/],
      [[{ name: 42, publicKey: alice.publicKey }], 'trustedKeys[0].name', 'invalid-type', /got 42$/],
      [[{ name: '', publicKey: alice.publicKey }], 'trustedKeys[0].name', 'invalid-value', /^must be a non-empty string naming the key/],
      // A signer's name is printed with every result: nothing a terminal or log would act on, nothing unbounded.
      [[{ name: 'alice\x1b]52;c;cm0gLXJmIH4=\x07.pub', publicKey: alice.publicKey }], 'trustedKeys[0].name', 'invalid-value', /^contains U\+001B, a control /],
      [[{ name: 'evil\u202egnp.pub', publicKey: alice.publicKey }], 'trustedKeys[0].name', 'invalid-value', /^contains U\+202E, a control or bidirectional/],
      [[{ name: 'line\nbreak.pub', publicKey: alice.publicKey }], 'trustedKeys[0].name', 'invalid-value', /^contains U\+000A, /],
      [
        [{ name: 'half\ud800.pub', publicKey: alice.publicKey }],
        'trustedKeys[0].name',
        'invalid-value',
        /^contains an unpaired UTF-16 surrogate: give a printable name/,
      ],
      [
        [{ name: 'k'.repeat(257), publicKey: alice.publicKey }],
        'trustedKeys[0].name',
        'invalid-value',
        /^is 257 characters long, over 256: give a printable name of at most 256/,
      ],
      [
        [key(), { name: 'bob.pub', publicKey: bob.publicKey }, { name: 'alice.pub', publicKey: bob.publicKey }],
        'trustedKeys[2].name',
        'invalid-value',
        /^"alice\.pub" names two keys \(trustedKeys\[0\] too\): give each key its own name/,
      ],
      [
        [{ name: 'alice.key', publicKey: alice.privateKey }],
        'trustedKeys[0].publicKey',
        'invalid-value',
        /^is a private key: verifying needs only the public key/,
      ],
      [[{ name: 'both.pem', publicKey: alice.publicKey + alice.privateKey }], 'trustedKeys[0].publicKey', 'invalid-value', /^is a private key: /],
      [[{ name: 'alice.pub' }], 'trustedKeys[0].publicKey', 'invalid-type', /^must be the text of a PEM "PUBLIC KEY" file, got undefined; /],
      [[{ name: 'alice.pub', publicKey: 42 }], 'trustedKeys[0].publicKey', 'invalid-type', /got number; /],
      [[{ name: 'notes.md', publicKey: 'not a key' }], 'trustedKeys[0].publicKey', 'invalid-value', /^holds no PEM "PUBLIC KEY" block/],
      [[{ name: 'rsa.pub', publicKey: rsa }], 'trustedKeys[0].publicKey', 'invalid-value', /^is an RSA key, not an ECDSA P-256 key/],
    ];
    for (const [keys, option, code, detail] of cases) {
      assert.throws(
        () => checkTrustedKeys(keys),
        // Every refused key text says which file to give instead.
        (error) => isRefusal(error, option, code, detail) && (!option.endsWith('.publicKey') || pub.test((error as OptionError).detail)),
        `${option}: ${detail}`,
      );
    }
    // The caller's own option name, as its users wrote it.
    assert.throws(
      () => checkTrustedKeys([key(), { name: 'alice.key', publicKey: alice.privateKey }], 'settings.keys'),
      (error) => isRefusal(error, 'settings.keys[1].publicKey', 'invalid-value', /^is a private key: /),
    );
  });
});

describe('verifySkill and verifySkillListing refuse malformed trustedKeys', () => {
  const text = (s: string) => new TextEncoder().encode(s);
  const files = [{ path: 'SKILL.md', bytes: text('---\nname: pdf\ndescription: Fill PDF forms.\n---\nBody.\n') }];
  const digest = `sha256:${'0'.repeat(64)}`;

  test('a private key among the keys rejects with the OptionError, where it was reported as untrusted-key', async () => {
    const signature = text(await signSkill({ path: 'pdf', files }, await keyFileSigner(alice.privateKey)));
    const signed = [...files, { path: SIGNATURE_FILE, bytes: signature }];
    const trustedKeys = [{ name: 'alice.key', publicKey: alice.privateKey }];
    const refused = (error: unknown) => isRefusal(error, 'trustedKeys[0].publicKey', 'invalid-value', /^is a private key: /);
    await assert.rejects(verifySkill({ path: 'pdf', files: signed }, { trustedKeys }), refused);
    await assert.rejects(verifySkillListing({ path: 'pdf', files: [{ path: 'SKILL.md', digest }], signature }, { trustedKeys }), refused);
    // The same keys, right: the signature verifies.
    const right = [{ name: 'alice.pub', publicKey: alice.publicKey }];
    assert.equal((await verifySkill({ path: 'pdf', files: signed }, { trustedKeys: right })).state, 'verified');
  });

  test('the keys are checked on every call, an unsigned skill too, and a missing list is refused', async () => {
    const twice = [
      { name: 'k.pub', publicKey: alice.publicKey },
      { name: 'k.pub', publicKey: bob.publicKey },
    ];
    const named = (error: unknown) => isRefusal(error, 'trustedKeys[1].name', 'invalid-value', /names two keys/);
    await assert.rejects(verifySkill({ path: 'pdf', files }, { trustedKeys: twice }), named);
    await assert.rejects(verifySkillListing({ path: 'pdf', files: [], signature: undefined }, { trustedKeys: twice }), named);
    const missing = (error: unknown) => isRefusal(error, 'trustedKeys', 'missing-option', /^must be an array/);
    await assert.rejects(verifySkill({ path: 'pdf', files }, {} as never), missing);
    await assert.rejects(verifySkillListing({ path: 'pdf', files: [], signature: undefined }, undefined as never), missing);
    // Reported as a rejection, never thrown at the call: a caller's await or .catch() sees it.
    const pending = verifySkill({ path: 'pdf', files }, { trustedKeys: 'alice.pub' as never });
    assert.ok(pending instanceof Promise);
    await assert.rejects(pending, OptionError);
  });
});
