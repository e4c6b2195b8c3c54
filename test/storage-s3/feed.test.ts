/**
 * The manifest as a change feed: with one, a reload (and a watch poll) first asks whether the
 * manifest changed, with one conditional GET, and lists the prefix only when it did or once
 * `fullListIntervalMs` has passed; without one, or with one that cannot be trusted, every reload
 * lists as before.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { SkillCatalog, type StorageError } from '@skillmount/core';
import { encodeManifest, s3Storage, type ManifestFile, type S3StorageOptions } from '@skillmount/storage-s3';
import type { S3TestServer } from '../support/s3-server.js';
import { waitFor } from '../support/wait.js';
import { countRequests, freshPrefix, type RequestCounts, s3ForFile, upload } from './helpers.js';
import { numberedSkills } from '../support/trees.js';

const MANIFEST = '.skillmount/manifest.json';
const text = (s: string) => new TextEncoder().encode(s);
const sha256 = (bytes: Uint8Array | string) => 'sha256:' + createHash('sha256').update(bytes).digest('hex');
const md5 = (bytes: Uint8Array | string) => createHash('md5').update(bytes).digest('hex');

let server: S3TestServer;
let bucket: string;
let admin: S3Client;

s3ForFile((s3) => {
  ({ server, bucket, client: admin } = s3);
});

interface Setup {
  prefix: string;
  counts: RequestCounts;
  errors: StorageError[];
  storage(extra?: Partial<S3StorageOptions>): ReturnType<typeof s3Storage>;
  load(extra?: Partial<S3StorageOptions>): Promise<SkillCatalog>;
  put(path: string, body: string): Promise<void>;
  /** Refuse the storage's requests for the manifest (signed with an access key the server does not know: it answers 403). */
  refuseManifest: boolean;
}

async function setup(label: string, manifest = true): Promise<Setup> {
  const prefix = freshPrefix(label);
  await upload(admin, bucket, prefix, numberedSkills(3));
  if (manifest) await s3Storage({ client: admin, bucket, prefix }).writeManifest();
  const client = server.client();
  const counts = countRequests(client);
  const errors: StorageError[] = [];
  const self: Setup = {
    prefix,
    counts,
    errors,
    refuseManifest: false,
    storage: (extra = {}) => s3Storage({ client, bucket, prefix, onError: (e) => errors.push(e), ...extra }),
    load: (extra) => SkillCatalog.load(self.storage(extra), { onWarning: () => {} }),
    put: async (path, body) => {
      await admin.send(new PutObjectCommand({ Bucket: bucket, Key: prefix + path, Body: text(body) }));
    },
  };
  // The deserialize step sees the request as signed, just before it is sent.
  client.middlewareStack.add(
    (next) => async (args) => {
      const request = args.request as { path?: string; headers?: Record<string, string> };
      if (self.refuseManifest && request.path?.endsWith(MANIFEST) && request.headers?.authorization) {
        request.headers.authorization = request.headers.authorization.replace(/Credential=[^/]+/, 'Credential=NOBODY');
      }
      return next(args);
    },
    { step: 'deserialize', name: 'skillmountTestRefuseManifest' },
  );
  return self;
}

const requests = (counts: RequestCounts) => ({ list: counts.list, get: counts.get, notModified: counts.notModified, other: counts.other });

