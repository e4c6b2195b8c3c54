/**
 * Protocol 2026-07-28 over real HTTP on 127.0.0.1: verified reads of every file with 8 requests in
 * flight, on our modern path (skills methods answered by the catalog, no server built per request)
 * and on the SDK v2's `createMcpHandler`, with our legacy stateless figure beside them. The same
 * lean client for all three; runs interleave.
 */
import { connect, filesOf, type BenchClient, type Era } from '../http/client.js';
import { startServer, type RunningServer, type ServerPool } from '../http/servers.js';
import type { ServerKind, StorageSpec } from '../http/types.js';
import { median, timed } from '../measure.js';

export interface ModernSide {
  label: string;
  kind: ServerKind;
  era: Era;
  /** Median verified files per second, 8 requests in flight. */
  read8: number;
}

export interface ModernResult {
  size: string;
  files: number;
  runs: number;
  sides: ModernSide[];
}

const SIDES: readonly { label: string; kind: ServerKind; era: Era }[] = [
  { label: 'SDK v2 `createMcpHandler`, 2026-07-28', kind: 'sdk-v2', era: 'modern' },
  { label: 'ours (Fastify), 2026-07-28', kind: 'fastify-stateless', era: 'modern' },
  { label: 'ours (Fastify), 2025-11-25 stateless', kind: 'fastify-stateless', era: 'legacy' },
];

/** `pool`: where the servers come from when they outlive the case (left running); else started and stopped here. */
export async function modernCase(size: string, storage: StorageSpec, runs: number, pool?: ServerPool): Promise<ModernResult> {
  const servers = new Map<ServerKind, RunningServer>();
  const clients: BenchClient[] = [];
  try {
    for (const kind of new Set(SIDES.map((s) => s.kind))) servers.set(kind, await (pool ? pool.start(kind, storage) : startServer(kind, storage)));
    for (const side of SIDES) clients.push(await connect(servers.get(side.kind)!.url, side.era));
    const files = filesOf((await clients[0]!.listAll()).entries);
    // One untimed pass each: JIT, connections, caches.
    for (const client of clients) await client.readAll(files, 8);
    const samples = SIDES.map(() => [] as number[]);
    for (let run = 0; run < runs; run++) {
      for (let i = 0; i < clients.length; i++) {
        const eight = await timed(() => clients[i]!.readAll(files, 8));
        samples[i]!.push((files.length / eight.ms) * 1000);
      }
    }
    return { size, files: files.length, runs, sides: SIDES.map((side, i) => ({ ...side, read8: median(samples[i]!) })) };
  } finally {
    await Promise.allSettled(clients.map((c) => c.close()));
    if (!pool) await Promise.allSettled([...servers.values()].map((s) => s.stop()));
  }
}
