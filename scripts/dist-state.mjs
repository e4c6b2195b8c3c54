// Whether a package's dist/ holds a build of its current sources, and of which kind. Sources are
// the files of src/, the package's package.json, tsconfig.json and tsup.config.ts, and the shared
// tsup.package.ts; a file newer than the oldest file of dist/ (or no dist/ at all) means stale.
// `pnpm demo` may leave a quick build (ESM only, no type declarations, scripts/demo-build.mjs),
// marked by QUICK_BUILD_MARK in dist/: enough to run the CLI, not for the tests or a release.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');
export const QUICK_BUILD_MARK = 'QUICK-BUILD.txt';

/** Every file under `dir`, recursively, as [path, mtimeMs]. */
function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (entry.isFile()) yield [full, statSync(full).mtimeMs];
  }
}

const mtime = (file) => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
};

/** The package folders under packages/ (their folder names). */
export const packageDirs = () => readdirSync(path.join(root, 'packages')).filter((name) => statSync(path.join(root, 'packages', name)).isDirectory());

/** True when packages/<pkg>/dist/ holds the demo's quick build. */
export const quickBuilt = (pkg) => existsSync(path.join(root, 'packages', pkg, 'dist', QUICK_BUILD_MARK));

/** Why packages/<pkg>/dist/ is older than its sources ("has no dist/", …), or undefined when it is not. */
export function staleness(pkg) {
  const dir = path.join(root, 'packages', pkg);
  let built = Infinity;
  try {
    for (const [, time] of files(path.join(dir, 'dist'))) built = Math.min(built, time);
  } catch {
    return 'has no dist/';
  }
  if (built === Infinity) return 'has an empty dist/';
  const sources = [...files(path.join(dir, 'src'))];
  for (const name of ['package.json', 'tsconfig.json', 'tsup.config.ts']) sources.push([path.join(dir, name), mtime(path.join(dir, name))]);
  sources.push([path.join(root, 'tsup.package.ts'), mtime(path.join(root, 'tsup.package.ts'))]);
  const newer = sources.find(([, time]) => time > built);
  return newer ? `has ${path.relative(root, newer[0])} newer than its dist/` : undefined;
}
