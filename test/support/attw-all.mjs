// `attw <tarball> --profile strict --format ascii --no-color --no-definitely-typed` for every
// tarball given, in one process: the CLI's own steps (its core's analysis with the CLI's options,
// its exit code and its ASCII report, from the CLI's exported internals), without loading
// TypeScript once per tarball. Prints one JSON line: tarball → { ok, report }.
// Usage: node --import test/support/no-fetch.mjs test/support/attw-all.mjs <tarball>...
import { readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '../..');
// From the CLI's real folder, where its own core is found.
const cli = createRequire(realpathSync(path.join(root, 'node_modules/@arethetypeswrong/cli/package.json')));
const load = (specifier) => import(pathToFileURL(cli.resolve(specifier)).href);
const core = await load('@arethetypeswrong/core');
const { getExitCode } = await load('@arethetypeswrong/cli/internal/getExitCode');
const render = await load('@arethetypeswrong/cli/internal/render');

// The CLI's options for those flags: its defaults, with the strict profile's (no resolution ignored).
process.env.FORCE_COLOR = '0';
const opts = { format: 'ascii', color: false, summary: true, emoji: true, ignoreRules: [], ignoreResolutions: [], profile: 'strict', definitelyTyped: false };

const verdicts = {};
for (const tarball of process.argv.slice(2)) {
  const analysis = await core.checkPackage(core.createPackageFromTarballData(new Uint8Array(readFileSync(tarball))), {});
  verdicts[tarball] = analysis.types
    ? { ok: getExitCode(analysis, opts) === 0, report: await render.typed(analysis, opts) }
    : { ok: true, report: render.untyped(analysis) };
}
console.log(JSON.stringify(verdicts));
