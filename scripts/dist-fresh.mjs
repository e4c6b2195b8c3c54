// Exits 0 when every package's dist/ is the full build of its current sources, 1 (naming the
// first package that is not) otherwise: `pnpm bench` runs the build only then. A dist/ older than
// its sources is stale (scripts/dist-state.mjs says when), and so is the quick build `pnpm demo`
// leaves, which lacks the CommonJS files and the type declarations.
import { packageDirs, quickBuilt, staleness } from './dist-state.mjs';

for (const pkg of packageDirs()) {
  const problem = staleness(pkg) ?? (quickBuilt(pkg) ? "holds the demo's quick build (ESM only, no type declarations)" : undefined);
  if (problem) {
    console.error(`packages/${pkg} ${problem}: building`);
    process.exit(1);
  }
}
console.error('every package dist/ is up to date: not building (run `pnpm run build` to force it)');
