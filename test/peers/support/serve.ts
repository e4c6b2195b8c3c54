/**
 * Runs `skillmount serve <folder>` as a child process on a free loopback port, the way a user
 * starts it, so peers judge the real CLI and not an in-process stand-in.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before } from 'node:test';
import { startChildServer } from '../../support/child-server.js';

export const REPO = path.resolve(import.meta.dirname, '../../..');
export const CLI_BIN = path.join(REPO, 'packages/cli/dist/bin.js');
export const EXAMPLES = path.join(REPO, 'examples/skills');

const READY = /^skillmount: serving (\d+) skills? at (https?:\/\/\S+)/m;
const START_TIMEOUT_MS = 20_000;

/**
 * Every surface for hosts without the Skills extension switched on: the peers must see the same
 * Skills extension through them (instructions forced on even for clients that declare it).
 */
export const EVERY_SURFACE = ['--tools', '--search', '--prompts', '--well-known', '--cors', 'http://localhost:5173', '--instructions', 'always'];

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
  const shown = (arg: string) => (path.isAbsolute(arg) && !path.relative(REPO, arg).startsWith('..') ? path.relative(REPO, arg) : arg);
  const started = startChildServer(args, READY, `node ${args.map(shown).join(' ')}`, START_TIMEOUT_MS);
  return started.then(({ ready, stderr, stop }) => ({ url: ready[2]!, skills: Number(ready[1]), stderr, stop }));
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
