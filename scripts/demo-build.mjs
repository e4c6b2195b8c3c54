// The demo's quick build: the CLI and the packages it depends on, each with its own tsup config
// but ESM only and without type declarations (those take most of a full build's time), into the
// packages' dist/ folders, marked as quick (scripts/dist-state.mjs) so that the tests, the
// benchmarks and a release know to run the full build (`pnpm build`) first. A package whose dist/
// already holds a build of its current sources, full or quick, is left as it is.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { QUICK_BUILD_MARK, packageDirs, root, staleness } from './dist-state.mjs';

const manifest = (pkg) => JSON.parse(readFileSync(path.join(root, 'packages', pkg, 'package.json'), 'utf8'));

/** The CLI's folder and those of the workspace packages it depends on. */
export function cliPackages() {
  const byName = new Map(packageDirs().map((pkg) => [manifest(pkg).name, pkg]));
  const cli = byName.get('skillmount');
  const deps = Object.entries(manifest(cli).dependencies ?? {}).filter(([, range]) => range.startsWith('workspace:'));
  return [cli, ...deps.map(([name]) => byName.get(name))];
}

/** Those of the CLI's packages whose dist/ is not a build of their current sources. */
export const staleCliPackages = () => cliPackages().filter((pkg) => staleness(pkg) !== undefined);

/** Build the packages (folder names); throws what tsup threw, naming the package. */
export async function quickBuild(stale) {
  // tsup reads a package's tsup.config.ts and its entries relative to the working directory.
  const { build } = await import('tsup');
  const cwd = process.cwd();
  try {
    for (const pkg of stale) {
      const dir = path.join(root, 'packages', pkg);
      process.chdir(dir);
      try {
        // esbuild keeps the working directory its service started in: tell it each package's.
        const esbuildOptions = (options) => {
          options.absWorkingDir = dir;
        };
        await build({ format: ['esm'], dts: false, silent: true, esbuildOptions });
      } catch (error) {
        throw new Error(`the quick build of packages/${pkg} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
      writeFileSync(
        path.join('dist', QUICK_BUILD_MARK),
        'Built by `pnpm demo`: ESM only, without type declarations. `pnpm build` replaces it with the full build.\n',
      );
    }
  } finally {
    process.chdir(cwd);
  }
}
