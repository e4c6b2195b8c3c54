#!/usr/bin/env node
// `pnpm demo`: build the packages quietly (their output is shown only when the build fails), then
// serve examples/skills with the CLI and say how to look at what it serves.
// Arguments go to `skillmount serve`, e.g. `pnpm demo --port 3001`.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

// pnpm names its own entry script here when it runs a package script; run directly, the demo
// fetches the workspace's pinned pnpm through npx, as the README does.
const pinned = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).packageManager;
const pnpm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npx', '-y', pinned];
process.stderr.write('building the packages (output hidden unless the build fails)…\n');
const build = spawnSync(pnpm[0], [...pnpm.slice(1), 'run', 'build'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
if (build.status !== 0) {
  process.stderr.write(build.stdout ?? '');
  process.stderr.write(build.stderr ?? '');
  process.stderr.write(build.error ? `the build could not run: ${build.error.message}\n` : `the build failed (exit code ${build.status})\n`);
  process.exit(build.status || 1);
}

const serve = spawn(process.execPath, [path.join(root, 'packages/cli/dist/bin.js'), 'serve', path.join(root, 'examples/skills'), ...process.argv.slice(2)], {
  cwd: root,
  stdio: ['inherit', 'pipe', 'inherit'],
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
// Ctrl-C reaches the server too (same process group): wait for it to stop. A SIGTERM sent to the
// demo alone is passed on.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => serve.kill('SIGTERM'));
serve.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
