#!/usr/bin/env node
// Runs the whole suite (scripts/test.mjs) on every Node.js major we support: the machine's own Node
// first, then each other major from the `node` package on the npm registry, installed into a cache
// folder outside the repository ($SKILLMOUNT_NODE_CACHE, default ~/.cache/skillmount/node; the
// installs start at once and download while the first run goes). Build first
// (`pnpm test:all-nodes` does). Arguments after the options are test filters, as for test.mjs.
//   --jobs N   how many of the other versions run at once (default 1: the suite alone uses both
//              cores of a 2-core machine, and its time-bounded tests want them)
//   --only M   only Node.js major M (repeatable): for a CI service that runs each major in its own
//              job on that major's Node, where `--only <its major>` runs the suite once, on it
// Ends with one line per version and a total "N passed, N failed" line; exits non-zero if any failed.
import { execFile, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { ensureNode, envFor, major, NODES, releaseOf } from './node-install.mjs';

const root = path.resolve(import.meta.dirname, '..');
const logs = path.join(root, '.tmp/node-matrix');
const run = promisify(execFile);

// `pnpm test:all-nodes -- x` passes the `--` through; it is not an argument.
const args = process.argv.slice(2).filter((a) => a !== '--');
let jobs = 1;
const jobsAt = args.indexOf('--jobs');
if (jobsAt !== -1) {
  jobs = Number(args[jobsAt + 1]);
  if (!Number.isInteger(jobs) || jobs < 1) {
    console.error(`test-node-matrix: --jobs wants a positive whole number, got "${args[jobsAt + 1]}"`);
    process.exit(2);
  }
  args.splice(jobsAt, 2);
}
const only = [];
for (let at = args.indexOf('--only'); at !== -1; at = args.indexOf('--only')) {
  try {
    only.push(major(releaseOf(args[at + 1], '--only')));
  } catch (error) {
    console.error(`test-node-matrix: ${error.message}`);
    process.exit(2);
  }
  args.splice(at, 2);
}
const chosen = (version) => only.length === 0 || only.includes(major(version));

/** Run the suite with `node`, its output to the terminal (`live`) or kept for later, and to a log. */
async function runSuite(node, live) {
  const version = (await run(node, ['--version'], { timeout: 30_000 })).stdout.trim();
  mkdirSync(logs, { recursive: true });
  const log = createWriteStream(path.join(logs, `node-${version}.log`));
  const started = Date.now();
  const env = envFor(node);
  const child = spawn(node, [path.join(root, 'scripts/test.mjs'), ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const chunks = [];
  const keep = (stream) => (chunk) => {
    chunks.push(chunk);
    log.write(chunk);
    if (live) stream.write(chunk);
  };
  child.stdout.on('data', keep(process.stdout));
  child.stderr.on('data', keep(process.stderr));
  const [code] = await new Promise((resolve) => child.on('close', (...end) => resolve(end)));
  log.end();
  const output = Buffer.concat(chunks).toString('utf8');
  const count = (name) => Number(output.match(new RegExp(`^ℹ ${name} (\\d+)$`, 'm'))?.[1] ?? 0);
  return {
    version,
    code,
    output,
    seconds: Math.round((Date.now() - started) / 1000),
    pass: count('pass'),
    fail: count('fail'),
    skipped: count('skipped'),
    cancelled: count('cancelled'),
  };
}

const own = process.version;
const others = NODES.filter((version) => major(version) !== major(own) && chosen(version));
const installs = new Map(others.map((version) => [version, ensureNode(version)]));
for (const install of installs.values()) install.catch(() => undefined);

const results = [];
if (chosen(own)) {
  console.log(`== Node.js ${own} (this machine's) ==`);
  results.push(await runSuite(process.execPath, true));
}

const queue = [...others];
const worker = async () => {
  for (let version = queue.shift(); version; version = queue.shift()) {
    let node;
    try {
      node = await installs.get(version);
    } catch (error) {
      console.log(`\n== Node.js v${version} ==\n${error.message}`);
      results.push({ version: `v${version}`, code: 1, seconds: 0, pass: 0, fail: 0, skipped: 0, cancelled: 0, problem: 'not installed' });
      continue;
    }
    const live = jobs === 1;
    if (live) console.log(`\n== Node.js v${version} ==`);
    const result = await runSuite(node, live);
    if (!live) console.log(`\n== Node.js ${result.version} ==\n${result.output}`);
    results.push(result);
  }
};
await Promise.all(Array.from({ length: Math.min(jobs, others.length) }, worker));

console.log('\nNode.js versions:');
for (const r of results.sort((a, b) => major(a.version) - major(b.version))) {
  const verdict = r.problem ?? (r.code === 0 ? 'ok' : `FAILED (exit ${r.code})`);
  console.log(
    `  ${r.version.padEnd(9)} ${verdict.padEnd(16)} ${r.pass} passed, ${r.fail} failed, ${r.skipped} skipped, ${r.cancelled} cancelled, ${r.seconds} s`,
  );
}
console.log(`logs: ${path.relative(root, logs)}/`);
const total = (key) => results.reduce((n, r) => n + r[key], 0);
console.log(`${total('pass')} passed, ${total('fail') + total('cancelled')} failed, ${total('skipped')} skipped`);
process.exit(results.every((r) => r.code === 0) ? 0 : 1);
