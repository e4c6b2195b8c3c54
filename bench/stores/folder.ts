import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fsStorage } from '@skillmount/storage-fs';
import { fileBytes, type CorpusFile, type CorpusSize } from '../corpus.js';
import { mapLimit } from '../measure.js';
import type { SeededStore, StoreKind } from './store.js';

async function writeFiles(dir: string, size: CorpusSize, files: readonly CorpusFile[], version: number): Promise<void> {
  await mapLimit(files, 16, async (file) => {
    const full = path.join(dir, ...file.path.split('/'));
    await mkdir(path.dirname(full), { recursive: true });
    await writeFile(full, fileBytes(size, file.path, version));
  });
}

// A folder storage trusts a file's token once its times are 3 s older than the listing that read it.
const SETTLE_MS = 3_100;

/** Corpora as folders under the system's temporary folder. */
export function folderStores(): StoreKind {
  return {
    kind: 'folder',
    async seed(size, files) {
      const dir = await mkdtemp(path.join(tmpdir(), 'skillmount-bench-'));
      await writeFiles(dir, size, files, 0);
      let writtenAt = Date.now();
      const store: SeededStore = {
        kind: 'folder',
        size,
        files,
        dir,
        listingReadsBodies: true,
        served: { folder: dir },
        adapter: () => fsStorage(dir),
        rewrite: async (changed, version) => {
          await writeFiles(dir, size, changed, version);
          writtenAt = Date.now();
        },
        settled: () => new Promise((resolve) => setTimeout(resolve, Math.max(0, writtenAt + SETTLE_MS - Date.now()))),
        release: async () => {},
        remove: () => rm(dir, { recursive: true, force: true }),
      };
      return store;
    },
    async stop() {},
  };
}
