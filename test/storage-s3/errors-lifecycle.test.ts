import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { OptionError, SkillCatalog, StorageError, type OptionErrorCode } from '@skillmount/core';
import { s3Storage, type S3StorageOptions } from '@skillmount/storage-s3';
import { s3ForTest } from '../support/s3-server.js';
import { freshPrefix, ownClientOptions, upload } from './helpers.js';

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test('options are checked once, with errors that name the package', () => {
  const client = new S3Client({ region: 'us-east-1' });
  const cases: [unknown, RegExp, OptionErrorCode][] = [
    [undefined, /options must be an object/, 'invalid-type'],
    [{}, /"bucket" must be a non-empty string/, 'missing-option'],
    [{ bucket: 7 }, /"bucket" must be a non-empty string/, 'invalid-type'],
    [{ bucket: '' }, /"bucket" must be a non-empty string/, 'invalid-value'],
    [{ bucket: 'a/b' }, /without "\/"/, 'invalid-value'],
    [{ bucket: 'skills', prefix: '../up' }, /"prefix" must be a folder/, 'invalid-value'],
    [{ bucket: 'skills', prefix: '/abs/' }, /"prefix" must be a folder/, 'invalid-value'],
    [{ bucket: 'skills', prefix: 'a//b/' }, /"prefix" must be a folder/, 'invalid-value'],
    [{ bucket: 'skills', client, endpoint: 'http://127.0.0.1:9000' }, /"endpoint" configures the client s3Storage creates/, 'conflicting-options'],
    [{ bucket: 'skills', client: {} }, /"client" must be an S3Client/, 'invalid-type'],
    [{ bucket: 'skills', endpoint: 'not a url' }, /"endpoint" must be a URL/, 'invalid-value'],
    [{ bucket: 'skills', pollIntervalMs: 0 }, /"pollIntervalMs" must be a positive number/, 'invalid-value'],
    [{ bucket: 'skills', fullListIntervalMs: -1 }, /"fullListIntervalMs" must be a number of milliseconds from 0/, 'invalid-value'],
    [{ bucket: 'skills', fullListIntervalMs: Number.NaN }, /"fullListIntervalMs" must be a number of milliseconds from 0/, 'invalid-value'],
    [{ bucket: 'skills', fullListIntervalMs: '5m' }, /"fullListIntervalMs" must be a number of milliseconds from 0/, 'invalid-type'],
    [{ bucket: 'skills', maxManifestBytes: 0 }, /"maxManifestBytes" must be a whole number of bytes, 1 or more \(got 0\)/, 'invalid-value'],
    [{ bucket: 'skills', maxManifestBytes: 1.5 }, /"maxManifestBytes" must be a whole number of bytes/, 'invalid-value'],
    [{ bucket: 'skills', maxManifestBytes: Number.POSITIVE_INFINITY }, /"maxManifestBytes" must be a whole number of bytes/, 'invalid-value'],
    [{ bucket: 'skills', maxManifestBytes: '1MB' }, /"maxManifestBytes" must be a whole number of bytes/, 'invalid-type'],
    [{ bucket: 'skills', maxKeys: 1001 }, /"maxKeys" must be an integer from 1 to 1000/, 'invalid-value'],
    [{ bucket: 'skills', checksums: 'NEVER' }, /"checksums" must be/, 'invalid-value'],
    [{ bucket: 'skills', onError: 'log' }, /"onError" must be a function/, 'invalid-type'],
  ];
  for (const [options, message, code] of cases) {
    assert.throws(
      () => s3Storage(options as S3StorageOptions),
      (error: unknown) =>
        error instanceof OptionError &&
        error.code === code &&
        (code === 'invalid-value' ? error instanceof RangeError : error instanceof TypeError) &&
        error.message.startsWith('@skillmount/storage-s3: ') &&
        message.test(error.message),
      `${String(message)} (${code})`,
    );
  }
  client.destroy();
  const storage = s3Storage({ bucket: 'skills', prefix: 'team/skills', region: 'us-east-1' });
  assert.equal(storage.prefix, 'team/skills/', 'a prefix is a folder');
  void storage.close();
  for (const fullListIntervalMs of [0, 1, Number.POSITIVE_INFINITY]) void s3Storage({ bucket: 'skills', region: 'us-east-1', fullListIntervalMs }).close();
});

