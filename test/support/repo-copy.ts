// A copy of the repository's parts that `pnpm demo` reads (scripts/, examples/, the packages with
// their linked node_modules), with the installed node_modules linked rather than copied: a
// checkout of its own for a test to build and serve in without touching the repository's dist/.
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Copy into a new temporary folder, keeping file times (what is fresh here is fresh there) and
 * the packages' relative links. `dist: false` leaves out every package's dist/, as in a fresh clone.
 * Returns the folder and a function that removes it.
 */
export function copyRepo(options: { dist: boolean }): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'skillmount-checkout-'));
  const copy = { recursive: true, preserveTimestamps: true, verbatimSymlinks: true };
  for (const name of ['package.json', 'tsconfig.base.json', 'tsup.package.ts', 'scripts', 'examples'])
    cpSync(path.join(root, name), path.join(dir, name), copy);
  const packages = path.join(root, 'packages');
  cpSync(packages, path.join(dir, 'packages'), {
    ...copy,
    filter: (source) => options.dist || path.basename(source) !== 'dist' || path.dirname(path.dirname(source)) !== packages,
  });
  symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
