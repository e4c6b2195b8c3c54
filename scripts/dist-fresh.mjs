// Exits 0 when every package's dist/ was built after its sources last changed, 1 (naming the
// first stale package) otherwise: `pnpm bench` runs the build only then. Sources are the files of
// src/, the package's package.json, tsconfig.json and tsup.config.ts, and the shared
// tsup.package.ts; a file newer than the oldest file of dist/ (or no dist/ at all) means stale.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

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

function staleness(pkg) {
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

for (const pkg of readdirSync(path.join(root, 'packages'))) {
  if (!statSync(path.join(root, 'packages', pkg)).isDirectory()) continue;
  const problem = staleness(pkg);
  if (problem) {
    console.error(`packages/${pkg} ${problem}: building`);
    process.exit(1);
  }
}
console.error('every package dist/ is up to date: not building (run `pnpm run build` to force it)');
