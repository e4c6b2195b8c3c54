/**
 * A server in a child process (`node <args>`, from the repository root), started the way a user
 * starts it: ready once its stdout matches a line, stopped with SIGTERM and then SIGKILL, never
 * left behind by a crashed test run.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

const REPO = path.resolve(import.meta.dirname, '../..');

/** How a child ended: its exit code, or the signal that ended it. */
export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ChildServer {
  /** The first match of `ready` on the child's stdout. */
  ready: RegExpExecArray;
  /** What the child wrote to stderr so far (warnings). */
  stderr(): string;
  /** SIGTERM, then SIGKILL after 5 s; resolves once the child is gone. */
  stop(): Promise<void>;
  /** How the child ended (its exit code, or the signal that ended it), once it has. */
  exit(): ChildExit | undefined;
}

/**
 * Spawn `node <args>` and resolve once its stdout matches `ready`; reject, with the child's stderr
 * and stdout, when it exits first, cannot start, or prints no match within `timeoutMs`.
 * `what` names the server in those errors. `options.cwd` (default the repository root) and
 * `options.env` (added to this process's environment) are where and with what it runs.
 */
export function startChildServer(
  args: string[],
  ready: RegExp,
  what: string,
  timeoutMs: number,
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<ChildServer> {
  const child = spawn(process.execPath, args, { cwd: options.cwd ?? REPO, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  // 'close' rather than 'exit': by then stdout and stderr are fully read.
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  // A crashed test run must not leave a server behind.
  const reap = () => child.kill('SIGKILL');
  process.once('exit', reap);

  const exit = (): ChildExit | undefined =>
    child.exitCode === null && child.signalCode === null ? undefined : { code: child.exitCode, signal: child.signalCode };
  const stop = async () => {
    process.off('exit', reap);
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(killer);
  };

  return new Promise<ChildServer>((resolve, reject) => {
    const fail = (why: string) => {
      cleanup();
      void stop().then(() => reject(new Error(`${what}: ${why}\n--- stderr\n${stderr || '(empty)'}\n--- stdout\n${stdout || '(empty)'}`)));
    };
    const onData = () => {
      const match = ready.exec(stdout);
      if (!match) return;
      cleanup();
      resolve({ ready: match, stderr: () => stderr, stop, exit });
    };
    const onExit = (code: number | null, signal: string | null) => fail(`exited (${signal ?? `code ${code}`}) before it was ready`);
    const onError = (error: Error) => fail(`could not start: ${error.message}`);
    const timer = setTimeout(() => fail(`was not ready within ${timeoutMs / 1000} s`), timeoutMs);
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
