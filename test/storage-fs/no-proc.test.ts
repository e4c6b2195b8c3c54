/**
 * Folder storage where `/proc/self/fd` is missing (macOS, BSDs, a container without /proc): the
 * check after opening falls back to device and inode. Turned on here through the module's seam,
 * so the source is imported (the listing runs on the calling thread, in this module instance).
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { StorageError } from '@skillmount/core';
import { useProcFd } from '../../packages/storage-fs/src/confine.js';
import { fsStorage } from '../../packages/storage-fs/src/storage.js';
import { skillMd } from '../support/skill-md.js';
import { tempDir, writeTree } from '../support/trees.js';

describe('fsStorage without /proc/self/fd', () => {
  const tmp = tempDir('skillmount-fs-noproc-');
  after(() => {
    useProcFd(undefined);
    tmp.remove();
  });
  const root = path.join(tmp.dir, 'served');
  const outside = path.join(tmp.dir, 'outside');
  writeTree(root, { 'demo/SKILL.md': skillMd('demo'), 'demo/ref/notes.md': 'notes\n' });
  writeTree(outside, { 'notes.md': 'SECRET\n', 'SKILL.md': skillMd('linked') });
  symlinkSync(outside, path.join(root, 'demo', 'linked'));
  mkdirSync(path.join(root, 'empty'));

  test('lists and reads the same as with it', async () => {
    useProcFd(undefined);
    const withProc = await fsStorage(root, { workerThreads: false }).listAll();
    useProcFd(false);
    const storage = fsStorage(root, { workerThreads: false });
    const without = await storage.listAll();
    const sorted = (l: typeof without) => [...l].sort((a, b) => (a.path < b.path ? -1 : 1)).map(({ token: _, ...rest }) => rest);
    assert.deepEqual(sorted(without), sorted(withProc));
    assert.equal(without.find((i) => i.path === 'demo/linked')?.kind, 'unsupported');
    assert.equal(Buffer.from(await storage.read('demo/ref/notes.md')).toString(), 'notes\n');
    assert.deepEqual((await storage.list('demo')).map((e) => [e.name, e.kind]).sort(), [
      ['SKILL.md', 'file'],
      ['linked', 'unsupported'],
      ['ref', 'directory'],
    ]);
  });

  test('refuses what is reached through a symlinked folder, and the symlink itself', async () => {
    useProcFd(false);
    const storage = fsStorage(root, { workerThreads: false });
    await assert.rejects(storage.read('demo/linked/notes.md'), (e: unknown) => e instanceof StorageError && e.path === 'demo/linked/notes.md');
    await assert.rejects(storage.list('demo/linked'), (e: unknown) => e instanceof StorageError && e.path === 'demo/linked');
    await assert.rejects(storage.read('demo/linked'), (e: unknown) => e instanceof StorageError && /symlink/.test(e.message));
  });
});
