/**
 * Over real HTTP on 127.0.0.1: a full `skills/list` walk and verified reads of every file at each
 * level of requests in flight asked for (1 and 8 always), against each server in its own process. Runs interleave the
 * servers so that drift on the machine affects them alike. Beside each rate, the server process's
 * CPU time per verified read: on a shared machine it moves far less with the load than rates do.
 */
import { connect, filesOf, type BenchClient } from '../http/client.js';
import type { ServerKind, StorageSpec } from '../http/types.js';
import { startServer, type ForkedServer, type RunningServer, type ServerPool } from '../http/servers.js';
import { count, micros, ms, perSecond, ratio, table } from '../format.js';
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
  /** Every level of requests in flight measured, ascending: median reads/s and server CPU per read (µs). */
  sweep: { inFlight: number; read: number; cpu: number }[];
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
  inFlight: readonly number[] = [1, 8],
  /** Where the servers come from when they outlive the case (left running); else started and stopped here. */
  pool?: ServerPool,
): Promise<HttpResult> {
  const levels = [...new Set([1, 8, ...inFlight])].sort((a, b) => a - b);
  const servers: RunningServer[] = [];
  const clients: BenchClient[] = [];
  try {
    // Started together (start-up is not measured), measured one at a time.
    for (const server of await Promise.all(kinds.map((kind) => (pool ? pool.start(kind, storage) : startServer(kind, storage))))) servers.push(server);
    for (const server of servers) clients.push(await connect(server.url));
    const samples = servers.map(() => ({
      list: [] as number[],
      read: levels.map(() => [] as number[]),
      cpu: levels.map(() => [] as number[]),
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
        const s = samples[i]!;
        for (const [l, level] of levels.entries()) {
          const pass = await cpuTimed(servers[i]!, () => client.readAll(all, level));
          s.read[l]!.push((all.length / pass.ms) * 1000);
          s.cpu[l]!.push(pass.cpu / all.length);
        }
        s.list.push(list.ms);
        s.pages = list.value.pages;
      }
    }
    return {
      storage: label,
      size,
      files,
      runs,
      sides: servers.map((server, i) => {
        const s = samples[i]!;
        const sweep = levels.map((level, l) => ({ inFlight: level, read: median(s.read[l]!), cpu: median(s.cpu[l]!) }));
        const at = (level: number) => sweep.find((p) => p.inFlight === level)!;
        return { kind: server.kind, listMs: median(s.list), pages: s.pages, read1: at(1).read, read8: at(8).read, cpu1: at(1).cpu, cpu8: at(8).cpu, sweep };
      }),
    };
  } finally {
    await Promise.allSettled(clients.map((c) => c.close()));
    if (!pool) await Promise.allSettled(servers.map((s) => s.stop()));
  }
}

/** `timed`, with the server process's CPU time over the same span (µs). */
export async function cpuTimed<T>(server: ForkedServer, fn: () => Promise<T>): Promise<{ ms: number; value: T; cpu: number }> {
  const before = await server.cpuMicros();
  const result = await timed(fn);
  return { ...result, cpu: (await server.cpuMicros()) - before };
}

/** The printed section: every server's figures, then the verified-read sweep of the results that measured more levels than 1 and 8. */
export function httpSection(results: readonly HttpResult[], corpus: { label: string; files: number }): string[] {
  const rows: string[][] = [];
  for (const h of results) {
    const v2 = h.sides.find((s) => s.kind === 'sdk-v2')!;
    for (const side of h.sides) {
      const mine = side.kind !== 'sdk-v2';
      rows.push([
        h.storage,
        side.kind,
        `${ms(side.listMs)} (${side.pages} page${side.pages === 1 ? '' : 's'})`,
        mine ? ratio(v2.listMs / side.listMs) : '',
        perSecond(side.read1),
        mine ? ratio(side.read1 / v2.read1) : '',
        perSecond(side.read8),
        mine ? ratio(side.read8 / v2.read8) : '',
        micros(side.cpu1),
        mine ? ratio(v2.cpu1 / side.cpu1) : '',
        micros(side.cpu8),
        mine ? ratio(v2.cpu8 / side.cpu8) : '',
      ]);
    }
  }
  const lines = [
    '## Over HTTP (127.0.0.1)',
    '',
    'Each server in its own process; one lean client (keep-alive HTTP, JSON-RPC) for all of them: a full `skills/list` walk, then `resources/read` of every file with 1 and with 8 requests in flight, each file checked by size and sha256 against its entry. SDK v2: `createMcpHandler` with a fresh `McpServer` per request and the catalog attached to it, behind a node:http adapter. Ours: `@skillmount/fastify` and `@skillmount/express`, stateless and with sessions (both answer the skills requests from the catalog, with no SDK server or transport per request), default catalog options unless the storage column says otherwise (the verified-bytes cache, `cacheBytes`, is on by default; `cacheBytes 0` rows read storage on every request). One untimed pass first. Server CPU per read: the user + system CPU time of the server process (`process.cpuUsage()`, asked over IPC before and after each pass) divided by the files read; its ratio is theirs ÷ ours. It moves far less with the load on the machine than the rates.',
    '',
    `Corpus ${corpus.label} (${count(corpus.files)} files).`,
    '',
    table(
      [
        'storage',
        'server',
        'list walk',
        'ratio',
        'verified reads, 1 in flight',
        'ratio',
        'verified reads, 8 in flight',
        'ratio',
        'server CPU per read, 1 in flight',
        'ratio',
        'server CPU per read, 8 in flight',
        'ratio',
      ],
      rows,
    ),
    '',
  ];
  for (const h of results) {
    const levels = h.sides[0]?.sweep.map((p) => p.inFlight) ?? [];
    if (levels.length <= 2) continue;
    lines.push(
      `Verified reads/s by requests in flight, ${h.storage} (one pass per level and run, levels in the order shown, medians; server CPU per read in brackets):`,
      '',
      table(
        ['server', ...levels.map((l) => `${l} in flight`)],
        h.sides.map((side) => [side.kind, ...side.sweep.map((p) => `${perSecond(p.read)} (${micros(p.cpu)})`)]),
      ),
      '',
    );
  }
  return lines;
}
