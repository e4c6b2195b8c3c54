#!/usr/bin/env node
// The fault battery: proof that the suite still catches bugs this project fixed before. Each
// test/faults/battery/NN-name.patch puts one past bug back into packages/*/src; this script applies
// it in a scratch copy of the repository, rebuilds the packages its header names, runs the test
// files that must catch it and checks that one of the named tests is among the failures.
// Usage: node scripts/fault-battery.mjs [--keep] [--clean] [NN ...]
//   --keep   leave the scratch copy (its path is printed) instead of removing it
//   --clean  run each patch's named test files WITHOUT the patch: they must pass, or the patch proves nothing
//   NN       only the patches whose file name starts with NN (e.g. 03 or 03-cursor)
// The environment passes through unchanged (DATABASE_URL, S3_ENDPOINT, …).
import { execFileSync, spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const batteryDir = path.join(root, 'test', 'faults', 'battery');
const PNPM = 'pnpm@10.34.9';
// Longer than any named test file takes on a loaded machine (the runner's own limit is 5 min a file).
const RUN_LIMIT_MS = 20 * 60_000;

const args = process.argv.slice(2);
const keep = args.includes('--keep');
const clean = args.includes('--clean');
const wanted = args.filter((a) => !a.startsWith('--'));

/** Each patch with its header: `# bug:`, `# fixed in:`, `# caught by: <file> › <test>` (one or more), `# build:`. */
function readPatches() {
  const names = readdirSync(batteryDir)
    .filter((n) => /^\d\d-.*\.patch$/.test(n))
    .sort();
  return names
    .filter((n) => wanted.length === 0 || wanted.some((w) => n.startsWith(w)))
    .map((name) => {
      const text = readFileSync(path.join(batteryDir, name), 'utf8');
      const header = text.split('\n').filter((l) => l.startsWith('# '));
      const field = (key) => header.filter((l) => l.startsWith(`# ${key}:`)).map((l) => l.slice(key.length + 3).trim());
      const caughtBy = field('caught by').map((v) => {
        const [file, test = ''] = v.split(' › ');
        return { file: file.trim(), test: test.trim() };
      });
      const build = field('build').flatMap((v) => v.split(/\s+/).filter(Boolean));
      return { name: name.replace(/\.patch$/, ''), file: path.join(batteryDir, name), caughtBy, build };
    });
}

/**
 * Runs a command, resolving to { status, out, timedOut } (stdout and stderr together); never throws.
 * A bug can make a test hang rather than fail (a quadratic scan blocks its event loop, so the
 * runner's own per-test limit never fires): past `timeoutMs` the command's process group is killed.
 */
function run(cmd, cmdArgs, cwd, timeoutMs = RUN_LIMIT_MS) {
  return new Promise((resolve) => {
    // Its own process group, so a timeout ends the test runner and every child it started.
    const child = spawn(cmd, cmdArgs, { cwd, env: process.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }, timeoutMs);
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve({ status: -1, out: `${out}\n${err.message}`, timedOut });
    });
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status: status ?? -1, out, timedOut });
    });
  });
}

/** The node_modules folders of the working tree outside the root one (packages, examples, test peers). */
function nestedNodeModules(dir = root, depth = 0, found = []) {
  if (depth > 3) return found;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === '.git') continue;
    const full = path.join(dir, entry.name);
    if (entry.name === 'node_modules') found.push(full);
    else nestedNodeModules(full, depth + 1, found);
  }
  return found;
}

/** One scratch copy: tracked files as they are in the working tree, node_modules hard-linked, dist/ copied. */
function makeScratch() {
  const scratch = mkdtempSync(path.join(tmpdir(), 'skillmount-faults-'));
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 })
    .split('\0')
    .filter(Boolean);
  for (const rel of tracked) {
    const from = path.join(root, rel);
    const to = path.join(scratch, rel);
    let stat;
    try {
      stat = lstatSync(from);
    } catch {
      continue; // deleted in the working tree: the copy matches the tree as it is
    }
    mkdirSync(path.dirname(to), { recursive: true });
    if (stat.isSymbolicLink()) symlinkSync(readlinkSync(from), to);
    else if (stat.isFile()) copyFileSync(from, to);
  }
  // Hard links cost no space and no time; pnpm's links inside are relative, so `cp -a` keeps them
  // pointing into the scratch copy (checked below), and a rebuilt dist/ there is what the tests import.
  for (const dir of [path.join(root, 'node_modules'), ...nestedNodeModules()]) {
    const to = path.join(scratch, path.relative(root, dir));
    mkdirSync(path.dirname(to), { recursive: true });
    execFileSync('cp', ['-al', dir, to]);
  }
  // dist/ is a real copy, not links: a build in the scratch copy must never write through to root's.
  for (const pkg of readdirSync(path.join(root, 'packages'))) {
    const dist = path.join(root, 'packages', pkg, 'dist');
    if (existsSync(dist)) execFileSync('cp', ['-a', dist, path.join(scratch, 'packages', pkg, 'dist')]);
  }
  for (const link of linksToCheck(scratch)) {
    const real = realpathSync(link);
    if (!real.startsWith(scratch + path.sep)) throw new Error(`${link} resolves to ${real}, outside the scratch copy`);
  }
  return scratch;
}

