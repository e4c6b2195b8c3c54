import { defineConfig, type Options } from 'tsup';

/** The build every package shares: ESM and CommonJS with type declarations, for Node.js 22. */
export const library = (entry: Record<string, string>): Options => ({
  entry,
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  target: 'node22',
  sourcemap: true,
});

export const packageConfig = (entry: Record<string, string> = { index: 'src/index.ts' }) => defineConfig(library(entry));
