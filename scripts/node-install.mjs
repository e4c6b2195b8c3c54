// Node.js releases from the npm registry's `node` package, installed into a cache folder outside
// the repository ($SKILLMOUNT_NODE_CACHE, default ~/.cache/skillmount/node), for the scripts that
// run the suite on another Node.js than the machine's (test-node-matrix.mjs, test-sdk-matrix.mjs).
// Run directly, `node scripts/node-install.mjs <major>` prints the binary of that supported major:
// the running one when it is that major, else the release below, installed once.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

/** The release tested for each supported Node.js major. */
export const NODES = ['22.23.3', '24.21.0', '26.10.0'];

export const major = (version) => Number(version.replace(/^v/, '').split('.')[0]);

/** The release of `NODES` for major `wanted`, or an error that lists the majors there are. */
export function releaseOf(wanted, option) {
  const version = NODES.find((v) => major(v) === Number(wanted));
  if (!version) throw new Error(`${option} wants one of the majors ${NODES.map(major).join(', ')}, got "${wanted ?? ''}"`);
  return version;
}

const cache = process.env.SKILLMOUNT_NODE_CACHE ?? path.join(homedir(), '.cache/skillmount/node');
const run = promisify(execFile);
// npm runs on its own Node; pnpm's npm_* settings are for the workspace, not these installs.
const npmEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm_|pnpm_)/i.test(key)));

/** Install Node `version` from the npm registry into the cache (once) and return its binary. */
export async function ensureNode(version) {
  const dir = path.join(cache, version);
  const bin = path.join(dir, 'node_modules/node/bin/node');
  const installed = async () => existsSync(bin) && (await run(bin, ['--version'], { timeout: 30_000 })).stdout.trim() === `v${version}`;
  if (await installed()) return bin;
  mkdirSync(dir, { recursive: true });
  // The package's preinstall script fetches the binary package for this platform from the registry.
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ private: true, dependencies: { node: version }, allowScripts: { node: true } }, null, 2));
  try {
    await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, env: npmEnv, timeout: 900_000, maxBuffer: 16 << 20 });
  } catch (error) {
    throw new Error(`installing Node ${version} (the "node" package) into ${dir} failed; run "npm install" there to see why\n${error.stderr || error.message}`);
  }
  if (!(await installed())) throw new Error(`${bin} is not Node ${version} after installing it; delete ${dir} and run again`);
  return bin;
}

/** `env` with `node`'s folder first on PATH, so what the suite spawns by name runs on the same Node. */
export function envFor(node, env = process.env) {
  return { ...env, PATH: `${path.dirname(node)}${path.delimiter}${env.PATH ?? ''}` };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const version = releaseOf(process.argv[2], 'node-install.mjs');
    console.log(major(process.version) === major(version) ? process.execPath : await ensureNode(version));
  } catch (error) {
    console.error(`node-install.mjs: ${error.message}`);
    process.exit(1);
  }
}