/** The workspace links the tests resolve packages through: each must land in the scratch copy. */
function linksToCheck(scratch) {
  const links = [];
  const scoped = (nm) => {
    const dir = path.join(nm, '@skillmount');
    if (existsSync(dir)) for (const n of readdirSync(dir)) links.push(path.join(dir, n));
  };
  scoped(path.join(scratch, 'node_modules'));
  if (existsSync(path.join(scratch, 'node_modules', 'skillmount'))) links.push(path.join(scratch, 'node_modules', 'skillmount'));
  for (const pkg of readdirSync(path.join(scratch, 'packages'))) scoped(path.join(scratch, 'packages', pkg, 'node_modules'));
  return links;
}

const packageName = (scratch, dir) => JSON.parse(readFileSync(path.join(scratch, 'packages', dir, 'package.json'), 'utf8')).name;

/** Builds the named package folders in the scratch copy; resolves to an error text or undefined. */
async function build(scratch, dirs) {
  if (dirs.length === 0) return undefined;
  const filters = dirs.flatMap((d) => ['--filter', packageName(scratch, d)]);
  const { status, out } = await run('npx', ['-y', PNPM, ...filters, 'run', 'build'], scratch);
  return status === 0 ? undefined : `build of ${dirs.join(' ')} failed: ${out.trim().split('\n').slice(-5).join(' | ')}`;
}

/** Runs the patch's test files; resolves to { status, failures: [{ file, test, line }] }. */
async function runTests(scratch, patch) {
  const files = [...new Set(patch.caughtBy.map((c) => c.file))];
  const { status, out, timedOut } = await run(process.execPath, ['scripts/test.mjs', ...files], scratch);
  if (timedOut) return { status, failures: [], timedOut };
  const failures = [];
  for (const line of out.split('\n')) {
    const m = /^# failed: (.+?) › (.*)$/.exec(line);
    if (m) failures.push({ file: m[1], test: m[2], line });
  }
  return { status, failures };
}

/** The first named (file, test) pair among the failures, or undefined. */
const matchFailure = (patch, failures) => patch.caughtBy.find((c) => failures.some((f) => f.file === c.file && f.test.includes(c.test)));

const git = (scratch, gitArgs) => run('git', ['apply', ...gitArgs], scratch);

const started = Date.now();
const patches = readPatches();
if (patches.length === 0) {
  console.error(`no patches in ${path.relative(root, batteryDir)} match ${wanted.join(' ')}`);
  process.exit(1);
}
const scratch = makeScratch();
console.log(`scratch copy: ${scratch}${clean ? ' (--clean: the named tests run without the patches)' : ''}`);

let passed = 0;
let failed = 0;
// Packages whose dist/ in the scratch copy was built from a patched source and must be built again.
const dirty = new Set();
const report = (ok, name, text) => {
  if (ok) passed++;
  else failed++;
  console.log(`${(ok ? (clean ? 'clean' : 'caught') : clean ? 'FAILS' : 'MISSED').padEnd(8)} ${name}  ${text}`);
};

try {
  // Every patch checked before anything is built, so a stale patch is reported, not met halfway.
  const applies = new Map();
  const cleanRuns = new Map();
  for (const p of patches) applies.set(p.name, (await git(scratch, ['--check', p.file])).status === 0);

  for (const p of patches) {
    if (clean) {
      // Nothing is applied, so nothing is rebuilt; patches naming the same files share one run.
      const files = [...new Set(p.caughtBy.map((c) => c.file))];
      const key = files.join('\0');
      if (!cleanRuns.has(key)) cleanRuns.set(key, runTests(scratch, p));
      const { status, failures, timedOut } = await cleanRuns.get(key);
      if (timedOut) report(false, p.name, `(did not end within ${RUN_LIMIT_MS / 60_000} min)`);
      else if (status === 0) report(true, p.name, `passes without the patch: ${files.join(', ')}`);
      else report(false, p.name, `(fails without the patch: ${failures.map((f) => `${f.file} › ${f.test}`).join('; ') || `exit ${status}`})`);
      continue;
    }
    if (!applies.get(p.name)) {
      report(false, p.name, '(patch does not apply)');
      continue;
    }
    if (p.caughtBy.length === 0 || p.build.length === 0) {
      report(false, p.name, '(header lacks # caught by: or # build:)');
      continue;
    }
    await git(scratch, [p.file]);
    // The patched packages, plus any a previous patch left built from its patched source.
    const toBuild = [...new Set([...dirty, ...p.build])];
    const buildError = await build(scratch, toBuild);
    // Once reverted, what this patch built must be built again; after a failed build, all of it.
    dirty.clear();
    for (const d of buildError ? toBuild : p.build) dirty.add(d);
    if (buildError) {
      report(false, p.name, `(${buildError})`);
    } else {
      const { status, failures, timedOut } = await runTests(scratch, p);
      const hit = matchFailure(p, failures);
      if (timedOut) report(false, p.name, `(the run did not end within ${RUN_LIMIT_MS / 60_000} min and was stopped)`);
      else if (status !== 0 && hit) report(true, p.name, `by ${hit.file} › ${hit.test}`);
      else if (status === 0) report(false, p.name, '(the run passed)');
      else if (failures.length === 0) report(false, p.name, `(the run failed with exit ${status} but named no failed test)`);
      else report(false, p.name, `(failed only elsewhere: ${failures.map((f) => `${f.file} › ${f.test}`).join('; ')})`);
    }
    // Reverted here, rebuilt lazily before the next run: `dirty` still names the packages.
    const reverted = await git(scratch, ['-R', p.file]);
    if (reverted.status !== 0) throw new Error(`could not revert ${p.name} in ${scratch}: ${reverted.out}`);
  }
} finally {
  const minutes = ((Date.now() - started) / 60000).toFixed(1);
  console.log(`(${minutes} min)`);
  if (keep) console.log(`kept ${scratch}`);
  else rmSync(scratch, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
