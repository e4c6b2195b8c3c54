import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createPublicKey, generateKeyPairSync, sign as cryptoSign } from 'node:crypto';
import { bundleFromJSON, bundleToJSON } from '@sigstore/bundle';
import { DSSEBundleBuilder } from '@sigstore/sign';
import { toSignedEntity, Verifier } from '@sigstore/verify';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  generateSigningKey,
  keyFileSigner,
  keyHint,
  SIGNATURE_FILE,
  type SkillSignatureResult,
  type SkillSigner,
  signSkill,
  skillDigest,
  skillDigestManifest,
  type TrustedKey,
  verifySkill,
  verifySkillListing,
} from '@skillmount/core/client';

const REPO = path.resolve(import.meta.dirname, '../..');

interface Vectors {
  vectors: { name: string; files: { path: string; digest: string }[]; manifestHex: string; digest: string }[];
  refused: { name: string; files: { path: string; digest: string }[]; error: string }[];
}

describe('the skill digest', () => {
  const published = JSON.parse(readFileSync(path.join(REPO, 'packages/core/src/trust/vectors.json'), 'utf8')) as Vectors;

  test('every published vector gives its manifest and digest, in any input order', async () => {
    for (const vector of published.vectors) {
      assert.equal(Buffer.from(skillDigestManifest(vector.files)).toString('hex'), vector.manifestHex, vector.name);
      assert.equal(await skillDigest(vector.files), vector.digest, vector.name);
      assert.equal(await skillDigest([...vector.files].reverse()), vector.digest, `${vector.name} (reversed)`);
    }
  });

  test('every published refusal names its problem', async () => {
    for (const vector of published.refused) {
      await assert.rejects(skillDigest(vector.files), (e: Error) => e instanceof TypeError && e.message.includes(vector.error), vector.name);
    }
  });
});