describe('the manifest as a change feed', { timeout: 240_000 }, () => {
  test('with a manifest, a reload with nothing changed is one conditional GET answered 304, and no listing', async () => {
    const s = await setup('feed-unchanged');
    s.counts.reset();
    const catalog = await s.load();
    // The build's GET of the manifest serves both the token and the listing that follows.
    assert.deepEqual(requests(s.counts), { list: 1, get: 1, notModified: 0, other: 0 });
    for (let i = 0; i < 3; i++) {
      s.counts.reset();
      const report = await catalog.reload();
      assert.equal(report.listChanged, false);
      assert.deepEqual(requests(s.counts), { list: 0, get: 1, notModified: 1, other: 0 }, `reload ${i + 1}`);
    }
    assert.deepEqual(s.errors, []);
    catalog.close();
  });

  test('a publish (writeManifest) changes the token: the next reload lists and serves the change', async () => {
    const s = await setup('feed-publish');
    const storage = s.storage();
    const catalog = await SkillCatalog.load(storage, { onWarning: () => {} });
    const before = await storage.treeToken();
    assert.equal(await storage.treeToken(), before, 'the same token while nothing changes');

    await s.put('skill-1/SKILL.md', '---\nname: skill-1\ndescription: Published again.\n---\n');
    await s.storage().writeManifest();
    const token = await storage.treeToken();
    assert.ok(token !== undefined && token !== before, `${before} → ${token}`);

    s.counts.reset();
    const report = await catalog.reload();
    assert.deepEqual(report.changed, ['skill://skill-1/SKILL.md']);
    assert.equal(catalog.entries.find((e) => e.uri === 'skill://skill-1/SKILL.md')?.frontmatter.description, 'Published again.');
    // The manifest again (304: the token asked for above fetched it), the listing; the new SKILL.md comes from the manifest.
    assert.deepEqual(requests(s.counts), { list: 1, get: 1, notModified: 1, other: 0 });
    assert.deepEqual(s.errors, []);
    catalog.close();
  });

  test('an object overwritten by another tool, manifest untouched: unseen with Infinity, seen once fullListIntervalMs has passed', async () => {
    const s = await setup('feed-other-tool');
    const never = await s.load({ fullListIntervalMs: Number.POSITIVE_INFINITY });
    const soon = await s.load({ fullListIntervalMs: 200 });
    const path = 'skill-2/refs/notes.md';
    const fresh = 'written by another tool\n';
    await s.put(path, fresh);
    const digest = (catalog: SkillCatalog) =>
      catalog.entries.flatMap((e) => (Array.isArray(e.resources) ? e.resources : [])).find((r) => r.uri === `skill://${path}`)?.digest;

    s.counts.reset();
    assert.deepEqual((await never.reload()).changed, []);
    assert.deepEqual(requests(s.counts), { list: 0, get: 1, notModified: 1, other: 0 }, 'the manifest did not change: nothing listed');
    assert.notEqual(digest(never), sha256(fresh));

    await waitFor(async () => (await soon.reload()).changed.length > 0, 'a reload after the full-listing interval');
    assert.equal(digest(soon), sha256(fresh));
    // The manifest is out of date for that file: said once, and the file is read instead.
    assert.equal(s.errors.length, 1, s.errors.map((e) => e.message).join('\n'));
    assert.match(s.errors[0]!.message, /is out of date: 1 file was rewritten/);
    never.close();
    soon.close();
  });

  test('fullListIntervalMs: 0 lists on every reload and never asks for a token', async () => {
    const s = await setup('feed-zero');
    const storage = s.storage({ fullListIntervalMs: 0 });
    const catalog = await SkillCatalog.load(storage, { onWarning: () => {} });
    assert.equal(await storage.treeToken(), undefined);
    s.counts.reset();
    await catalog.reload();
    assert.deepEqual(requests(s.counts), { list: 1, get: 0, notModified: 0, other: 0 });
    catalog.close();
  });

  test('without a manifest every reload lists; after the first build no request asks for one', async () => {
    const s = await setup('feed-none', false);
    s.counts.reset();
    const catalog = await s.load();
    assert.deepEqual(requests(s.counts), { list: 1, get: 7, notModified: 0, other: 0 }, 'one GET answered 404 for the manifest, then the 6 files');
    for (let i = 0; i < 2; i++) {
      s.counts.reset();
      await catalog.reload();
      assert.deepEqual(requests(s.counts), { list: 1, get: 0, notModified: 0, other: 0 });
    }
    // A manifest that appears is seen by the listing, and the reload after that asks for it.
    await s3Storage({ client: admin, bucket, prefix: s.prefix }).writeManifest();
    await catalog.reload();
    s.counts.reset();
    await catalog.reload();
    assert.deepEqual(requests(s.counts), { list: 1, get: 1, notModified: 0, other: 0 }, 'the manifest (200), listed once more');
    s.counts.reset();
    await catalog.reload();
    assert.deepEqual(requests(s.counts), { list: 0, get: 1, notModified: 1, other: 0 });
    assert.deepEqual(s.errors, []);
    catalog.close();
  });

  test('a deleted manifest: the reload lists, and so does every one after it', async () => {
    const s = await setup('feed-deleted');
    const catalog = await s.load();
    await admin.send(new DeleteObjectCommand({ Bucket: bucket, Key: s.prefix + MANIFEST }));
    await s.put('skill-0/refs/notes.md', 'changed with the manifest gone\n');
    s.counts.reset();
    assert.deepEqual((await catalog.reload()).changed, ['skill://skill-0/SKILL.md']);
    assert.deepEqual(requests(s.counts), { list: 1, get: 2, notModified: 0, other: 0 }, 'the manifest (404), the listing, the changed file');
    s.counts.reset();
    await catalog.reload();
    assert.deepEqual(requests(s.counts), { list: 1, get: 0, notModified: 0, other: 0 });
    assert.deepEqual(s.errors, []);
    catalog.close();
  });

  test('a corrupted manifest is not trusted: every reload lists, and onError hears it once', async () => {
    const s = await setup('feed-corrupt');
    const catalog = await s.load();
    await admin.send(new PutObjectCommand({ Bucket: bucket, Key: s.prefix + MANIFEST, Body: text('{"version":1,"files":') }));
    await s.put('skill-0/refs/notes.md', 'changed with a broken manifest\n');
    s.counts.reset();
    assert.deepEqual((await catalog.reload()).changed, ['skill://skill-0/SKILL.md']);
    assert.deepEqual(requests(s.counts), { list: 1, get: 2, notModified: 0, other: 0 }, 'the manifest (200, unusable), the listing, the changed file');
    s.counts.reset();
    await catalog.reload();
    assert.deepEqual(requests(s.counts), { list: 1, get: 1, notModified: 1, other: 0 }, 'known unusable: a 304, then the listing');
    assert.equal(s.errors.length, 1);
    assert.match(s.errors[0]!.message, new RegExp(`ignoring the manifest s3://${bucket}/${s.prefix}${MANIFEST}: it is not valid JSON`));
    catalog.close();
  });

  test('a manifest larger than maxManifestBytes is refused from its headers: the files are read without it, onError hears its size once', async () => {
    const s = await setup('feed-huge');
    // A bucket writer plants 32 MiB where the manifest goes.
    const planted = new Uint8Array(32 * 1024 * 1024).fill(0x20);
    await admin.send(new PutObjectCommand({ Bucket: bucket, Key: s.prefix + MANIFEST, Body: planted }));
    const heapBefore = process.memoryUsage().arrayBuffers;
    s.counts.reset();
    const catalog = await s.load({ maxManifestBytes: 1024 * 1024 });
    assert.equal(catalog.entries.length, 3, 'every skill served, read without the manifest');
    assert.ok(process.memoryUsage().arrayBuffers - heapBefore < 16 * 1024 * 1024, 'the planted body was not read into memory');
    assert.equal(s.errors.length, 1, s.errors.map((e) => e.message).join('\n'));
    assert.match(
      s.errors[0]!.message,
      /ignoring the manifest .*: it is 33554432 bytes, more than maxManifestBytes \(1048576\), so it was not read; .*raise maxManifestBytes/,
    );
    s.counts.reset();
    await catalog.reload();
    assert.deepEqual(requests(s.counts), { list: 1, get: 1, notModified: 1, other: 0 }, 'known too large: a 304, then the listing');
    assert.equal(s.errors.length, 1, 'told once');
    catalog.close();
  });

  test('a manifest the server refuses (403) is not trusted: every reload lists, and onError hears it once', async () => {
    const s = await setup('feed-refused');
    const catalog = await s.load();
    s.refuseManifest = true;
    await s.put('skill-1/refs/notes.md', 'changed while the manifest is refused\n');
    s.counts.reset();
    assert.deepEqual((await catalog.reload()).changed, ['skill://skill-1/SKILL.md']);
    assert.equal(s.counts.list, 1);
    s.counts.reset();
    await catalog.reload();
    assert.equal(s.counts.list, 1, 'still listing');
    assert.equal(s.errors.length, 1, s.errors.map((e) => e.message).join('\n'));
    assert.match(s.errors[0]!.message, /ignoring the manifest .* it cannot be fetched: .*HTTP 403/);
    assert.doesNotMatch(s.errors[0]!.message, /skillmount publish/, 'a refused fetch is not fixed by writing the manifest again');

    // Readable again, and rewritten to cover the change (else it no longer describes the listing): trusted again.
    s.refuseManifest = false;
    await s3Storage({ client: admin, bucket, prefix: s.prefix }).writeManifest();
    await catalog.reload();
    s.counts.reset();
    await catalog.reload();
    assert.equal(s.counts.list, 0);
    catalog.close();
  });

  test('a manifest written before its objects is not trusted until the listing matches it', async () => {
    const s = await setup('feed-manifest-first');
    const catalog = await s.load({ fullListIntervalMs: Number.POSITIVE_INFINITY });
    // A writer that puts the manifest first, vouching for an object it has not uploaded yet.
    const path = 'skill-2/refs/notes.md';
    const fresh = 'uploaded after the manifest\n';
    const current = JSON.parse(await (await admin.send(new GetObjectCommand({ Bucket: bucket, Key: s.prefix + MANIFEST }))).Body!.transformToString());
    const files: ManifestFile[] = Object.entries<{ etag: string; size: number; sha256: string; content?: string }>(current.files).map(([p, e]) => ({
      path: p,
      etag: e.etag,
      size: e.size,
      sha256: e.sha256,
      ...(e.content ? { content: Buffer.from(e.content, 'base64') } : {}),
    }));
    const entry = files.find((f) => f.path === path)!;
    Object.assign(entry, { etag: `"${md5(fresh)}"`, size: Buffer.byteLength(fresh), sha256: sha256(fresh) });
    await admin.send(new PutObjectCommand({ Bucket: bucket, Key: s.prefix + MANIFEST, Body: encodeManifest(files) }));

    // The token changed, so this reload lists; it sees the old object, which the manifest does not describe.
    assert.deepEqual((await catalog.reload()).changed, []);
    await s.put(path, fresh);
    // The object landed after that listing, and the manifest did not change since: the next reload must list anyway.
    s.counts.reset();
    assert.deepEqual((await catalog.reload()).changed, ['skill://skill-2/SKILL.md']);
    assert.equal(s.counts.list, 1);
    // Now the listing matches the manifest: trusted again.
    s.counts.reset();
    await catalog.reload();
    assert.deepEqual(requests(s.counts), { list: 0, get: 1, notModified: 1, other: 0 });
    catalog.close();
  });

  test('watch: with a manifest each poll is one conditional GET and no listing; a publish is seen', async () => {
    const s = await setup('feed-watch');
    const storage = s.storage({ pollIntervalMs: 50 });
    const catalog = await SkillCatalog.load(storage, { onWarning: () => {} });
    let changes = 0;
    catalog.onListChanged(() => changes++);
    s.counts.reset();
    const stop = catalog.watch();
    try {
      await waitFor(() => s.counts.notModified >= 3, 'three polls');
      assert.equal(s.counts.list, 0, 'no poll listed');
      assert.equal(changes, 0);

      await s.put('skill-0/SKILL.md', '---\nname: skill-0\ndescription: Seen by the watch.\n---\n');
      await s3Storage({ client: admin, bucket, prefix: s.prefix }).writeManifest();
      await waitFor(() => changes > 0, 'list_changed after a publish');
      assert.equal(catalog.entries.find((e) => e.uri === 'skill://skill-0/SKILL.md')?.frontmatter.description, 'Seen by the watch.');
      assert.deepEqual(s.errors, []);
    } finally {
      stop();
      catalog.close();
    }
  });

  test('watch: an object overwritten without a manifest rewrite is seen after fullListIntervalMs', async () => {
    const s = await setup('feed-watch-other');
    const storage = s.storage({ pollIntervalMs: 50, fullListIntervalMs: 300 });
    let changes = 0;
    const stop = storage.watch(() => changes++);
    try {
      await waitFor(() => s.counts.notModified >= 2, 'polls answered 304');
      await s.put('skill-1/refs/notes.md', 'overwritten, manifest untouched\n');
      await waitFor(() => changes > 0, 'onChange after the full-listing interval');
      assert.equal(changes, 1);
    } finally {
      stop();
      await storage.close();
    }
  });
});
