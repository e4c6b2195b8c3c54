import { defineConfig } from 'tsup';
import { library } from '../../tsup.package.js';

// Split for CommonJS too: the entries share one copy of what they all hold (StorageError above all),
// so an error a storage makes with the kit is the root's StorageError in either module system.
export default defineConfig({
  ...library({
    index: 'src/index.ts',
    client: 'src/client/index.ts',
    'storage-kit': 'src/storage-kit/index.ts',
    adapter: 'src/adapter/index.ts',
    'sdk-v2': 'src/sdk-v2/index.ts',
  }),
  splitting: true,
});
