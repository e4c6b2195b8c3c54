import { defineConfig } from 'tsup';
import { library } from '../../tsup.package.js';

// The listing worker is its own entry: a thread loads it by file, beside index.js. `shims` gives the
// CommonJS build the `import.meta.url` that finds it.
export default defineConfig({ ...library({ index: 'src/index.ts', 'tree-worker': 'src/tree/worker.ts' }), shims: true });
