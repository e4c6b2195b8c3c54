import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { memoryStorage } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import { runStorageBattery } from '../support/storage-battery.js';

runStorageBattery('memoryStorage', { open: async (files) => memoryStorage(files) });

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
  cleanup: async () => {
    await Promise.all(roots.map((r) => rm(r, { recursive: true, force: true })));
  },
});
