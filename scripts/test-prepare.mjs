#!/usr/bin/env node
// What `pnpm test` does before the suite: the build, and beside it the checks that do not read its
// output (lint, imports, format); then the type check, which reads the built declarations. Each
// step is the package.json script of that name, run as `pnpm run` would run it. On two cores the
// build leaves about half a core idle (its longest part, the core package's declarations, is one
// thread), and the checks fill it: about 8 s less than running one after another.
// Run by `pnpm test` (the build script calls pnpm, so pnpm must be on PATH when run by hand).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const { scripts } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const env = { ...process.env, PATH: `${path.join(root, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH ?? ''}` };

/**
 * Run the package.json script `name` through the shell. Its output goes straight through, or is
 * kept and handed back when `keep` is set (so output of steps run side by side does not interleave).
 */
function run(name, keep = false) {
  const command = scripts[name];
  if (typeof command !== 'string')
    throw new Error(`package.json has no "${name}" script; scripts/test-prepare.mjs runs build, lint, check:imports, format:check and typecheck`);
  return new Promise((resolve) => {
    const child = spawn(command, { cwd: root, env, shell: true, stdio: keep ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.once('error', (error) => resolve({ name, command, code: 1, output: `${output}${error.message}\n` }));
    child.once('close', (code) => resolve({ name, command, code: code ?? 1, output }));
  });
}

const header = (step) => `\n> ${step.name}: ${step.command}\n`;

/** Stop the run, naming each step that failed, when any did. */
function stopIfFailed(steps) {
  const failed = steps.filter((step) => step.code !== 0);
  if (failed.length === 0) return;
  console.error(
    `\n${failed.map((s) => `"${s.name}" failed (exit ${s.code}): ${s.command}`).join('\n')}\nFix what its output above says, then run the command again.`,
  );
  process.exit(1);
}

console.log(header({ name: 'build', command: scripts.build }));
const steps = await Promise.all([run('build'), run('lint', true), run('check:imports', true), run('format:check', true)]);
for (const check of steps.slice(1)) process.stdout.write(`${header(check)}${check.output}`);
stopIfFailed(steps);
console.log(header({ name: 'typecheck', command: scripts.typecheck }));
stopIfFailed([await run('typecheck')]);
