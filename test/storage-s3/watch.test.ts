import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { SkillCatalog, StorageError } from '@skillmount/core';
import { s3Storage } from '@skillmount/storage-s3';
import { s3ForTest } from '../support/s3-server.js';
import { countRequests, freshPrefix, upload } from './helpers.js';
import { skillMd } from '../support/skill-md.js';
import { sleep } from '../support/wait.js';

const POLL_MS = 100;

/** Resolves when `check` returns true, polling every 20 ms; fails after `ms`. */
async function until(check: () => boolean, ms: number, what: string): Promise<number> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(20);
  }
  return Date.now() - start;
}

test('watch polls the listing and reports changes', async (t) => {
  const { server, bucket } = await s3ForTest(t);
  const prefix = freshPrefix('watch');
  const client = server.client();
  await upload(client, bucket, prefix, { 'gamma/SKILL.md': skillMd('gamma', 'First.'), 'gamma/notes.md': 'one' });

  await t.test('a changed object reaches a watching catalog within a few poll intervals', async () => {
    const storage = s3Storage({ client, bucket, prefix, pollIntervalMs: POLL_MS });
    const catalog = await SkillCatalog.load(storage, { onWarning: () => {} });
    const before = (catalog.entries[0]!.resources as { uri: string; digest: string }[]).find((r) => r.uri.endsWith('notes.md'))!.digest;
    let notified = 0;
    catalog.onListChanged(() => notified++);
    const stop = catalog.watch();
    try {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: `${prefix}gamma/notes.md`, Body: 'two' }));
      const took = await until(() => notified > 0, 5_000, 'list_changed after a changed object');
      t.diagnostic(`change seen after ${took} ms (poll interval ${POLL_MS} ms)`);
      const after = (catalog.entries[0]!.resources as { uri: string; digest: string }[]).find((r) => r.uri.endsWith('notes.md'))!.digest;
      assert.notEqual(after, before);

      await client.send(new PutObjectCommand({ Bucket: bucket, Key: `${prefix}gamma/SKILL.md`, Body: skillMd('gamma', 'Second.') }));
      await until(() => notified > 1, 5_000, 'list_changed after a changed SKILL.md');
      assert.equal(catalog.entries[0]!.frontmatter.description, 'Second.');

      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: `${prefix}gamma/notes.md` }));
      await until(() => notified > 2, 5_000, 'list_changed after a deleted object');
      assert.equal((catalog.entries[0]!.resources as unknown[]).length, 1);
    } finally {
      stop();
      await storage.close();
    }
  });

  await t.test('onChange fires only on change, and stop() ends polling', async () => {
    const counted = server.client();
    const counts = countRequests(counted);
    const storage = s3Storage({ client: counted, bucket, prefix, pollIntervalMs: POLL_MS });
    let changes = 0;
    const stop = storage.watch(() => changes++);
    await until(() => counts.list >= 4, 5_000, 'a few polls');
    assert.equal(changes, 0, 'nothing changed yet');
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: `${prefix}gamma/new.md`, Body: 'new' }));
    await until(() => changes === 1, 5_000, 'onChange');
    stop();
    await sleep(POLL_MS); // a poll already in flight may still finish
    const listsAtStop = counts.list;
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: `${prefix}gamma/new.md`, Body: 'newer' }));
    await sleep(POLL_MS * 5);
    assert.equal(counts.list, listsAtStop, 'no listing after stop()');
    assert.equal(changes, 1);
    await storage.close();
  });

  await t.test('a failing poll is reported and polling goes on', async () => {
    const errors: StorageError[] = [];
    const storage = s3Storage({ client, bucket: 'no-such-bucket-for-skillmount', pollIntervalMs: POLL_MS, onError: (e) => errors.push(e) });
    const stop = storage.watch(() => assert.fail('nothing can change in a missing bucket'));
    try {
      await until(() => errors.length >= 3, 5_000, 'three failed polls');
      assert.ok(
        errors.every((e) => e instanceof StorageError && e.message.includes('s3://no-such-bucket-for-skillmount/')),
        errors[0]?.message,
      );
      assert.ok(errors[0]!.cause, 'the SDK error is kept as the cause');
    } finally {
      stop();
      await storage.close();
    }
  });

  await t.test('close() stops every watcher', async () => {
    const counted = server.client();
    const counts = countRequests(counted);
    const storage = s3Storage({ client: counted, bucket, prefix, pollIntervalMs: POLL_MS });
    storage.watch(() => {});
    storage.watch(() => {});
    await until(() => counts.list >= 2, 5_000, 'first polls');
    await storage.close();
    await sleep(POLL_MS);
    const atClose = counts.list;
    await sleep(POLL_MS * 4);
    assert.equal(counts.list, atClose);
    assert.throws(() => storage.watch(() => {}), /closed/);
  });
});
