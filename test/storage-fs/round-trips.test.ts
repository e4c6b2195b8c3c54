/**
 * What one read of a folder storage costs in trips through libuv's thread pool, counted, not
 * timed: every asynchronous fs request (callback or promise, a FileHandle's close included)
 * creates one async resource (FSREQCALLBACK, FSREQPROMISE, FILEHANDLECLOSEREQ), which async_hooks sees. A catalog with `cacheBytes: 0` reads
 * storage on every request, so this is the I/O of each such request.
 */
import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import { AsyncResource, createHook, executionAsyncId } from 'node:async_hooks';
import { existsSync, readdirSync, readlinkSync } from 'node:fs';
import { SkillCatalog } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import { skillMd } from '../support/skill-md.js';
import { tempDir, writeTree } from '../support/trees.js';

/**
 * Async resources of the fs module, by type, created by `fn` and what it started. Only resources
 * descended from `fn`'s own async scope count: the test runner and loaders of some Node.js versions
 * do fs work of their own in the same process while a test runs (an `opendir` on Node 22 and 24).
 */
async function fsRequestsOf(fn: () => Promise<unknown>): Promise<Record<string, number>> {
  const seen: Record<string, number> = {};
  const scope = new AsyncResource('skillmount-trips');
  const ours = new Set([scope.asyncId()]);
  const hook = createHook({
    init(id, type, trigger) {
      if (!ours.has(trigger) && !ours.has(executionAsyncId())) return;
      ours.add(id);
      if (type.startsWith('FSREQ') || type === 'FILEHANDLECLOSEREQ') seen[type] = (seen[type] ?? 0) + 1;
    },
  });
  hook.enable();
  try {
    await scope.runInAsyncScope(fn);
  } finally {
    hook.disable();
    scope.emitDestroy();
  }
  return seen;
}

const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

describe('folder storage: thread-pool round trips per read', () => {
  const tmp = tempDir('skillmount-fs-trips-');
  after(() => tmp.remove());
  const body = 'x'.repeat(70_000);
  writeTree(tmp.dir, { 'demo/SKILL.md': skillMd('demo'), 'demo/references/big.md': body, 'demo/references/empty.md': '' });

  test('a read is at most two: the open, and the read', async () => {
    const storage = fsStorage(tmp.dir, { workerThreads: false });
    await storage.read('demo/SKILL.md'); // the root's real path is looked up once, on the first
    let bytes: Uint8Array | undefined;
    const counts = await fsRequestsOf(async () => {
      bytes = await storage.read('demo/references/big.md');
    });
    assert.equal(Buffer.from(bytes!).toString(), body);
    assert.ok(total(counts) <= 2, `one read made ${JSON.stringify(counts)}`);
    assert.ok(total(await fsRequestsOf(() => storage.read('demo/references/empty.md'))) <= 2);
  });

  test('a refused read still closes what it opened, within the same trips', async () => {
    const storage = fsStorage(tmp.dir, { workerThreads: false });
    await storage.read('demo/SKILL.md');
    const counts = await fsRequestsOf(() => assert.rejects(storage.read('demo/references/big.md', { maxBytes: 10 }), /10/));
    assert.ok(total(counts) <= 2, `a refused read made ${JSON.stringify(counts)}`);
    // Every descriptor it opened was closed, refused or not: Linux names each open one in
    // /proc/self/fd; none may still name the file read (other code's descriptors come and go).
    const stillOpen = () => {
      if (!existsSync('/proc/self/fd')) return [];
      return readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`).endsWith('/demo/references/big.md');
        } catch {
          return false; // closed between the listing and the look
        }
      });
    };
    for (let i = 0; i < 50; i++) {
      await assert.rejects(storage.read('demo/references/big.md', { maxBytes: 10 }));
      await storage.read('demo/references/big.md');
    }
    assert.deepEqual(stillOpen(), []);
  });

  test('a catalog read with cacheBytes 0 makes the same two, and is verified', async () => {
    const catalog = await SkillCatalog.load(fsStorage(tmp.dir, { workerThreads: false }), { cacheBytes: 0 });
    try {
      const uri = catalog.entries[0]!.uri.replace(/SKILL\.md$/, 'references/big.md');
      await catalog.read(uri);
      const counts = await fsRequestsOf(() => catalog.read(uri));
      assert.ok(total(counts) <= 2, `a cacheBytes 0 read made ${JSON.stringify(counts)}`);
    } finally {
      catalog.close();
    }
  });

  test('a folder to list is still checked and closed', async () => {
    const storage = fsStorage(tmp.dir, { workerThreads: false });
    const names = (await storage.list('demo/references')).map((e) => e.name).sort();
    assert.deepEqual(names, ['big.md', 'empty.md']);
  });
});
