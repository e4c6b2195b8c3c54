import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const DEMO = path.resolve(import.meta.dirname, '../../scripts/demo.mjs');

// Process groups the tests start, killed whole if a test fails before they end.
const groups = new Set<number>();
after(() => {
  for (const pgid of groups) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

/**
 * Start the demo as `npx` would: under a parent process, in a process group of their own. The
 * demo builds with the package manager named by npm_execpath, as when pnpm runs it: here a script
 * that succeeds at once, so the test serves the packages as built.
 */
async function startDemo(): Promise<{ parent: ChildProcess; demoPid: number; url: URL; output: () => string; ended: Promise<unknown> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'skillmount-demo-'));
  after(() => rm(dir, { recursive: true, force: true }));
  const fakePnpm = path.join(dir, 'pnpm.cjs');
  await writeFile(fakePnpm, 'process.exit(0);\n');
  // The parent prints the demo's pid and waits for it to end, as npx waits for its child.
  const parentScript = `
    const { spawn } = require('node:child_process');
    const demo = spawn(process.execPath, [${JSON.stringify(DEMO)}, '--port', '0'], { stdio: 'inherit' });
    console.log('demo pid ' + demo.pid);
    demo.on('exit', (code, signal) => { console.log('demo exited: ' + code + ' ' + signal); process.exit(0); });`;
  const parent = spawn(process.execPath, ['-e', parentScript], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_execpath: fakePnpm },
  });
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

/** True while something accepts connections at the URL's port. */
function listening(url: URL): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
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
