import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { copyRepo } from '../support/repo-copy.ts';
import { listening } from '../support/port-open.js';
import { reapedGroups } from '../support/process-groups.js';

// Process groups the tests start, killed whole if a test fails before they end.
const groups = reapedGroups();

// The demo runs in a copy of the repository, so a build it makes never touches the dist/ the
// other tests import. This one has the packages' dist/ as built: the demo serves them as they are.
let built: { dir: string; remove: () => void } | undefined;
after(() => built?.remove());
const builtCopy = (): string => {
  built ??= copyRepo({ dist: true });
  return built.dir;
};

/**
 * Start the demo of the checkout `dir` as `npx` would: under a parent process, in a process group
 * of their own.
 */
async function startDemo(dir = builtCopy()): Promise<{ parent: ChildProcess; demoPid: number; url: URL; output: () => string; ended: Promise<unknown> }> {
  const demo = path.join(dir, 'scripts/demo.mjs');
  // The parent prints the demo's pid and waits for it to end, as npx waits for its child.
  const parentScript = `
    const { spawn } = require('node:child_process');
    const demo = spawn(process.execPath, [${JSON.stringify(demo)}, '--port', '0'], { stdio: 'inherit' });
    console.log('demo pid ' + demo.pid);
    demo.on('exit', (code, signal) => { console.log('demo exited: ' + code + ' ' + signal); process.exit(0); });`;
  const parent = spawn(process.execPath, ['-e', parentScript], { cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  groups.add(parent.pid!);
  let output = '';
  parent.stdout!.on('data', (d) => (output += d));
  parent.stderr!.on('data', (d) => (output += d));
  // Every process of the demo writes to these pipes: they close once the last one has ended.
  const ended = Promise.all([once(parent.stdout!, 'close'), once(parent.stderr!, 'close')]);
  const url = await new Promise<URL>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the demo did not start in 60 s:\n${output}`)), 60_000);
    const look = () => {
      const m = /serving .+ at (http:\/\/\S+)/.exec(output);
      if (/demo exited/.test(output)) reject(new Error(`the demo ended before it served:\n${output}`));
      if (m) {
        clearTimeout(timer);
        resolve(new URL(m[1]!));
      }
    };
    parent.stdout!.on('data', look);
    parent.stderr!.on('data', look);
  });
  const demoPid = Number(/demo pid (\d+)/.exec(output)?.[1]);
  assert.ok(demoPid > 0, output);
  return { parent, demoPid, url, output: () => output, ended };
}

async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

test('demo: killing the process that started it stops the demo and its server, and frees the port', async () => {
  const demo = await startDemo();
  assert.equal(await listening(demo.url), true);
  // SIGKILL: the parent can pass nothing on, as when npx is killed.
  demo.parent.kill('SIGKILL');
  await within(30_000, 'the demo and its server did not end', demo.ended);
  assert.equal(await listening(demo.url), false, demo.output());
  assert.match(demo.output(), /the process that started the demo \(pid \d+\) has ended; stopping the server/);
  assert.match(demo.output(), /skillmount: SIGTERM, stopping/);
  groups.delete(demo.parent.pid!);
});

for (const signal of ['SIGHUP', 'SIGTERM', 'SIGINT'] as const) {
  test(`demo: ${signal} sent to the demo alone stops its server, and frees the port`, async () => {
    const demo = await startDemo();
    assert.equal(await listening(demo.url), true);
    process.kill(demo.demoPid, signal);
    await within(30_000, 'the demo and its server did not end', demo.ended);
    // The server stopped as it does on a signal, and the demo ended after it, with its exit code.
    assert.match(demo.output(), new RegExp(`skillmount: ${signal === 'SIGHUP' ? 'SIGTERM' : signal}, stopping`));
    assert.match(demo.output(), /demo exited: 0 null/);
    assert.equal(await listening(demo.url), false, demo.output());
    groups.delete(demo.parent.pid!);
  });
}

test('demo: from a clone with no dist/, it builds what the CLI needs (ESM only, no declarations) in seconds; the tests then ask for the full build', async () => {
  const copy = copyRepo({ dist: false });
  after(copy.remove);
  const demo = await startDemo(copy.dir);
  const built = /building (.+) for the demo \(ESM only, no type declarations[^\n]*\n[\s\S]*?built in ([\d.]+) s/.exec(demo.output());
  assert.ok(built, `the demo did not say what it built:\n${demo.output()}`);
  assert.deepEqual(built[1]!.split(', ').sort(), ['cli', 'core', 'express', 'fastify', 'storage-fs', 'storage-postgres', 'storage-s3'], demo.output());
  assert.ok(Number(built[2]) < 30, `the quick build took ${built[2]} s:\n${demo.output()}`);
  assert.equal(await listening(demo.url), true);
  process.kill(demo.demoPid, 'SIGTERM');
  await within(30_000, 'the demo and its server did not end', demo.ended);
  groups.delete(demo.parent.pid!);

  for (const pkg of ['cli', 'core', 'storage-fs']) {
    const dist = readdirSync(path.join(copy.dir, 'packages', pkg, 'dist'));
    assert.ok(dist.includes('index.js') && dist.includes('QUICK-BUILD.txt'), `packages/${pkg}/dist: ${dist.join(' ')}`);
    assert.deepEqual(
      dist.filter((f) => /\.d\.c?ts$|\.cjs$/.test(f)),
      [],
      `packages/${pkg}/dist has CommonJS files or declarations after the quick build`,
    );
  }
  // Nothing that needs the full build is fooled by the quick one.
  const node = (script: string, ...args: string[]) =>
    spawnSync(process.execPath, [path.join(copy.dir, 'scripts', script), ...args], { cwd: copy.dir, encoding: 'utf8' });
  const fresh = node('dist-fresh.mjs');
  assert.equal(fresh.status, 1, fresh.stderr);
  assert.match(fresh.stderr, /holds the demo's quick build \(ESM only, no type declarations\): building/);
  const tests = node('test.mjs', 'test/cli/demo');
  assert.equal(tests.status, 1, tests.stdout + tests.stderr);
  assert.match(tests.stderr, /dist\/ holds the demo's quick build .*run the full build first: npx -y pnpm@10\.34\.9 build/);
  const pack = node('pack-all.mjs', path.join(copy.dir, '.tmp/packs'));
  assert.equal(pack.status, 1, pack.stdout + pack.stderr);
  assert.equal(existsSync(path.join(copy.dir, '.tmp/packs')), false, 'pack-all packed the quick build');

  // A second start finds its quick build up to date and serves at once.
  const again = await startDemo(copy.dir);
  assert.doesNotMatch(again.output(), /building/, again.output());
  process.kill(again.demoPid, 'SIGTERM');
  await within(30_000, 'the demo and its server did not end', again.ended);
  groups.delete(again.parent.pid!);
});
