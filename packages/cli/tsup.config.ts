import { defineConfig } from 'tsup';
import { library } from '../../tsup.package.js';

export default defineConfig([
  library({ index: 'src/index.ts' }),
  { entry: { bin: 'src/bin.ts' }, format: ['esm'], target: 'node22', sourcemap: true, banner: { js: '#!/usr/bin/env node' } },
]);
