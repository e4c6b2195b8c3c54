import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { memoryStorage, type MemoryStorage } from '@skillmount/core';
import { fsStorage, type FsStorage } from '@skillmount/storage-fs';
import { runStorageBattery } from '../support/storage-battery.js';

runStorageBattery('memoryStorage', {
  open: async (files) => memoryStorage(files),
  rewrite: async (storage, rel, bytes) => (storage as MemoryStorage).write(rel, bytes),
  optional: { listAll: false, inMemory: true, watch: true, close: false, treeToken: true },
});

const roots: string[] = [];
runStorageBattery('fsStorage', {
  async open(files) {
    const root = await mkdtemp(path.join(tmpdir(), 'skillmount-battery-'));
    roots.push(root);
    for (const [rel, bytes] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
      await writeFile(path.join(root, rel), bytes);
    }
    return fsStorage(root);
  },
  rewrite: async (storage, rel, bytes) => writeFile(path.join((storage as FsStorage).root, rel), bytes),
  optional: { listAll: true, inMemory: false, watch: true, close: false, treeToken: 'sometimes', listAllBatches: true },
  listed: { digests: true, contents: true },
  cleanup: async () => {
    await Promise.all(roots.map((r) => rm(r, { recursive: true, force: true })));
  },
});
