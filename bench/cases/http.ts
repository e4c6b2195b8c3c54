/**
 * Over real HTTP on 127.0.0.1: a full `skills/list` walk and verified reads of every file, with 1
 * and with 8 requests in flight, against each server in its own process. Runs interleave the
 * servers so that drift on the machine affects them alike. Beside each rate, the server process's
 * CPU time per verified read: on a shared machine it moves far less with the load than rates do.
 */
import { connect, filesOf, type BenchClient } from '../http/client.js';
import type { ServerKind, StorageSpec } from '../http/types.js';
import { startServer, type ForkedServer, type RunningServer } from '../http/servers.js';
import { median, timed } from '../measure.js';

export const SERVER_KINDS: readonly ServerKind[] = ['sdk-v2', 'fastify-stateless', 'fastify-session', 'express-stateless', 'express-session'];

export interface HttpSide {
  kind: ServerKind;
  /** Median ms for a full skills/list walk. */
  listMs: number;
  pages: number;
  /** Median verified files per second, 1 and 8 requests in flight. */
  read1: number;
  read8: number;
  /** Median server CPU time (user + system, µs) per verified read, 1 and 8 requests in flight. */
  cpu1: number;
  cpu8: number;
}
export interface HttpResult {
  storage: string;
  size: string;
  files: number;
  runs: number;
  sides: HttpSide[];
}

export async function httpCase(
  label: string,
  size: string,
  storage: StorageSpec,
  runs: number,
  kinds: readonly ServerKind[] = SERVER_KINDS,
): Promise<HttpResult> {
  const servers: RunningServer[] = [];
  const clients: BenchClient[] = [];
  try {
    // Started together (start-up is not measured), measured one at a time.
    for (const server of await Promise.all(kinds.map((kind) => startServer(kind, storage)))) servers.push(server);
    for (const server of servers) clients.push(await connect(server.url));
    const samples = servers.map(() => ({
      list: [] as number[],
      read1: [] as number[],
      read8: [] as number[],
      cpu1: [] as number[],
      cpu8: [] as number[],
      pages: 0,
    }));
    let files = 0;
    // One untimed pass each: JIT, connections, and (for caching servers) the first read of every file.
    for (const client of clients) {
      const { entries } = await client.listAll();
      await client.readAll(filesOf(entries), 8);
    }
    for (let run = 0; run < runs; run++) {
      for (let i = 0; i < servers.length; i++) {
        const client = clients[i]!;
        // A walk is a few ms: five per run, so one slow moment on the machine does not decide it.
        const walks = [];
        for (let w = 0; w < 5; w++) walks.push(await timed(() => client.listAll()));
        const list = { ms: median(walks.map((w) => w.ms)), value: walks[0]!.value };
        const all = filesOf(list.value.entries);
        files = all.length;
        const one = await cpuTimed(servers[i]!, () => client.readAll(all, 1));
        const eight = await cpuTimed(servers[i]!, () => client.readAll(all, 8));
        const s = samples[i]!;
        s.cpu1.push(one.cpu / all.length);
        s.cpu8.push(eight.cpu / all.length);
        s.list.push(list.ms);
        s.pages = list.value.pages;
        s.read1.push((all.length / one.ms) * 1000);
        s.read8.push((all.length / eight.ms) * 1000);
      }
    }
    return {
      storage: label,
      size,
      files,
      runs,
      sides: servers.map((server, i) => ({
        kind: server.kind,
        listMs: median(samples[i]!.list),
        pages: samples[i]!.pages,
        read1: median(samples[i]!.read1),
        read8: median(samples[i]!.read8),
        cpu1: median(samples[i]!.cpu1),
        cpu8: median(samples[i]!.cpu8),
      })),
    };
  } finally {
    await Promise.allSettled(clients.map((c) => c.close()));
    await Promise.allSettled(servers.map((s) => s.stop()));
  }
}

/** `timed`, with the server process's CPU time over the same span (µs). */
export async function cpuTimed<T>(server: ForkedServer, fn: () => Promise<T>): Promise<{ ms: number; value: T; cpu: number }> {
  const before = await server.cpuMicros();
  const result = await timed(fn);
  return { ...result, cpu: (await server.cpuMicros()) - before };
}
