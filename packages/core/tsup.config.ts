import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { defineConfig } from 'tsup';
import { library } from '../../tsup.package.js';

const dist = path.resolve(import.meta.dirname, 'dist');

/**
 * The CommonJS maps of a split build name their own file by its absolute path (the build
 * machine's folders, which would ship), as a source and as `file`: make both relative, as every
 * other source is.
 */
async function relativeMapSources(): Promise<void> {
  for (const name of (await readdir(dist)).filter((n) => n.endsWith('.cjs.map'))) {
    const file = path.join(dist, name);
    const map = JSON.parse(await readFile(file, 'utf8')) as { sources: string[]; file?: string };
    const relative = (s: string) => (path.isAbsolute(s) ? path.relative(dist, s).split(path.sep).join('/') : s);
    map.sources = map.sources.map(relative);
    if (map.file !== undefined) map.file = relative(map.file);
    await writeFile(file, JSON.stringify(map));
  }
}

// Split for CommonJS too: the entries share one copy of what they all hold (StorageError above all),
// so an error a storage makes with the kit is the root's StorageError in either module system.
export default defineConfig({
  ...library({
    index: 'src/index.ts',
    client: 'src/client/index.ts',
    catalog: 'src/catalog/index.ts',
    'storage-kit': 'src/storage-kit/index.ts',
    adapter: 'src/adapter/index.ts',
    'sdk-v2': 'src/sdk-v2/index.ts',
    telemetry: 'src/telemetry/index.ts',
  }),
  splitting: true,
  onSuccess: relativeMapSources,
});
