/**
 * Runs `skillmount serve <folder>` as a child process on a free loopback port, the way a user
 * starts it, so peers judge the real CLI and not an in-process stand-in.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before } from 'node:test';

export const REPO = path.resolve(import.meta.dirname, '../../..');
export const CLI_BIN = path.join(REPO, 'packages/cli/dist/bin.js');
export const EXAMPLES = path.join(REPO, 'examples/skills');

const READY = /^skillmount: serving (\d+) skills? at (https?:\/\/\S+)/m;
const START_TIMEOUT_MS = 20_000;

export interface ServeOptions {
  framework?: 'fastify' | 'express';
  stateless?: boolean;
  /** Skills folder; default examples/skills. */
  folder?: string;
  /** More `serve` flags, e.g. `['--page-size', '1']`. */
  args?: string[];
}

export interface RunningServer {
  /** The endpoint URL the CLI printed. */
  url: string;
  /** How many skills the CLI said it serves. */
  skills: number;
  /** What the child wrote to stderr so far (warnings). */
  stderr(): string;
  /** SIGTERM, then SIGKILL after 5 s; resolves once the child is gone. */
  stop(): Promise<void>;
}

/** Spawn the CLI and resolve once it prints its URL; rejects with the child's stderr if it exits first. */
export function startServer(options: ServeOptions = {}): Promise<RunningServer> {
  const args = [CLI_BIN, 'serve', options.folder ?? EXAMPLES, '--port', '0', '--host', '127.0.0.1'];
  if (options.framework) args.push('--framework', options.framework);
  if (options.stateless) args.push('--stateless');
  args.push(...(options.args ?? []));

  if (!existsSync(CLI_BIN)) {
    return Promise.reject(new Error(`${CLI_BIN} does not exist: build the workspace first (npx pnpm build)`));
  }
  const child = spawn(process.execPath, args, { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  // 'close' rather than 'exit': by then stdout and stderr are fully read.
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  // A crashed test run must not leave a server behind.
  const reap = () => child.kill('SIGKILL');
  process.once('exit', reap);

  const stop = async () => {
    process.off('exit', reap);
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(killer);
  };
  const shown = (arg: string) => (path.isAbsolute(arg) && !path.relative(REPO, arg).startsWith('..') ? path.relative(REPO, arg) : arg);
  const command = `node ${args.map(shown).join(' ')}`;

  return new Promise<RunningServer>((resolve, reject) => {
    const fail = (why: string) => {
      cleanup();
      void stop().then(() => reject(new Error(`${command}: ${why}\n--- stderr\n${stderr || '(empty)'}\n--- stdout\n${stdout || '(empty)'}`)));
    };
    const onData = () => {
      const m = READY.exec(stdout);
      if (!m) return;
      cleanup();
      resolve({ url: m[2]!, skills: Number(m[1]), stderr: () => stderr, stop });
    };
    const onExit = (code: number | null, signal: string | null) => fail(`exited (${signal ?? `code ${code}`}) before printing its URL`);
    const onError = (error: Error) => fail(`could not start: ${error.message}`);
    const timer = setTimeout(() => fail(`printed no URL within ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS);
    const cleanup = () => {
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      child.off('close', onExit);
      child.off('error', onError);
    };
    child.stdout!.on('data', onData);
    child.once('close', onExit);
    child.once('error', onError);
  });
}

/**
 * Start the CLI in a `before` hook of the enclosing suite and stop it in its `after` hook.
 * Call at suite level; read `url` inside tests.
 */
export function useServer(options: ServeOptions = {}): { readonly url: string; readonly server: RunningServer } {
  let running: RunningServer | undefined;
  before(
    async () => {
      running = await startServer(options);
    },
    { timeout: START_TIMEOUT_MS + 10_000 },
  );
  after(async () => {
    await running?.stop();
  });
  return {
    get url() {
      if (!running) throw new Error('the skillmount server is not running (its start failed; see the before hook error)');
      return running.url;
    },
    get server() {
      if (!running) throw new Error('the skillmount server is not running (its start failed; see the before hook error)');
      return running;
    },
  };
}
