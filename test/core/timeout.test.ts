import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SkillCatalog, StorageError, memoryStorage, type SkillFiles } from '@skillmount/core';

const files = { 'demo/SKILL.md': '---\nname: demo\ndescription: A demo.\n---\nbody', 'demo/data.txt': 'data' };
const never = () => new Promise<never>(() => {});

test('a storage read that hangs fails the resources/read with -32603 and a logged cause', async () => {
  const memory = memoryStorage(files);
  let hang = false;
  const storage: SkillFiles = { list: (d) => memory.list(d), read: (p) => (hang ? never() : memory.read(p)) };
  const warnings: string[] = [];
  const catalog = await SkillCatalog.load(storage, { timeoutMs: 100, onWarning: (w) => warnings.push(w.message) });
  hang = true;
  const started = Date.now();
  await assert.rejects(catalog.read('skill://demo/data.txt'), (error: { code?: number; message: string }) => {
    assert.equal(error.code, -32603);
    assert.doesNotMatch(error.message, /within|data\.txt"/, 'the client is not told storage details');
    return true;
  });
  assert.ok(Date.now() - started < 2000);
  assert.ok(
    warnings.some((w) => /did not answer read "demo\/data\.txt" within 100 ms/.test(w)),
    warnings.join('\n'),
  );
});

test('a listing that hangs fails the load, and a reload keeps the old catalog', async () => {
  const memory = memoryStorage(files);
  let hang = true;
  const storage: SkillFiles = { list: (d) => (hang ? never() : memory.list(d)), read: (p) => memory.read(p) };
  await assert.rejects(
    SkillCatalog.load(storage, { timeoutMs: 50 }),
    (error: Error) => error instanceof StorageError && /did not answer list/.test(error.message),
  );
  hang = false;
  const catalog = await SkillCatalog.load(storage, { timeoutMs: 50 });
  hang = true;
  await assert.rejects(catalog.reload(), StorageError);
  assert.equal(catalog.entries.length, 1, 'still serving the old catalog');
  assert.equal((await catalog.get('skill://demo/SKILL.md')).uri, 'skill://demo/SKILL.md');
});

test('timeoutMs is checked at construction', async () => {
  for (const bad of [0, -1, 1.5, 'x']) {
    await assert.rejects(SkillCatalog.load(memoryStorage(files), { timeoutMs: bad as number }), /option "timeoutMs"/);
  }
});
