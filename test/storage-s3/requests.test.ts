import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { SkillCatalog } from '@skillmount/core';
import { s3Storage } from '@skillmount/storage-s3';
import { s3ForTest } from '../support/s3-server.js';
import { countRequests, freshPrefix, seed } from './helpers.js';

const SKILLS = 205;
const FILES_PER_SKILL = 10;

function tree(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let s = 0; s < SKILLS; s++) {
    const name = `skill-${String(s).padStart(3, '0')}`;
    files[`${name}/SKILL.md`] = `---\nname: ${name}\ndescription: Skill number ${s}.\n---\n# ${name}\n`;
    for (let f = 1; f < FILES_PER_SKILL; f++) files[`${name}/refs/file-${f}.md`] = `${name} file ${f}\n`;
  }
  return files;
}

test('a catalog build costs about keys/1000 LIST requests and one GET per skill file; an unchanged reload reads nothing', async (t) => {
  const { server, bucket } = await s3ForTest(t);
  const prefix = freshPrefix('requests');
  const files = tree();
  const keys = Object.keys(files).length;
  await seed(server, server.client(), bucket, prefix, files);

  // The user's own client, counted at the wire: one count per HTTP attempt.
  const client = server.client();
  const counts = countRequests(client);
  const storage = s3Storage({ client, bucket, prefix });
  t.after(() => storage.close());
  const maxLists = Math.ceil(keys / 1000) + 1;

  const catalog = await SkillCatalog.load(storage, { onWarning: () => {} });
  t.diagnostic(`catalog build over ${keys} keys: ${counts.list} LIST, ${counts.get} GET, ${counts.other} other requests`);
  assert.equal(catalog.entries.length, SKILLS);
  assert.ok(counts.list <= maxLists, `${counts.list} LIST requests for ${keys} keys (at most ${maxLists})`);
  assert.ok(counts.list >= Math.ceil(keys / 1000), 'the listing crossed page boundaries');
  assert.equal(counts.get, keys + 1, 'one GET per skill file, and one for the manifest (answered 404)');
  assert.equal(counts.other, 0);
  assert.equal(catalog.bodiesRead, keys);

  await t.test('a reload with nothing changed lists again and reads no body', async () => {
    counts.reset();
    const report = await catalog.reload();
    t.diagnostic(`unchanged reload: ${counts.list} LIST, ${counts.get} GET`);
    assert.equal(report.listChanged, false);
    assert.equal(counts.get, 0);
    assert.equal(catalog.bodiesRead, 0);
    assert.ok(counts.list <= maxLists);
  });

  await t.test('a reload after one file changed reads that file only', async () => {
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: `${prefix}skill-007/refs/file-3.md`, Body: 'changed\n' }));
    counts.reset();
    const report = await catalog.reload();
    assert.deepEqual(report.changed, ['skill://skill-007/SKILL.md']);
    assert.equal(counts.get, 1);
    assert.equal(catalog.bodiesRead, 1);
  });

  await t.test('a walk through list() right after a flat listing sends no request', async () => {
    await storage.listAll();
    counts.reset();
    const root = await storage.list('');
    assert.equal(root.length, SKILLS);
    for (const entry of root.slice(0, 20)) {
      const children = await storage.list(entry.name);
      assert.deepEqual(children.map((c) => `${c.name}:${c.kind}`).sort(), ['SKILL.md:file', 'refs:directory']);
      assert.equal((await storage.list(`${entry.name}/refs`)).length, FILES_PER_SKILL - 1);
    }
    assert.equal(counts.list + counts.get + counts.other, 0);
  });

  await t.test('a walk through list() alone (no listAll, as the SDK v2 catalog does) costs one flat listing', async () => {
    const walker = s3Storage({ client, bucket, prefix });
    counts.reset();
    let folders = 0;
    let found = 0;
    const queue = [''];
    while (queue.length > 0) {
      const dir = queue.shift()!;
      folders++;
      for (const entry of await walker.list(dir)) {
        if (entry.kind === 'directory') queue.push(dir === '' ? entry.name : `${dir}/${entry.name}`);
        else found++;
      }
    }
    t.diagnostic(`list() walk of ${folders} folders: ${counts.list} LIST requests`);
    assert.equal(found, keys);
    assert.ok(counts.list <= maxLists, `${counts.list} LIST requests`);
    await walker.close();
  });

  await t.test('a single list(dir) with no recent flat listing is one Delimiter listing of that folder', async () => {
    const single = s3Storage({ client, bucket, prefix });
    counts.reset();
    const refs = await single.list('skill-100/refs');
    assert.equal(refs.length, FILES_PER_SKILL - 1);
    assert.ok(refs.every((e) => e.kind === 'file' && typeof e.token === 'string'));
    assert.equal(counts.list, 1);
    await single.close();
  });
});