test('an unreachable endpoint fails the catalog load with a StorageError naming the bucket', async () => {
  const port = await closedPort();
  const storage = s3Storage({
    bucket: 'unreachable-skills',
    prefix: 'team/',
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
  });
  try {
    await assert.rejects(SkillCatalog.load(storage, { onWarning: () => {} }), (error: Error) => {
      assert.ok(error instanceof StorageError, String(error));
      assert.match(error.message, /s3:\/\/unreachable-skills\/team\//);
      assert.match(error.message, /connection refused|ECONNREFUSED/);
      assert.ok(error.cause, 'the network error is kept as the cause');
      return true;
    });
    await assert.rejects(storage.read('alpha/SKILL.md'), /s3:\/\/unreachable-skills\/team\/alpha\/SKILL\.md/);
  } finally {
    await storage.close();
  }
});

test('missing keys, folders and buckets, and who owns the client', async (t) => {
  const { server, bucket } = await s3ForTest(t);
  const prefix = freshPrefix('errors');
  const client = server.client();
  await upload(client, bucket, prefix, { 'alpha/SKILL.md': '---\nname: alpha\ndescription: A.\n---\n' });

  await t.test('a missing key: StorageError naming bucket and key, with the cause', async () => {
    const storage = s3Storage({ client, bucket, prefix });
    await assert.rejects(storage.read('alpha/missing.md'), (error: Error) => {
      assert.ok(error instanceof StorageError);
      assert.equal(error.path, 'alpha/missing.md');
      assert.ok(error.message.includes(`s3://${bucket}/${prefix}alpha/missing.md`), error.message);
      assert.match(error.message, /no such key/);
      assert.equal((error.cause as Error).name, 'NoSuchKey');
      return true;
    });
  });

  await t.test('a missing folder: StorageError naming bucket and path', async () => {
    const storage = s3Storage({ client, bucket, prefix });
    await assert.rejects(storage.list('nope/deeper'), (error: Error) => {
      assert.ok(error instanceof StorageError);
      assert.equal(error.path, 'nope/deeper');
      assert.ok(error.message.includes(`s3://${bucket}/${prefix}nope/deeper/`), error.message);
      return true;
    });
  });

  await t.test('a missing bucket: the catalog load fails naming it', async () => {
    const storage = s3Storage({ client, bucket: 'no-such-bucket-for-skillmount' });
    await assert.rejects(SkillCatalog.load(storage, { onWarning: () => {} }), (error: Error) => {
      assert.ok(error instanceof StorageError);
      // AWS answers "access denied" when someone else owns a bucket of that name.
      assert.match(error.message, /s3:\/\/no-such-bucket-for-skillmount\/.*(no such bucket|access denied)/);
      return true;
    });
  });

  await t.test('close() leaves a client you passed in working', async () => {
    const yours = server.client();
    let destroyed = 0;
    const destroy = yours.destroy.bind(yours);
    yours.destroy = () => {
      destroyed++;
      destroy();
    };
    const storage = s3Storage({ client: yours, bucket, prefix });
    assert.equal(storage.client, yours);
    await storage.listAll();
    await storage.close();
    assert.equal(destroyed, 0);
    const after = await yours.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
    assert.equal(after.KeyCount, 1);
  });

  await t.test('close() destroys the client the storage created, once', async () => {
    const storage = s3Storage(ownClientOptions(server, bucket, prefix));
    let destroyed = 0;
    const destroy = storage.client.destroy.bind(storage.client);
    storage.client.destroy = () => {
      destroyed++;
      destroy();
    };
    assert.deepEqual(
      (await storage.list('alpha')).map((e) => e.name),
      ['SKILL.md'],
    );
    await storage.close();
    await storage.close();
    assert.equal(destroyed, 1);
  });

  await t.test('the client it creates follows AWS_ENDPOINT_URL_S3 and uses path-style addressing', async () => {
    const saved = { ...process.env };
    try {
      // With a custom endpoint and no AWS_REGION, the region defaults to us-east-1.
      if (server.region === 'us-east-1') delete process.env.AWS_REGION;
      else process.env.AWS_REGION = server.region;
      delete process.env.AWS_ENDPOINT_URL;
      process.env.AWS_ENDPOINT_URL_S3 = server.endpoint;
      process.env.AWS_ACCESS_KEY_ID = server.accessKeyId;
      process.env.AWS_SECRET_ACCESS_KEY = server.secretAccessKey;
      const storage = s3Storage({ bucket, prefix });
      try {
        const listing = await storage.listAll();
        assert.deepEqual(
          listing.map((e) => e.path),
          ['alpha/SKILL.md'],
        );
        assert.equal(await storage.client.config.forcePathStyle, true);
      } finally {
        await storage.close();
      }
    } finally {
      process.env = saved;
    }
  });

  await t.test('AWS_ENDPOINT_URL works too when AWS_ENDPOINT_URL_S3 is not set', async () => {
    const saved = { ...process.env };
    try {
      delete process.env.AWS_ENDPOINT_URL_S3;
      process.env.AWS_ENDPOINT_URL = server.endpoint;
      process.env.AWS_REGION = server.region;
      process.env.AWS_ACCESS_KEY_ID = server.accessKeyId;
      process.env.AWS_SECRET_ACCESS_KEY = server.secretAccessKey;
      const storage = s3Storage({ bucket, prefix });
      try {
        assert.equal((await storage.read('alpha/SKILL.md')).byteLength > 0, true);
      } finally {
        await storage.close();
      }
    } finally {
      process.env = saved;
    }
  });
});