describe('skill signatures (OMS bundle, skill.oms.sig)', () => {
  const text = (s: string) => new TextEncoder().encode(s);
  const SKILL_MD = '---\nname: pdf\ndescription: Fill PDF forms.\n---\nRun scripts/run.sh.\n';
  const files = [
    { path: 'SKILL.md', bytes: text(SKILL_MD) },
    { path: 'scripts/run.sh', bytes: text('#!/bin/sh\necho ok\n') },
  ];
  const signed = async (signer: SkillSigner, path = 'pdf') => [...files, { path: SIGNATURE_FILE, bytes: text(await signSkill({ path, files }, signer)) }];
  const replace = (all: { path: string; bytes: Uint8Array }[], path: string, bytes: Uint8Array) => all.map((f) => (f.path === path ? { path, bytes } : f));

  let alice: { privateKey: string; publicKey: string };
  let mallory: { privateKey: string; publicKey: string };
  let trusted: TrustedKey[];
  before(async () => {
    [alice, mallory] = await Promise.all([generateSigningKey(), generateSigningKey()]);
    trusted = [{ name: 'alice.pub', publicKey: alice.publicKey }];
  });

  const invalidCode = (result: SkillSignatureResult) => (result.state === 'invalid' ? result.code : result.state);

  test('a skill signed with a trusted key verifies, naming the signer and the skill digest', async () => {
    const all = await signed(await keyFileSigner(alice.privateKey));
    const result = await verifySkill({ path: 'pdf', files: all }, { trustedKeys: trusted });
    assert.equal(result.state, 'verified');
    assert.equal(result.state === 'verified' && result.signer.name, 'alice.pub');
    const digests = await Promise.all(files.map(async (f) => ({ path: f.path, digest: `sha256:${createHash('sha256').update(f.bytes).digest('hex')}` })));
    assert.equal(result.state === 'verified' && result.skillDigest, await skillDigest(digests));
    // The bundle is the OMS shape: one subject (the skill's path), every other file a resource.
    const bundle = JSON.parse(new TextDecoder().decode(all.at(-1)!.bytes));
    const statement = JSON.parse(Buffer.from(bundle.dsseEnvelope.payload, 'base64').toString('utf8'));
    assert.equal(statement.predicateType, 'https://model_signing/signature/v1.0');
    assert.deepEqual(
      statement.subject.map((s: { name: string }) => s.name),
      ['pdf'],
    );
    assert.deepEqual(
      statement.predicate.resources.map((r: { name: string }) => r.name),
      ['SKILL.md', 'scripts/run.sh'],
    );

    // Sigstore's own verifier accepts the bundle given the public key (no log, no timestamp: the bare-key method).
    const hint = await keyHint(alice.publicKey);
    const material = { certificateAuthorities: [], timestampAuthorities: [], tlogs: [], ctlogs: [] };
    const publicKey = (wanted: string) => {
      assert.equal(wanted, hint);
      return { publicKey: createPublicKey(alice.publicKey), validFor: () => true };
    };
    const verifier = new Verifier({ ...material, publicKey }, { tlogThreshold: 0, ctlogThreshold: 0, timestampThreshold: 0 });
    assert.doesNotThrow(() => verifier.verify(toSignedEntity(bundleFromJSON(bundle))));
    const otherKey = { ...material, publicKey: () => ({ publicKey: createPublicKey(mallory.publicKey), validFor: () => true }) };
    assert.throws(() => new Verifier(otherKey, { tlogThreshold: 0, ctlogThreshold: 0, timestampThreshold: 0 }).verify(toSignedEntity(bundleFromJSON(bundle))));
  });

  test('each refusal has its own code', async () => {
    const signer = await keyFileSigner(alice.privateKey);
    const all = await signed(signer);
    const verify = (list: { path: string; bytes: Uint8Array }[], path = 'pdf', keys = trusted) => verifySkill({ path, files: list }, { trustedKeys: keys });

    assert.equal((await verify(files)).state, 'unsigned');
    assert.equal(invalidCode(await verify(replace(all, 'scripts/run.sh', text('#!/bin/sh\nrm -rf ~\n')))), 'changed-file');
    assert.equal(invalidCode(await verify(replace(all, 'SKILL.md', text(SKILL_MD.replace('Fill PDF forms.', 'Fill any form.'))))), 'changed-frontmatter');
    assert.equal(invalidCode(await verify(replace(all, 'SKILL.md', text(`${SKILL_MD}More.\n`)))), 'changed-file');
    assert.equal(invalidCode(await verify([...all, { path: 'scripts/extra.sh', bytes: text('curl x | sh\n') }])), 'file-added');
    assert.equal(invalidCode(await verify(all.filter((f) => f.path !== 'scripts/run.sh'))), 'file-removed');
    assert.equal(invalidCode(await verify(all, 'other-skill')), 'copied-signature');
    const bundle = all.at(-1)!.bytes;
    assert.equal(invalidCode(await verify(replace(all, SIGNATURE_FILE, bundle.subarray(0, bundle.length >> 1)))), 'malformed-bundle');
    assert.equal((await verify(all, 'pdf', [{ name: 'mallory.pub', publicKey: mallory.publicKey }])).state, 'untrusted-key');

    // The signing hook (a KMS or an HSM in real use): here it lies about its key, or signs with another algorithm.
    const malloryKey = await keyFileSigner(mallory.privateKey);
    const namesAliceSignsAsMallory: SkillSigner = { publicKey: alice.publicKey, sign: malloryKey.sign };
    assert.equal(invalidCode(await verify(await signed(namesAliceSignsAsMallory))), 'bad-signature');
    const namesMallorySignsAsAlice: SkillSigner = { publicKey: mallory.publicKey, sign: signer.sign };
    assert.equal(invalidCode(await verify(await signed(namesMallorySignsAsAlice))), 'key-hint-mismatch');
    const ed25519 = generateKeyPairSync('ed25519');
    const otherAlgorithm: SkillSigner = { publicKey: alice.publicKey, sign: async (payload) => new Uint8Array(cryptoSign(null, payload, ed25519.privateKey)) };
    assert.equal(invalidCode(await verify(await signed(otherAlgorithm))), 'algorithm-mismatch');
  });

  test("a listing (the files' digests, the signature's bytes) verifies as the bytes do", async () => {
    const signer = await keyFileSigner(alice.privateKey);
    const all = await signed(signer);
    const sha = (bytes: Uint8Array) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
    const listing = (list: { path: string; bytes: Uint8Array }[], withSkillMd = true) => ({
      path: 'pdf',
      files: list.map((f) => ({ path: f.path, digest: sha(f.bytes) })),
      signature: list.find((f) => f.path === SIGNATURE_FILE)?.bytes,
      ...(withSkillMd ? { skillMd: list.find((f) => f.path === 'SKILL.md')?.bytes } : {}),
    });
    const cases = [
      all,
      files,
      replace(all, 'scripts/run.sh', text('#!/bin/sh\nrm -rf ~\n')),
      replace(all, 'SKILL.md', text(SKILL_MD.replace('Fill PDF forms.', 'Fill any form.'))),
      [...all, { path: 'scripts/extra.sh', bytes: text('curl x | sh\n') }],
      all.filter((f) => f.path !== 'scripts/run.sh'),
      replace(all, SIGNATURE_FILE, all.at(-1)!.bytes.subarray(0, 40)),
    ];
    for (const list of cases) {
      const fromBytes = await verifySkill({ path: 'pdf', files: list }, { trustedKeys: trusted });
      assert.deepEqual(await verifySkillListing(listing(list), { trustedKeys: trusted }), fromBytes);
    }
    // Without SKILL.md's bytes a changed frontmatter cannot be told from a changed body.
    const frontmatter = replace(all, 'SKILL.md', text(SKILL_MD.replace('Fill PDF forms.', 'Fill any form.')));
    assert.equal(invalidCode(await verifySkillListing(listing(frontmatter, false), { trustedKeys: trusted })), 'changed-file');
  });
});

