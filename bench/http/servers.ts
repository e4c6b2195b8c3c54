import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { ServerKind, StorageSpec } from './types.js';

export interface RunningServer {
  kind: ServerKind;
  url: string;
  /** The server process's CPU time so far (user + system, µs), asked over IPC. */
  cpuMicros(): Promise<number>;
  stop(): Promise<void>;
}

const SCRIPT = path.join(import.meta.dirname, 'server.ts');

/** Start one server under test in a child process; resolves once it listens. */
export async function startServer(kind: ServerKind, storage: StorageSpec): Promise<RunningServer> {
  const child: ChildProcess = fork(SCRIPT, [kind, JSON.stringify(storage)], {
    execArgv: ['--import', 'tsx', ...(process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`bench: the ${kind} server exited with code ${code} before listening`)));
    child.on('message', (message: { url?: string }) => {
      if (message.url) resolve(message.url);
    });
  });
  return {
    kind,
    url,
    cpuMicros: () =>
      new Promise((resolve, reject) => {
        const onMessage = (message: { cpu?: { user: number; system: number } }) => {
          if (!message.cpu) return;
          child.off('message', onMessage);
          resolve(message.cpu.user + message.cpu.system);
        };
        child.on('message', onMessage);
        if (!child.send('cpu')) reject(new Error(`bench: the ${kind} server's IPC channel is closed`));
      }),
    async stop() {
      if (child.connected) child.send('stop');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
