// The Node.js options that run this repository's TypeScript files (tests, benchmarks, scripts):
// Node's own type stripping with scripts/typescript-hooks.mjs where this Node.js has both (22.18
// and later, 24, 26), which starts a process in about half the CPU of a transpiler; tsx elsewhere.
import module from 'node:module';

const stripping = process.features.typescript === 'strip' && typeof module.registerHooks === 'function';

/** `--import …` for a Node.js child process that runs a `.ts` file. */
export const TYPESCRIPT_IMPORT = Object.freeze(['--import', stripping ? new URL('./typescript-hooks.mjs', import.meta.url).href : 'tsx']);