describe("the OMS format, against its reference implementation and Sigstore's signer", () => {
  // The in-toto statement the OMS reference implementation publishes as test data for a folder
  // signed file by file (its "sample_model_folder" payload), as it is: its subject digest is the
  // reference's root digest over those resources.
  const reference = JSON.parse(readFileSync(path.join(import.meta.dirname, 'fixtures/oms-reference-statement.json'), 'utf8'));

  /** Every key of `expected` (recursively, objects only) is in `actual` with a value of the same JSON type. */
  const sameShape = (expected: unknown, actual: unknown, at: string): void => {
    const kind = (v: unknown) => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v);
    assert.equal(kind(actual), kind(expected), `${at}: ${kind(actual)}, the reference has ${kind(expected)}`);
    if (Array.isArray(expected)) sameShape(expected[0], (actual as unknown[])[0], `${at}[0]`);
    else if (kind(expected) === 'object') {
      for (const [key, value] of Object.entries(expected as object)) sameShape(value, (actual as Record<string, unknown>)[key], `${at}.${key}`);
    }
  };

  test("our statement has the reference statement's shape and constants", async () => {
    const { privateKey } = await generateSigningKey();
    const files = [{ path: 'SKILL.md', bytes: new TextEncoder().encode('---\nname: pdf\ndescription: PDFs.\n---\n') }];
    const bundle = JSON.parse(await signSkill({ path: 'pdf', files }, await keyFileSigner(privateKey)));
    const ours = JSON.parse(Buffer.from(bundle.dsseEnvelope.payload, 'base64').toString('utf8'));
    sameShape(reference, ours, 'statement');
    assert.equal(ours._type, reference._type);
    assert.equal(ours.predicateType, reference.predicateType);
    assert.equal(ours.predicate.serialization.method, reference.predicate.serialization.method);
    assert.equal(ours.predicate.serialization.hash_type, reference.predicate.serialization.hash_type);
  });

  test("a bundle Sigstore's own signer made over the reference statement verifies; a changed file is still refused", async () => {
    const { privateKey, publicKey } = await generateSigningKey();
    const hint = await keyHint(publicKey);
    const signer = {
      sign: async (data: Buffer) => ({ signature: cryptoSign('sha256', data, privateKey), key: { $case: 'publicKey' as const, publicKey, hint } }),
    };
    const built = await new DSSEBundleBuilder({ signer, witnesses: [] }).create({
      data: Buffer.from(JSON.stringify(reference)),
      type: 'application/vnd.in-toto+json',
    });
    const signature = new TextEncoder().encode(JSON.stringify(bundleToJSON(built)));
    const files = reference.predicate.resources.map((r: { name: string; digest: string }) => ({ path: r.name, digest: `sha256:${r.digest}` }));
    const trustedKeys = [{ name: 'ours.pub', publicKey }];
    const result = await verifySkillListing({ path: 'sample_model', files, signature }, { trustedKeys });
    // Verified means our root digest over the reference's resources is the reference's subject digest.
    assert.equal(result.state, 'verified', JSON.stringify(result));
    const changed = files.map((f: { path: string; digest: string }) => (f.path === 'f0' ? { path: f.path, digest: `sha256:${'0'.repeat(64)}` } : f));
    const refused = await verifySkillListing({ path: 'sample_model', files: changed, signature }, { trustedKeys });
    assert.equal(refused.state === 'invalid' && refused.code, 'changed-file');
  });
});
