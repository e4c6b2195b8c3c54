/**
 * `skillmount publish` into a real S3-protocol server and a real PostgreSQL, then
 * `skillmount serve` from each, judged by the official SDK v2 SkillsClient.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { generateSigningKey, SkillCatalog, type StorageError } from '@skillmount/core';
import { s3Storage } from '@skillmount/storage-s3';
import pg from 'pg';
import { dropMigrated, startPostgres, testPool, type TestPostgres, uniqueName } from '../support/postgres.js';
import { s3Env, startS3Server, type S3TestServer } from '../support/s3-server.js';
import { EXAMPLES, exampleFiles } from '../support/skills-suite.js';
import { runCli, startServe, verifyWithSdkV2, type CliResult } from '../live/helpers.js';
import { countRequests } from '../storage-s3/helpers.js';

const FILES = exampleFiles();
const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');
const sha256 = (bytes: Uint8Array) => 'sha256:' + createHash('sha256').update(bytes).digest('hex');
/** Where publish keeps the manifest of an S3 prefix (see the storage-s3 README). */
const MANIFEST = '.skillmount/manifest.json';

/** One place publish writes to, and how the test reads it back without the CLI. */
interface Destination {
  location: string;
  /** What the CLI prints for the location (no password). */
  label: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Stored path → the hash the destination keeps (S3: ETag = MD5; PostgreSQL: sha256 column). */
  stored(): Promise<Map<string, string>>;
  hash(bytes: Uint8Array): string;
}

interface Storage {
  name: string;
  /** A destination for a fresh prefix or namespace. */
  destination(scope: string): Destination;
  /** Store a file outside `scope` (another prefix / namespace) that no publish into `scope` may touch. */
  plantOutside(scope: string): Promise<() => Promise<boolean>>;
  setup(): Promise<void>;
  teardown(): Promise<void>;
}

let s3: S3TestServer;
let s3client: S3Client;
let db: TestPostgres;
let admin: pg.Pool;
const bucket = 'skillmount-publish';
const table = uniqueName('publish');

const storages: Storage[] = [
  {
    name: 'S3',
    async setup() {
      s3 = await startS3Server();
      await s3.bucket(bucket);
      s3client = s3.client();
    },
    async teardown() {
      await s3?.stop();
    },
    destination(scope) {
      const prefix = `${scope}/`;
      return {
        location: `s3://${bucket}/${prefix}`,
        label: `s3://${bucket}/${prefix}`,
        args: [],
        env: s3Env(s3),
        hash: md5,
        async stored() {
          const out = await s3client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
          // The published files; the manifest publish writes beside them has tests of its own below.
          const files = (out.Contents ?? []).filter((o) => o.Key !== prefix + MANIFEST);
          return new Map(files.map((o) => [o.Key!.slice(prefix.length), o.ETag!.replaceAll('"', '')]));
        },
      };
    },
    async plantOutside(scope) {
      // A sibling whose name starts like the prefix: only the "/"-terminated prefix is ours.
      const key = `${scope}-sibling/git-workflow/SKILL.md`;
      await s3client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: 'not ours' }));
      return async () => {
        const got = await s3client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return (await got.Body!.transformToString()) === 'not ours';
      };
    },
  },
  {
    name: 'PostgreSQL',
    async setup() {
      db = await startPostgres();
      admin = testPool(db.connectionString, 2);
    },
    async teardown() {
      if (admin) {
        await dropMigrated(admin, table);
        await admin.end();
      }
      await db?.stop();
    },
    destination(scope) {
      const location = `${db.connectionString}#${scope}`;
      const label = new URL(location);
      label.password = '';
      return {
        location,
        label: label.href,
        args: ['--table', table],
        env: {},
        hash: sha256,
        async stored() {
          const exists = await admin.query('SELECT to_regclass($1) AS t', [table]);
          if (exists.rows[0].t === null) return new Map();
          const { rows } = await admin.query(`SELECT path, sha256 FROM ${pg.escapeIdentifier(table)} WHERE namespace = $1`, [scope]);
          return new Map(rows.map((r: { path: string; sha256: string }) => [r.path, r.sha256]));
        },
      };
    },
    async plantOutside(scope) {
      // The same path in another namespace of the same table.
      const other = `${scope}-other`;
      await admin.query(`INSERT INTO ${pg.escapeIdentifier(table)} (namespace, path, content) VALUES ($1, 'pdf-processing/templates/invoice.md', $2)`, [
        other,
        Buffer.from('not ours'),
      ]);
      return async () => {
        const { rows } = await admin.query(`SELECT content FROM ${pg.escapeIdentifier(table)} WHERE namespace = $1`, [other]);
        return rows.length === 1 && rows[0].content.toString() === 'not ours';
      };
    },
  },
];

