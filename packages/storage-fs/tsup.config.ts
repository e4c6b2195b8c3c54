import { defineConfig } from 'tsup';
import { library } from '../../tsup.package.js';

export default defineConfig([
  // `shims` gives the CommonJS build the `import.meta.url` that finds the worker file beside it.
  // The worker's files are left to the build below.
  { ...library({ index: 'src/index.ts' }), shims: true, clean: ['!tree-worker.js', '!tree-worker.js.map'] },
  // The listing worker is its own file, which a thread loads by path (as ES module from either
  // build). The storage kit is bundled into it: a thread that starts then reads one small file,
  // not the kit's package and modules.
  { ...library({ 'tree-worker': 'src/tree/worker.ts' }), format: ['esm'], dts: false, clean: false, noExternal: ['@skillmount/core/storage-kit'] },
]);
