import { defineConfig } from 'tsup';
import { library } from '../../tsup.package.js';

export default defineConfig([
  // `shims` gives the CommonJS build the `import.meta.url` that finds the parsing thread's file beside it.
  { ...library({ index: 'src/index.ts' }), shims: true, clean: ['!manifest-worker.js', '!manifest-worker.js.map'] },
  // The manifest-parsing thread is its own file, which a thread loads by path (as ES module from
  // either build). zod is bundled into it: a thread that starts then reads one small file, not zod's many.
  { ...library({ 'manifest-worker': 'src/manifest-worker.ts' }), format: ['esm'], dts: false, clean: false, noExternal: ['zod', 'zod/mini'] },
]);