/** The hashes a destination should hold for `files` of `folder`. */
async function expected(dest: Destination, folder: string, files: string[]): Promise<Map<string, string>> {
  return new Map(await Promise.all(files.map(async (f) => [f, dest.hash(await readFile(path.join(folder, f)))] as [string, string])));
}

const noSecret = (output: CliResult | string) => {
  const password = db && new URL(db.connectionString).password;
  const text = typeof output === 'string' ? output : output.stdout + output.stderr;
  if (password) assert.ok(!text.includes(password), 'the PostgreSQL password is never printed');
};

// The two storages are independent: their suites run side by side, each one's steps in order.
describe('skillmount publish', { concurrency: true }, () => {
  for (const storage of storages) {
    describe(`publish to ${storage.name}`, { timeout: 300_000, concurrency: 1 }, () => {
      let root: string;
      let dest: Destination;
      let outsideIntact: () => Promise<boolean>;
      const publish = async (...extra: string[]) => {
        const r = await runCli(['publish', root, dest.location, ...dest.args, ...extra], dest.env);
        noSecret(r);
        return r;
      };

      before(async () => {
        await storage.setup();
        root = await mkdtemp(path.join(tmpdir(), 'skillmount-publish-'));
        await cp(EXAMPLES, root, { recursive: true });
        // Stray and hidden files are never published.
        await writeFile(path.join(root, 'notes.txt'), 'not part of any skill\n');
        await writeFile(path.join(root, 'git-workflow/.DS_Store'), 'hidden\n');
        await mkdir(path.join(root, 'pdf-processing/.cache'));
        await writeFile(path.join(root, 'pdf-processing/.cache/x.md'), 'hidden\n');
        dest = storage.destination(uniqueName('skills'));
      });
      after(async () => {
        await rm(root, { recursive: true, force: true });
        await storage.teardown();
      });

      test('the first publish uploads every file of every valid skill and nothing else', async () => {
        const r = await publish();
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.stdout, `published ${FILES.length} files (0 unchanged, 0 removed) to ${dest.label}\n`);
        assert.match(
          r.stderr,
          new RegExp(`^publishing ${FILES.length}/${FILES.length} done$`, 'm'),
          'one progress line at the end when stderr is not a terminal',
        );
        assert.deepEqual(await dest.stored(), await expected(dest, root, FILES));
        outsideIntact = await storage.plantOutside(scopeOf(dest));
      });

      test('a second publish uploads nothing', async () => {
        const r = await publish();
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.stdout, `published 0 files (${FILES.length} unchanged, 0 removed) to ${dest.label}\n`);
      });

      test('one changed file is the only upload; --dry-run writes nothing', async () => {
        const changed = 'git-workflow/references/commit-messages.md';
        await writeFile(path.join(root, changed), '# Commit messages\n\nChanged for the publish test.\n');
        const before = await dest.stored();

        const dry = await publish('--dry-run');
        assert.equal(dry.code, 0, dry.stderr);
        assert.equal(
          dry.stdout,
          `would upload ${changed}\ndry run: would publish 1 file (${FILES.length - 1} unchanged, 0 removed) to ${dest.label}; nothing was written\n`,
        );
        assert.deepEqual(await dest.stored(), before);

        const r = await publish();
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.stdout, `published 1 file (${FILES.length - 1} unchanged, 0 removed) to ${dest.label}\n`);
        const stored = await dest.stored();
        assert.equal(stored.get(changed), dest.hash(await readFile(path.join(root, changed))));
        assert.notEqual(stored.get(changed), before.get(changed));
      });

      test('a file deleted locally is removed with --delete only, and nothing outside the location is touched', async () => {
        const gone = 'pdf-processing/templates/invoice.md';
        await rm(path.join(root, gone));

        const kept = await publish();
        assert.equal(kept.code, 0, kept.stderr);
        assert.equal(kept.stdout, `published 0 files (${FILES.length - 1} unchanged, 0 removed) to ${dest.label}\n`);
        assert.match(kept.stderr, /1 stored file in .* is no longer in .*; --delete removes it/);
        assert.ok((await dest.stored()).has(gone), 'without --delete the stored file stays');

        const removed = await publish('--delete');
        assert.equal(removed.code, 0, removed.stderr);
        assert.equal(removed.stdout, `published 0 files (${FILES.length - 1} unchanged, 1 removed) to ${dest.label}\n`);
        assert.deepEqual(
          await dest.stored(),
          await expected(
            dest,
            root,
            FILES.filter((f) => f !== gone),
          ),
        );
        assert.ok(await outsideIntact(), 'the file outside the prefix or namespace is untouched');
      });

      test('serve from the location: the SDK v2 SkillsClient verifies every file of every skill', async () => {
        await cp(EXAMPLES, root, { recursive: true });
        const r = await publish('--delete');
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.stdout, `published 2 files (${FILES.length - 2} unchanged, 0 removed) to ${dest.label}\n`);

        const server = await startServe(dest.location, [...dest.args, '--no-watch'], dest.env);
        try {
          assert.match(server.stdout(), new RegExp(`serving 3 skills at http://\\S+ \\(fastify, sessions\\) from ${escapeRegExp(dest.label)}`));
          assert.equal(await verifyWithSdkV2(server.url, EXAMPLES), FILES.length);
        } finally {
          assert.equal(await server.stop(), 0, server.stderr());
        }
        noSecret(server.stdout() + server.stderr());
      });

      test('a folder with problems is refused; --force publishes its valid skills only', async () => {
        const bad = await mkdtemp(path.join(tmpdir(), 'skillmount-publish-bad-'));
        try {
          await mkdir(path.join(bad, 'good'));
          await writeFile(path.join(bad, 'good/SKILL.md'), '---\nname: good\ndescription: Fine.\n---\n');
          await mkdir(path.join(bad, 'wrong-name'));
          await writeFile(path.join(bad, 'wrong-name/SKILL.md'), '---\nname: other\ndescription: Mismatch.\n---\n');
          const target = storage.destination(uniqueName('bad'));
          const run = (...extra: string[]) => runCli(['publish', bad, target.location, ...target.args, ...extra], target.env);

          const refused = await run();
          noSecret(refused);
          assert.equal(refused.code, 1, refused.stdout + refused.stderr);
          assert.match(refused.stderr, /wrong-name\/SKILL\.md: .*"wrong-name"/);
          assert.match(refused.stderr, /refusing to publish .*: 1 problem \(1 skill valid\)\. Fix them, or publish the valid skills only with --force/);
          assert.equal(refused.stdout, '');
          assert.deepEqual(await target.stored(), new Map());

          const forced = await run('--force');
          assert.equal(forced.code, 0, forced.stderr);
          assert.equal(forced.stdout, `published 1 file (0 unchanged, 0 removed) to ${target.label}\n`);
          assert.deepEqual([...(await target.stored()).keys()], ['good/SKILL.md']);
        } finally {
          await rm(bad, { recursive: true, force: true });
        }
      });

      // Signing happens before any destination is written to: proven once, against one storage.
      if (storage.name === 'S3') {
        test('publish --sign signs every skill over exactly what it uploads: check --trust verifies what was published; a current signature is kept, a stale one replaced', async () => {
          const keys = await mkdtemp(path.join(tmpdir(), 'skillmount-publish-keys-'));
          try {
            const pair = await generateSigningKey();
            const key = path.join(keys, 'skillmount-signing.key');
            const pub = path.join(keys, 'skillmount-signing.pub');
            await writeFile(key, pair.privateKey, { mode: 0o600 });
            await writeFile(pub, pair.publicKey);
            const sig = (skill: string) => `${skill}/skill.oms.sig`;
            const skills = ['acme/billing/refunds', 'git-workflow', 'pdf-processing', 'pdf-processing/forms'];
            // A nested skill: its files are its parent's too, so its signature must be made first.
            await mkdir(path.join(root, 'pdf-processing/forms'));
            const forms = (description: string) => `---\nname: forms\ndescription: ${description}\n---\n# Forms\n`;
            await writeFile(path.join(root, 'pdf-processing/forms/SKILL.md'), forms('Fill PDF forms.'));
            // A stale signature in the folder: replaced, never uploaded as it is.
            await writeFile(path.join(root, sig('git-workflow')), 'stale\n');
            const checkTrust = async () => {
              const r = await runCli(['check', dest.location, ...dest.args, '--trust', pub], dest.env);
              assert.equal(r.code, 0, r.stdout + r.stderr);
              for (const skill of skills) assert.match(r.stdout, new RegExp(`^signed ${escapeRegExp(skill)}: by skillmount-signing\\.pub$`, 'm'));
            };

            const signed = await publish('--sign', key);
            assert.equal(signed.code, 0, signed.stderr);
            assert.equal(signed.stdout, `signed 4 skills with ${key}\npublished 5 files (${FILES.length} unchanged, 0 removed) to ${dest.label}\n`);
            const stored = await dest.stored();
            for (const skill of skills)
              assert.equal(stored.get(sig(skill)), dest.hash(await readFile(path.join(root, sig(skill)))), `${skill}: published and written back`);
            assert.notEqual(await readFile(path.join(root, sig('git-workflow')), 'utf8'), 'stale\n');
            await checkTrust();

            const again = await publish('--sign', key);
            assert.equal(again.code, 0, again.stderr);
            assert.equal(
              again.stdout,
              `signed 0 skills with ${key}; 4 signatures already current\npublished 0 files (${FILES.length + 5} unchanged, 0 removed) to ${dest.label}\n`,
            );

            // The nested skill changed: it is signed again, and so is its parent, whose files hold the nested signature.
            await writeFile(path.join(root, 'pdf-processing/forms/SKILL.md'), forms('Fill and sign PDF forms.'));
            const changed = await publish('--sign', key);
            assert.equal(changed.code, 0, changed.stderr);
            assert.equal(
              changed.stdout,
              `signed 2 skills with ${key}; 2 signatures already current\npublished 3 files (${FILES.length + 2} unchanged, 0 removed) to ${dest.label}\n`,
            );
            await checkTrust();
          } finally {
            await rm(keys, { recursive: true, force: true });
          }
        });
      }
    });
  }
});

