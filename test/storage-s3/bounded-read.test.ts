import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { SkillCatalog, StorageError, type SkillWarning } from '@skillmount/core';
import { s3Storage } from '@skillmount/storage-s3';
import { s3ForTest } from '../support/s3-server.js';
import { freshPrefix, upload } from './helpers.js';

/** The Range header of every GetObject the client sends, and the body length the server answered with. */
function watchGets(client: S3Client) {
  const gets: { key: string; range: string | undefined; contentLength: number }[] = [];
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      if ((context as { commandName?: string }).commandName === 'GetObjectCommand') {
        const request = args.request as { headers: Record<string, string>; path: string };
        const response = result.response as { headers: Record<string, string> };
        gets.push({ key: decodeURIComponent(request.path), range: request.headers.range, contentLength: Number(response.headers['content-length']) });
      }
      return result;
    },
    { step: 'deserialize', name: 'skillmountTestWatchGets' },
  );
  return gets;
}

const GIANT = 8 * 1024 * 1024;

test('an object replaced by a much larger one is refused after a ranged GET of size + 1 bytes', async (t) => {
  const { bucket, client } = await s3ForTest(t);
  const prefix = freshPrefix('bounded');
  const data = 'twelve bytes';
  await upload(client, bucket, prefix, { 'big/SKILL.md': '---\nname: big\ndescription: Grows.\n---\n', 'big/data.txt': data, 'big/empty.txt': '' });

  const gets = watchGets(client);
  const warnings: SkillWarning[] = [];
  const catalog = await SkillCatalog.load(s3Storage({ client, bucket, prefix }), { onWarning: (w) => warnings.push(w), cacheBytes: 0 });
  assert.equal(catalog.entries.length, 1);
  const skillMdGet = gets.find((g) => g.key.endsWith('big/SKILL.md'));
  assert.ok(skillMdGet?.range?.startsWith('bytes=0-'), `the build bounded its read of SKILL.md by the listed size (${skillMdGet?.range})`);

  // Served as published, through a ranged GET.
  gets.splice(0);
  const read = await catalog.read('skill://big/data.txt');
  assert.equal(Buffer.from(read.bytes).toString(), data);
  assert.deepEqual(
    gets.map((g) => g.range),
    [`bytes=0-${data.length}`],
  );

  // Replaced behind the catalog's back by 8 MiB: refused, and no more than size + 1 bytes came over the wire.
  await client.send(new PutObjectCommand({ Bucket: bucket, Key: `${prefix}big/data.txt`, Body: new Uint8Array(GIANT).fill(65) }));
  gets.splice(0);
  await assert.rejects(
    catalog.read('skill://big/data.txt'),
    (error: { code?: number; message?: string }) => error.code === -32603 && /changed since/.test(error.message ?? ''),
  );
  assert.equal(gets.length, 1);
  assert.equal(gets[0]!.range, `bytes=0-${data.length}`);
  assert.equal(gets[0]!.contentLength, data.length + 1, 'the server sent size + 1 bytes, not 8 MiB');
  const warning = warnings.find((w) => w.code === 'changed');
  assert.match(
    warning?.message ?? '',
    new RegExp(
      `cannot read "big/data.txt" \\(s3://${bucket}/${prefix}big/data.txt\\): the object is ${GIANT} bytes, larger than the ${data.length} it was listed with.*Reload the catalog`,
    ),
  );

  // An empty object is read whole (a range over zero bytes is refused by S3), and cut off when it grew.
  const storage = s3Storage({ client, bucket, prefix });
  assert.equal((await storage.read('big/empty.txt', { maxBytes: 0 })).byteLength, 0);
  await client.send(new PutObjectCommand({ Bucket: bucket, Key: `${prefix}big/empty.txt`, Body: new Uint8Array(1024 * 1024) }));
  await assert.rejects(storage.read('big/empty.txt', { maxBytes: 0 }), (error: unknown) => {
    assert.ok(error instanceof StorageError);
    assert.equal(error.path, 'big/empty.txt');
    assert.equal(error.code, 'too-large');
    assert.match(error.message, /the object is 1048576 bytes, larger than the 0 it was listed with/);
    return true;
  });
  // Without a limit, a storage read is the whole object, as before.
  assert.equal((await storage.read('big/data.txt')).byteLength, GIANT);
});
