#!/usr/bin/env node
// Runs the suite (scripts/test.mjs) once per MCP TypeScript SDK v1 release we support, each time
// with that release in place of the workspace's `@modelcontextprotocol/sdk`. Build first
// (`pnpm test:sdk-matrix` does).
//   node scripts/test-sdk-matrix.mjs [--sdk 1.24.3 ...] [--node 22] [filter ...]
// Without --sdk it runs the oldest and the newest supported release (SDK_VERSIONS below). With
// --node it runs the suite on that Node.js major, installed as test-node-matrix.mjs installs it
// (scripts/node-install.mjs), instead of this script's own. Filters are test file filters, as for test.mjs.
//
// How: each release is installed with npm into .tmp/sdk/<version> (once; kept for later runs).
// For a run, every `node_modules/@modelcontextprotocol/sdk` link of the workspace (each
// importer's, and those inside node_modules/.pnpm) is pointed at that one copy, so every package
// and every test file loads the same SDK; the lockfile and the committed tree are not touched.
// The original links are written to .tmp/sdk/links.json before the first change and put back
// after the run, on failure, on SIGINT/SIGTERM, and at the start of the next run if this one was
// killed outright. `--restore` only puts them back.
// Ends with one line per release and a total "N passed, N failed" line; exits non-zero if any failed.
import { execFile, spawn } from 'node:child_process';
import {
  createWriteStream,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { ensureNode, envFor, releaseOf } from './node-install.mjs';

/** The oldest and the newest SDK v1 releases we support; the README's table says the same. */
const SDK_VERSIONS = ['1.29.0', '1.32.2'];
const SDK = '@modelcontextprotocol/sdk';

const root = path.resolve(import.meta.dirname, '..');
const store = path.join(root, '.tmp/sdk');
const stateFile = path.join(store, 'links.json');
const logs = path.join(root, '.tmp/sdk-matrix');
const run = promisify(execFile);

// `pnpm test:sdk-matrix -- --sdk x` passes the `--` through; it is not an argument.
const args = process.argv.slice(2).filter((a) => a !== '--');
const versions = [];
for (let at = args.indexOf('--sdk'); at !== -1; at = args.indexOf('--sdk')) {
  const version = args[at + 1];
  if (!/^1\.\d+\.\d+$/.test(version ?? '')) {
    console.error(`test-sdk-matrix: --sdk wants an exact SDK v1 release such as 1.24.3, got "${version ?? ''}"`);
    process.exit(2);
  }
  versions.push(version);
  args.splice(at, 2);
}
let node = process.execPath;
const nodeAt = args.indexOf('--node');
if (nodeAt !== -1) {
  try {
    node = await ensureNode(releaseOf(args[nodeAt + 1], '--node'));
  } catch (error) {
    console.error(`test-sdk-matrix: ${error.message}`);
    process.exit(2);
  }
  args.splice(nodeAt, 2);
}
const nodeVersion = node === process.execPath ? process.version : (await run(node, ['--version'], { timeout: 30_000 })).stdout.trim();
const restoreOnly = args.includes('--restore');
const filters = args.filter((a) => a !== '--restore');
if (versions.length === 0) versions.push(...SDK_VERSIONS);

// npm runs on its own; pnpm's npm_* settings are for the workspace, not these installs.
const npmEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm_|pnpm_)/i.test(key)));

