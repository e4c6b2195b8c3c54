import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SkillCatalog, StorageError, memoryStorage, type SkillFileReadOptions, type SkillFiles, type SkillWarning } from '@skillmount/core';

const md = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\n# ${name}\n`;

/** The same storage, with the options of every read recorded by path. */
function recordingReads(storage: SkillFiles) {
  const reads: { path: string; options: SkillFileReadOptions | undefined }[] = [];
  const recorded: SkillFiles = {
    list: (dir) => storage.list(dir),
    read: (path, options) => {
      reads.push({ path, options });
      return storage.read(path, options);
    },
  };
  return { recorded, reads };
}

test('the catalog bounds each served read by the published size; memoryStorage refuses a larger file', async () => {
  const storage = memoryStorage({ 'grows/SKILL.md': md('grows'), 'grows/data.txt': '12345' });
  const { recorded, reads } = recordingReads(storage);
  const warnings: SkillWarning[] = [];
  const catalog = await SkillCatalog.load(recorded, { onWarning: (w) => warnings.push(w), cacheBytes: 0 });

  reads.splice(0);
  assert.equal(Buffer.from((await catalog.read('skill://grows/data.txt')).bytes).toString(), '12345');
  assert.deepEqual(reads, [{ path: 'grows/data.txt', options: { maxBytes: 5 } }]);

  storage.write('grows/data.txt', 'x'.repeat(1_000_000));
  // The same answer as bytes that fail the published digest: the file changed, a reload serves it.
  await assert.rejects(
    catalog.read('skill://grows/data.txt'),
    (error: { code?: number; message?: string }) => error.code === -32603 && /changed since the skills catalog was loaded/.test(error.message ?? ''),
  );
  const warning = warnings.find((w) => w.code === 'changed');
  assert.equal(warning?.path, 'grows/data.txt');
  assert.match(warning?.message ?? '', /"grows\/data\.txt" is 1000000 bytes, more than the 5 expected .*reload the catalog/);

  await assert.rejects(storage.read('grows/data.txt', { maxBytes: 999_999 }), (error: unknown) => error instanceof StorageError && error.code === 'too-large');
  assert.equal((await storage.read('grows/data.txt', { maxBytes: 1_000_000 })).byteLength, 1_000_000);
  assert.equal((await storage.read('grows/data.txt')).byteLength, 1_000_000);
});

test('a build bounds a read by the size its listing gave, and reads unbounded when it gave none', async () => {
  const storage = memoryStorage({ 'sized/SKILL.md': md('sized'), 'sized/notes.md': 'notes' });
  const listed: SkillFiles = {
    list: (dir) => storage.list(dir),
    read: (path, options) => storage.read(path, options),
    // A whole-tree listing with sizes, as S3 and PostgreSQL give.
    listAll: async () => [
      { path: 'sized/SKILL.md', kind: 'file', size: md('sized').length, token: '1' },
      { path: 'sized/notes.md', kind: 'file', size: 5, token: '1' },
    ],
  };
  const withSizes = recordingReads(listed);
  withSizes.recorded.listAll = listed.listAll;
  await SkillCatalog.load(withSizes.recorded, { onWarning: () => {} });
  assert.deepEqual(
    withSizes.reads.sort((a, b) => (a.path < b.path ? -1 : 1)),
    [
      { path: 'sized/SKILL.md', options: { maxBytes: md('sized').length } },
      { path: 'sized/notes.md', options: { maxBytes: 5 } },
    ],
  );

  const withoutSizes = recordingReads(storage); // memoryStorage lists no sizes
  await SkillCatalog.load(withoutSizes.recorded, { onWarning: () => {} });
  assert.ok(withoutSizes.reads.length > 0);
  for (const read of withoutSizes.reads) assert.equal(read.options, undefined, `${read.path}: no size was listed, so none bounds the read`);
});

test('a listed size that a file outgrew before it was read fails the load, naming the file', async () => {
  const storage = memoryStorage({ 'raced/SKILL.md': md('raced') });
  const lying: SkillFiles = {
    list: (dir) => storage.list(dir),
    read: (path, options) => storage.read(path, options),
    listAll: async () => [{ path: 'raced/SKILL.md', kind: 'file', size: 10 }],
  };
  await assert.rejects(
    SkillCatalog.load(lying),
    (error: unknown) => error instanceof StorageError && error.path === 'raced/SKILL.md' && /more than the 10 expected/.test(error.message),
  );
});
