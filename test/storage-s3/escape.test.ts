import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SkillCatalog, StorageError, type SkillWarning } from '@skillmount/core';
import { s3Storage } from '@skillmount/storage-s3';
import { s3ForTest } from '../support/s3-server.js';
import { countRequests, freshPrefix, putLiteral, upload } from './helpers.js';

const SECRET = 'top secret, outside the prefix';

test('keys that cannot be relative paths are listed as unsupported and never read', async (t) => {
  const { server, bucket } = await s3ForTest(t);
  const prefix = freshPrefix('escape');
  const setup = server.client();
  await upload(setup, bucket, prefix, {
    'alpha/SKILL.md': '---\nname: alpha\ndescription: The alpha skill.\n---\n# alpha\n',
    'alpha/notes.md': 'notes',
  });
  // What "prefix/../secret.txt" would resolve to on a file system.
  await upload(setup, bucket, '', { 'secret.txt': SECRET });
  const escaping = [`${prefix}../secret.txt`, `${prefix}alpha//b.md`, `${prefix}alpha/./b.md`, `${prefix}loose/back\\slash.md`];
  for (const key of escaping) {
    try {
      await putLiteral(server, setup, bucket, key, SECRET);
    } catch (error) {
      // AWS stores any key; MinIO and some others refuse these.
      if (!server.external) throw error;
      t.skip(`${server.endpoint} refuses the key "${key}" (${(error as Error).name})`);
      return;
    }
  }
  // Folder markers: the prefix's own (ignored) and an empty folder (listed as a folder).
  await putLiteral(server, setup, bucket, prefix, '');
  await putLiteral(server, setup, bucket, `${prefix}alpha/empty/`, '');

  const client = server.client();
  const counts = countRequests(client);
  const storage = s3Storage({ client, bucket, prefix });
  t.after(() => storage.close());

  await t.test('listAll reports each such key as unsupported, with its path below the prefix', async () => {
    const listing = await storage.listAll();
    const byPath = new Map(listing.map((item) => [item.path, item.kind]));
    assert.equal(byPath.get('../secret.txt'), 'unsupported');
    assert.equal(byPath.get('alpha//b.md'), 'unsupported');
    assert.equal(byPath.get('alpha/./b.md'), 'unsupported');
    assert.equal(byPath.get('loose/back\\slash.md'), 'unsupported');
    assert.equal(byPath.get('alpha/empty'), 'directory');
    assert.equal(byPath.get('alpha/SKILL.md'), 'file');
    assert.ok(!listing.some((item) => item.path === '' || item.path === '.'), 'the prefix folder marker is not an entry');
  });

  await t.test('a catalog serves the rest, warns about each key, and never reads one', async () => {
    const warnings: SkillWarning[] = [];
    counts.reset();
    const catalog = await SkillCatalog.load(storage, { onWarning: (w) => warnings.push(w) });
    assert.equal(counts.get, 2, 'only alpha/SKILL.md and alpha/notes.md are read');
    assert.deepEqual(
      catalog.entries.map((e) => e.uri),
      ['skill://alpha/SKILL.md'],
    );
    const served = (catalog.entries[0]!.resources as { uri: string }[]).map((r) => r.uri).sort();
    assert.deepEqual(served, ['skill://alpha/SKILL.md', 'skill://alpha/notes.md']);
    const warned = warnings.map((w) => w.path ?? '').join('\n');
    // "../secret.txt" starts with ".", which a catalog skips silently like any hidden name.
    for (const path of ['alpha//b.md', 'alpha/./b.md', 'loose/back\\slash.md']) assert.ok(warned.includes(path), `a warning names ${path}:\n${warned}`);
    for (const uri of ['skill://secret.txt', 'skill://alpha/b.md', 'skill://alpha//b.md', 'skill://alpha/../secret.txt']) {
      await assert.rejects(catalog.read(uri), /not found|No skill/i, uri);
    }
  });

  await t.test('list() shows them as unsupported where a walk meets them', async () => {
    const fresh = s3Storage({ client, bucket, prefix });
    // Delimiter listings: no flat snapshot yet. "alpha//b.md" and "alpha/./b.md" show up as the folders "/" and "./".
    const alpha = new Map((await fresh.list('alpha')).map((e) => [e.name, e.kind]));
    assert.deepEqual(Object.fromEntries(alpha), { 'SKILL.md': 'file', 'notes.md': 'file', empty: 'directory', '/': 'unsupported', './': 'unsupported' });
    assert.deepEqual(await fresh.list('loose'), [{ name: 'back\\slash.md', kind: 'unsupported' }]);
    assert.deepEqual(await fresh.list('alpha/empty'), []);
    const root = await fresh.list(''); // flat listing
    assert.ok(root.some((e) => e.name === '../secret.txt' && e.kind === 'unsupported'));
    assert.ok(!root.some((e) => e.kind !== 'unsupported' && e.name === '..'));
    await fresh.close();
  });

  await t.test('read() refuses such paths before sending any request', async () => {
    counts.reset();
    for (const bad of ['../secret.txt', 'alpha//b.md', 'alpha/./b.md', 'loose/back\\slash.md', '/alpha/SKILL.md', '', 'alpha/\0.md']) {
      await assert.rejects(
        storage.read(bad),
        (error: Error) => error instanceof StorageError && /not a (relative|file) path/.test(error.message),
        JSON.stringify(bad),
      );
    }
    await assert.rejects(storage.list('alpha/..'), StorageError);
    assert.equal(counts.get + counts.list + counts.other, 0);
  });
});
