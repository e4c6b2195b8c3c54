import { defineConfig } from 'tsup';

export default defineConfig([
  { entry: { index: 'src/index.ts' }, format: ['esm', 'cjs'], dts: true, clean: true, target: 'node20', sourcemap: true },
  { entry: { bin: 'src/bin.ts' }, format: ['esm'], target: 'node20', sourcemap: true, banner: { js: '#!/usr/bin/env node' } },
]);