/** The prefix (without its "/") or namespace a destination writes to. */
function scopeOf(dest: Destination): string {
  return dest.location.startsWith('s3://') ? dest.location.split('/')[3]! : dest.location.slice(dest.location.indexOf('#') + 1);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('skillmount publish to S3 writes the manifest', { timeout: 300_000, concurrency: 1 }, () => {
  let server: S3TestServer;
  let client: S3Client;
  let root: string;
  const manifestBucket = 'skillmount-publish-manifest';
  const prefix = `${uniqueName('manifest')}/`;
  const location = `s3://${manifestBucket}/${prefix}`;
  const key = prefix + MANIFEST;
  const publish = (...extra: string[]) => runCli(['publish', root, location, ...extra], s3Env(server));

  type Manifest = { version: number; files: Record<string, { etag: string; size: number; sha256: string; content?: string }> };
  const manifest = async (): Promise<Manifest | undefined> => {
    try {
      const got = await client.send(new GetObjectCommand({ Bucket: manifestBucket, Key: key }));
      return JSON.parse(await got.Body!.transformToString());
    } catch (error) {
      if ((error as Error).name === 'NoSuchKey') return undefined;
      throw error;
    }
  };
  const listed = async () => {
    const out = await client.send(new ListObjectsV2Command({ Bucket: manifestBucket, Prefix: prefix }));
    return new Map((out.Contents ?? []).map((o) => [o.Key!.slice(prefix.length), o.ETag!]));
  };
  /** A catalog build over the prefix, with the requests it sent and what the storage reported. */
  const load = async () => {
    const counted = server.client();
    const counts = countRequests(counted);
    const errors: StorageError[] = [];
    const catalog = await SkillCatalog.load(s3Storage({ client: counted, bucket: manifestBucket, prefix, onError: (e) => errors.push(e) }), {
      onWarning: () => {},
    });
    return { catalog, requests: { list: counts.list, get: counts.get }, errors, counts };
  };
  /** The catalog the same prefix gives with the manifest deleted (it is put back afterwards). */
  const withoutManifest = async () => {
    const saved = await (await client.send(new GetObjectCommand({ Bucket: manifestBucket, Key: key }))).Body!.transformToByteArray();
    await client.send(new DeleteObjectCommand({ Bucket: manifestBucket, Key: key }));
    try {
      return await SkillCatalog.load(s3Storage({ client, bucket: manifestBucket, prefix }), { onWarning: () => {} });
    } finally {
      await client.send(new PutObjectCommand({ Bucket: manifestBucket, Key: key, Body: saved, ContentType: 'application/json' }));
    }
  };

  before(async () => {
    server = await startS3Server();
    await server.bucket(manifestBucket);
    client = server.client();
    root = await mkdtemp(path.join(tmpdir(), 'skillmount-publish-manifest-'));
    await cp(EXAMPLES, root, { recursive: true });
  });
  after(async () => {
    await rm(root, { recursive: true, force: true });
    await server?.stop();
  });

  test('after a publish a catalog build costs 1 LIST + 1 GET and equals the build without the manifest; an unchanged reload 1 conditional GET and no listing', async () => {
    const r = await publish();
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `published ${FILES.length} files (0 unchanged, 0 removed) to ${location}\n`);

    const m = await manifest();
    const etags = await listed();
    assert.equal(m?.version, 1);
    assert.deepEqual(Object.keys(m!.files).sort(), [...FILES].sort());
    for (const file of FILES) {
      const bytes = await readFile(path.join(root, file));
      const entry: Manifest['files'][string] = m!.files[file]!;
      assert.equal(entry.etag, etags.get(file), `${file}: the ETag as the listing reports it`);
      assert.equal(entry.size, bytes.byteLength);
      assert.equal(entry.sha256, sha256(bytes));
      assert.equal(entry.content, file.endsWith('SKILL.md') ? bytes.toString('base64') : undefined);
    }

    const { catalog, requests, errors, counts } = await load();
    assert.deepEqual(requests, { list: 1, get: 1 });
    assert.deepEqual(errors, []);
    assert.deepEqual(catalog.entries, (await withoutManifest()).entries);
    counts.reset();
    await catalog.reload();
    assert.deepEqual({ list: counts.list, get: counts.get, notModified: counts.notModified }, { list: 0, get: 1, notModified: 1 });
  });

  test('an unchanged publish leaves the manifest as it is; one changed file is uploaded and the manifest follows', async () => {
    // Mark the stored manifest (same bytes, so the same ETag): a rewrite would drop the mark.
    const bytes = await (await client.send(new GetObjectCommand({ Bucket: manifestBucket, Key: key }))).Body!.transformToByteArray();
    await client.send(new PutObjectCommand({ Bucket: manifestBucket, Key: key, Body: bytes, ContentType: 'application/json', Metadata: { mark: 'kept' } }));
    const mark = async () => (await client.send(new HeadObjectCommand({ Bucket: manifestBucket, Key: key }))).Metadata?.mark;

    const same = await publish();
    assert.equal(same.code, 0, same.stderr);
    assert.equal(same.stdout, `published 0 files (${FILES.length} unchanged, 0 removed) to ${location}\n`);
    assert.equal(await mark(), 'kept', 'the manifest was not written again');

    const changed = 'pdf-processing/templates/invoice.md';
    await writeFile(path.join(root, changed), '# Invoice\n\nChanged for the manifest test.\n');
    const r = await publish();
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `published 1 file (${FILES.length - 1} unchanged, 0 removed) to ${location}\n`);
    assert.equal(await mark(), undefined, 'the manifest was written again');
    const updated = await manifest();
    const entry = updated!.files[changed]!;
    assert.equal(entry.sha256, sha256(await readFile(path.join(root, changed))));
    assert.equal(entry.etag, (await listed()).get(changed));

    const { catalog, requests, errors } = await load();
    assert.deepEqual(requests, { list: 1, get: 1 });
    assert.deepEqual(errors, []);
    assert.deepEqual(catalog.entries, (await withoutManifest()).entries);
  });

  test('a stored file gone from the folder is left out of the manifest; --delete removes the file and never the manifest', async () => {
    const gone = 'git-workflow/references/commit-messages.md';
    await rm(path.join(root, gone));
    const kept = await publish();
    assert.equal(kept.code, 0, kept.stderr);
    assert.ok((await listed()).has(gone), 'without --delete the object stays');
    assert.ok(!(gone in (await manifest())!.files), 'but the manifest does not vouch for it');
    const stale = await load();
    assert.deepEqual(stale.requests, { list: 1, get: 2 }, 'the manifest, then the file it does not cover');
    assert.deepEqual(stale.errors, []);

    const removed = await publish('--delete');
    assert.equal(removed.code, 0, removed.stderr);
    assert.equal(removed.stdout, `published 0 files (${FILES.length - 1} unchanged, 1 removed) to ${location}\n`);
    const remaining = await listed();
    assert.ok(!remaining.has(gone));
    assert.ok(remaining.has(MANIFEST), '--delete never removes the manifest');
    assert.deepEqual((await load()).requests, { list: 1, get: 1 });
  });

  test('--dry-run writes no manifest; the next publish writes it even when no file changed', async () => {
    await client.send(new DeleteObjectCommand({ Bucket: manifestBucket, Key: key }));
    const dry = await publish('--dry-run');
    assert.equal(dry.code, 0, dry.stderr);
    assert.equal(await manifest(), undefined);

    const r = await publish();
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `published 0 files (${FILES.length - 1} unchanged, 0 removed) to ${location}\n`);
    assert.deepEqual(Object.keys((await manifest())!.files).length, FILES.length - 1);
    assert.deepEqual((await load()).requests, { list: 1, get: 1 });
  });
});