/** Every `node_modules/@modelcontextprotocol/sdk` link of the workspace: the importers' and the virtual store's. */
function sdkLinks() {
  const globs = [...readFileSync(path.join(root, 'pnpm-workspace.yaml'), 'utf8').matchAll(/^\s*-\s*['"]?([^'"\s#]+)/gm)].map((m) => m[1]);
  const importers = ['.'];
  for (const glob of globs) {
    if (!glob.endsWith('/*')) importers.push(glob);
    else if (existsSync(path.join(root, glob.slice(0, -2))))
      for (const name of readdirSync(path.join(root, glob.slice(0, -2)))) importers.push(path.join(glob.slice(0, -2), name));
  }
  const links = importers.map((dir) => path.join(root, dir, 'node_modules', SDK));
  const virtual = path.join(root, 'node_modules/.pnpm');
  if (existsSync(virtual)) for (const name of readdirSync(virtual)) links.push(path.join(virtual, name, 'node_modules', SDK));
  return links.filter((link) => {
    try {
      return lstatSync(link).isSymbolicLink();
    } catch {
      return false;
    }
  });
}

/** Replace the link at `link` with one to `target`, in one rename, so it is never missing. */
function relink(link, target) {
  const next = `${link}.skillmount-next`;
  rmSync(next, { force: true });
  symlinkSync(target, next);
  renameSync(next, link);
}

/** Put back the links a run changed (from the state file), then forget them. */
function restore() {
  if (!existsSync(stateFile)) return;
  const { links } = JSON.parse(readFileSync(stateFile, 'utf8'));
  for (const { link, target } of links) relink(link, target);
  rmSync(stateFile);
}

/** Point every SDK link at `dir`; the originals go to the state file first. */
function useSdk(dir) {
  const links = sdkLinks().map((link) => ({ link, target: readlinkSync(link) }));
  if (links.length === 0) throw new Error(`no ${SDK} links under ${root}: run "pnpm install" first`);
  writeFileSync(stateFile, JSON.stringify({ links }, null, 2));
  for (const { link } of links) relink(link, path.relative(path.dirname(link), dir));
  for (const { link } of links) {
    const seen = JSON.parse(readFileSync(path.join(link, 'package.json'), 'utf8')).version;
    const wanted = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
    if (seen !== wanted) throw new Error(`${link} shows ${SDK} ${seen}, not ${wanted}`);
  }
  // What the packages really load, through Node's own resolution.
  const loaded = createRequire(path.join(root, 'packages/core/package.json')).resolve(`${SDK}/server/mcp.js`);
  if (!loaded.startsWith(dir + path.sep)) throw new Error(`packages/core still resolves ${SDK} to ${loaded}`);
}

/** Install SDK `version` into the store (once) and return its package folder. */
async function ensureSdk(version) {
  const dir = path.join(store, version);
  const sdk = path.join(dir, 'node_modules', SDK);
  const installed = () => existsSync(path.join(sdk, 'package.json')) && JSON.parse(readFileSync(path.join(sdk, 'package.json'), 'utf8')).version === version;
  if (installed()) return sdk;
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ private: true, dependencies: { [SDK]: version } }, null, 2));
  try {
    await run('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error'], {
      cwd: dir,
      env: npmEnv,
      timeout: 900_000,
      maxBuffer: 16 << 20,
    });
  } catch (error) {
    throw new Error(`installing ${SDK}@${version} into ${dir} failed; run "npm install" there to see why\n${error.stderr || error.message}`);
  }
  if (!installed()) throw new Error(`${sdk} is not ${SDK} ${version} after installing it; delete ${dir} and run again`);
  return sdk;
}

/** Run the suite with the links as they are now, its output to the terminal and to a log. */
async function runSuite(version) {
  mkdirSync(logs, { recursive: true });
  const log = createWriteStream(path.join(logs, `sdk-${version}.log`));
  const started = Date.now();
  // Its own process group, so a stop ends the test runner's children too (test.mjs waits in spawnSync).
  const child = spawn(node, [path.join(root, 'scripts/test.mjs'), ...filters], {
    cwd: root,
    env: envFor(node),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  current = child;
  const chunks = [];
  const keep = (stream) => (chunk) => {
    chunks.push(chunk);
    log.write(chunk);
    stream.write(chunk);
  };
  child.stdout.on('data', keep(process.stdout));
  child.stderr.on('data', keep(process.stderr));
  const [code, signal] = await new Promise((resolve) => child.on('close', (...end) => resolve(end)));
  current = undefined;
  log.end();
  const output = Buffer.concat(chunks).toString('utf8');
  const count = (name) => Number(output.match(new RegExp(`^ℹ ${name} (\\d+)$`, 'm'))?.[1] ?? 0);
  return {
    version,
    code: code ?? (signal ? 1 : 0),
    seconds: Math.round((Date.now() - started) / 1000),
    pass: count('pass'),
    fail: count('fail'),
    skipped: count('skipped'),
    cancelled: count('cancelled'),
  };
}

let current;
const stop = (signal) => {
  try {
    if (current) process.kill(-current.pid, signal);
  } catch {
    // already gone
  }
  try {
    restore();
  } finally {
    process.exit(signal === 'SIGINT' ? 130 : 143);
  }
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));

mkdirSync(store, { recursive: true });
if (existsSync(stateFile)) console.log(`test-sdk-matrix: putting back the ${SDK} links an earlier run left changed`);
restore();
if (restoreOnly) process.exit(0);

const workspace = JSON.parse(readFileSync(path.join(root, 'node_modules', SDK, 'package.json'), 'utf8')).version;
const results = [];
for (const version of versions) {
  console.log(`\n== ${SDK} ${version} (the workspace has ${workspace}), Node.js ${nodeVersion} ==`);
  try {
    const dir = await ensureSdk(version);
    useSdk(dir);
    results.push(await runSuite(version));
  } catch (error) {
    console.log(error.message);
    results.push({ version, code: 1, seconds: 0, pass: 0, fail: 0, skipped: 0, cancelled: 0, problem: 'not run' });
  } finally {
    restore();
  }
}

console.log(`\n${SDK} versions:`);
for (const r of results) {
  const verdict = r.problem ?? (r.code === 0 ? 'ok' : `FAILED (exit ${r.code})`);
  console.log(
    `  ${r.version.padEnd(8)} ${verdict.padEnd(16)} ${r.pass} passed, ${r.fail} failed, ${r.skipped} skipped, ${r.cancelled} cancelled, ${r.seconds} s`,
  );
}
console.log(`logs: ${path.relative(root, logs)}/`);
const total = (key) => results.reduce((n, r) => n + r[key], 0);
console.log(`${total('pass')} passed, ${total('fail') + total('cancelled')} failed, ${total('skipped')} skipped`);
process.exit(results.every((r) => r.code === 0) ? 0 : 1);
