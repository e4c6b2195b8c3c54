#!/usr/bin/env node
// `pnpm demo`: build what the CLI needs if its dist/ folders are not up to date (a quick build:
// ESM only, no type declarations, scripts/demo-build.mjs), then serve examples/skills with the CLI
// and say how to look at what it serves. Arguments go to `skillmount serve`, e.g. `pnpm demo --port 3001`.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { quickBuild, staleCliPackages } from './demo-build.mjs';

const root = path.resolve(import.meta.dirname, '..');

const stale = staleCliPackages();
if (stale.length > 0) {
  const started = Date.now();
  process.stderr.write(`building ${stale.join(', ')} for the demo (ESM only, no type declarations; \`pnpm build\` makes the full build)…\n`);
  try {
    await quickBuild(stale);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
  process.stderr.write(`built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

// The server gets signals from the demo only (its own process group), so each reaches it once:
// Ctrl-C in a terminal reaches the demo, which passes it on.
const serve = spawn(process.execPath, [path.join(root, 'packages/cli/dist/bin.js'), 'serve', path.join(root, 'examples/skills'), ...process.argv.slice(2)], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'inherit'],
  detached: process.platform !== 'win32',
});
serve.stdout.setEncoding('utf8');
let pending = '';
serve.stdout.on('data', (chunk) => {
  pending += chunk;
  for (let newline = pending.indexOf('\n'); newline >= 0; newline = pending.indexOf('\n')) {
    const line = pending.slice(0, newline);
    pending = pending.slice(newline + 1);
    // The CLI's start line names the mode and the folder; the demo says what to do next instead.
    const serving = /^skillmount: serving (.+?) at (\S+)/.exec(line);
    if (serving) {
      console.log(`serving ${serving[1]} at ${serving[2]}`);
      console.log(`look at it from another shell: npx skillmount ls ${serving[2]}`);
    } else {
      console.log(line);
    }
  }
});

let stopping = false;
/** Stop the server (SIGTERM: it closes its connections and exits), and kill it if it hangs. */
const stop = (signal, why) => {
  if (stopping || serve.exitCode !== null || serve.signalCode !== null) return;
  stopping = true;
  if (why) process.stderr.write(`${why}; stopping the server\n`);
  serve.kill(signal);
  setTimeout(() => serve.kill('SIGKILL'), 10_000).unref();
};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stop(signal === 'SIGHUP' ? 'SIGTERM' : signal));
serve.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));

// Killing the process that started the demo (`npx`, which does not pass the signal on) must not
// leave the server holding its port: the demo watches the processes that launched it and stops
// when one of them is gone.
const launchers = launchedBy();
const firstParent = process.ppid;
setInterval(() => {
  const gone = process.ppid !== firstParent ? firstParent : launchers.find((pid) => !alive(pid));
  if (gone !== undefined) stop('SIGTERM', `the process that started the demo (pid ${gone}) has ended`);
}, 1000).unref();

/**
 * The demo's ancestors within its process group (npx, pnpm, the shells between): what a terminal
 * or a task runner started as one job. Read once with ps; none where ps is not available.
 */
function launchedBy() {
  const ps = spawnSync('ps', ['-A', '-o', 'pid=', '-o', 'ppid=', '-o', 'pgid='], { encoding: 'utf8' });
  if (ps.status !== 0 || typeof ps.stdout !== 'string') return [];
  const table = new Map();
  for (const line of ps.stdout.split('\n')) {
    const [pid, ppid, pgid] = line.trim().split(/\s+/).map(Number);
    if (Number.isInteger(pid)) table.set(pid, { ppid, pgid });
  }
  const group = table.get(process.pid)?.pgid;
  const found = [];
  for (let pid = process.ppid; pid > 1 && table.get(pid)?.pgid === group && !found.includes(pid); pid = table.get(pid).ppid) found.push(pid);
  return found;
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}
