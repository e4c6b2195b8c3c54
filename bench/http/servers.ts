import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { TYPESCRIPT_IMPORT } from '../../scripts/typescript-import.mjs';
import type { ServerKind, StorageSpec } from './types.js';

/** A server process that reports `{ url, … }` over IPC once it listens, and answers requests sent over IPC. */
export interface ForkedServer {
  url: string;
  /** Everything the process sent with its URL (a load time, for instance). */
  ready: Record<string, unknown>;
  /** The server process's CPU time so far (user + system, µs), asked over IPC. */
  cpuMicros(): Promise<number>;
  /** Send `message` and resolve with the `key` field of the first reply that has one. */
  ask<T>(message: string, key: string): Promise<T>;
  stop(): Promise<void>;
}

export interface RunningServer extends ForkedServer {
  kind: ServerKind;
}

const SCRIPT = path.join(import.meta.dirname, 'server.ts');

/** Start one server under test in a child process; resolves once it listens. */
export async function startServer(kind: ServerKind, storage: StorageSpec): Promise<RunningServer> {
  return { kind, ...(await forkServer(SCRIPT, [kind, JSON.stringify(storage)], kind)) };
}

/**
 * Servers one run keeps for its later cases, started on first use and stopped by `close`. The smoke
 * run shares its folder servers between the HTTP cases: it checks the wiring, and each server
 * process costs far more CPU to start than its requests there.
 */
export class ServerPool {
  private readonly servers = new Map<string, Promise<RunningServer>>();

  start(kind: ServerKind, storage: StorageSpec): Promise<RunningServer> {
    const key = `${kind} ${JSON.stringify(storage)}`;
    let server = this.servers.get(key);
    if (!server) {
      server = startServer(kind, storage);
      this.servers.set(key, server);
    }
    return server;
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.servers.values()].map(async (server) => (await server).stop()));
    this.servers.clear();
  }
}

/**
 * Fork `script` (as TypeScript, with scripts/typescript-import.mjs's options, plus
 * `BENCH_SERVER_NODE_ARGS` and `execArgv`) and resolve once it sends its URL; `label` names it in
 * errors. The script answers `'cpu'` with `{ cpu }` and exits on `'stop'`, as bench/http/server.ts does.
 */
export async function forkServer(script: string, args: readonly string[], label: string, execArgv: readonly string[] = []): Promise<ForkedServer> {
  const child: ChildProcess = fork(script, args, {
    execArgv: [...TYPESCRIPT_IMPORT, ...execArgv, ...(process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = await new Promise<Record<string, unknown> & { url: string }>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`bench: the ${label} server exited with code ${code} before listening`)));
    child.on('message', (message: { url?: string }) => {
      if (message.url) resolve(message as Record<string, unknown> & { url: string });
    });
  });
  const ask = <T>(message: string, key: string) =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (reply: Record<string, unknown>) => {
        if (!(key in reply)) return;
        child.off('message', onMessage);
        resolve(reply[key] as T);
      };
      child.on('message', onMessage);
      if (!child.send(message)) reject(new Error(`bench: the ${label} server's IPC channel is closed`));
    });
  return {
    url: ready.url,
    ready,
    ask,
    cpuMicros: async () => {
      const cpu = await ask<{ user: number; system: number }>('cpu', 'cpu');
      return cpu.user + cpu.system;
    },
    async stop() {
      if (child.connected) child.send('stop');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
