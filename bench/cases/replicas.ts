/**
 * Replicas: three `skillmount serve` processes (the real CLI, stateless, watching) on one storage
 * behind a round-robin proxy on 127.0.0.1. Aggregate verified reads/s through the proxy with 1, 2
 * and 3 replicas behind it, then the time from `skillmount publish` of one changed file until
 * every replica serves its new digest, each replica polled directly.
 */
import { createHash } from 'node:crypto';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileBytes, fileCount } from '../corpus.js';
import { count, ms, perSecond, table } from '../format.js';
import { connect, filesOf, type BenchClient } from '../http/client.js';
import { publish, startServe, type ServeProcess } from '../http/cli.js';
import { startProxy } from '../http/proxy.js';
import { median, now, timed } from '../measure.js';
import type { SeededStore } from '../stores/store.js';

/** How often a replica is asked for the changed file's digest while a publish propagates. */
export const POLL_MS = 20;
/** `--poll-interval` of the S3 replicas. */
export const S3_POLL_MS = 1000;
const IN_FLIGHT = 16;
const REPLICAS = 3;

export interface ReplicaThroughput {
  /** `direct` (one replica, no proxy) or the number behind the proxy. */
  behind: number | 'direct';
  readsPerSecond: number;
}
export interface Propagation {
  /** ms from the start of `skillmount publish` to its exit. */
  publishMs: number;
  /** ms from the start of the publish until each replica served the new digest. */
  replicas: number[];
}
export interface ReplicasResult {
  store: string;
  size: string;
  files: number;
  passes: number;
  throughput: ReplicaThroughput[];
  propagation: Propagation[];
}

/** Verified reads/s of every file with IN_FLIGHT requests in flight: the median of `passes` timed passes after one untimed. */
async function readRate(client: BenchClient, passes: number): Promise<number> {
  const { entries } = await client.listAll();
  const files = filesOf(entries);
  await client.readAll(files, IN_FLIGHT);
  const rates: number[] = [];
  for (let i = 0; i < passes; i++) rates.push((files.length / (await timed(() => client.readAll(files, IN_FLIGHT))).ms) * 1000);
  return median(rates);
}

/** Resolves with the ms (since `start`) at which `client` first serves `digest` for `fileUri` in the entry `skillUri`. */
async function digestServed(client: BenchClient, skillUri: string, fileUri: string, digest: string, start: number): Promise<number> {
  const deadline = start + 120_000;
  for (;;) {
    const { skill } = (await client.call('skills/get', { uri: skillUri })) as { skill: { resources: { uri: string; digest: string }[] } };
    if (skill.resources.find((r) => r.uri === fileUri)?.digest === digest) return now() - start;
    if (now() > deadline) throw new Error(`bench: ${fileUri} still not at ${digest} 120 s after the publish`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * `folder` holds the same corpus as `store` (it is copied, then changed and published); `publishes`
 * changes are published one after the other, each to a new version of one file.
 */
export async function replicasCase(store: SeededStore, folder: SeededStore, passes: number, publishes: number): Promise<ReplicasResult> {
  const at = store.cli;
  if (!at || !folder.dir) throw new Error(`bench: the replicas case needs a ${store.kind} location for the command line and a folder of the same corpus`);
  const extra = ['--stateless', '--watch', ...(store.kind === 'S3' ? ['--poll-interval', String(S3_POLL_MS)] : [])];
  const replicas: ServeProcess[] = [];
  const clients: BenchClient[] = [];
  const proxy = await startProxy();
  const copy = await mkdtemp(path.join(tmpdir(), 'skillmount-bench-publish-'));
  try {
    for (const replica of await Promise.all(Array.from({ length: REPLICAS }, () => startServe(at, extra)))) replicas.push(replica);
    const throughput: ReplicaThroughput[] = [];
    const direct = await connect(replicas[0]!.url);
    clients.push(direct);
    throughput.push({ behind: 'direct', readsPerSecond: await readRate(direct, passes) });
    proxy.route([replicas[0]!.url]);
    const proxied = await connect(proxy.url);
    clients.push(proxied);
    for (let n = 1; n <= REPLICAS; n++) {
      proxy.route(replicas.slice(0, n).map((r) => r.url));
      throughput.push({ behind: n, readsPerSecond: await readRate(proxied, passes) });
    }

    // The changed file: one that is not a SKILL.md, of the first skill.
    const changed = store.files.find((f) => !f.path.endsWith('/SKILL.md'))!;
    const each = await Promise.all(replicas.map((r) => connect(r.url)));
    clients.push(...each);
    const { entries } = await direct.listAll();
    const entry = entries.find((e) => Array.isArray(e.resources) && e.resources.some((r) => r.uri.endsWith(`/${changed.path}`)))!;
    const fileUri = (entry.resources as { uri: string }[]).find((r) => r.uri.endsWith(`/${changed.path}`))!.uri;
    await cp(folder.dir, copy, { recursive: true });
    const propagation: Propagation[] = [];
    for (let i = 0; i < publishes; i++) {
      const bytes = fileBytes(store.size, changed.path, 1000 + i);
      const digest = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
      await writeFile(path.join(copy, ...changed.path.split('/')), bytes);
      const start = now();
      const served = Promise.all(each.map((client) => digestServed(client, entry.uri, fileUri, digest, start)));
      await publish(copy, at);
      const publishMs = now() - start;
      propagation.push({ publishMs, replicas: await served });
    }
    return { store: store.kind, size: store.size.label, files: fileCount(store.size), passes, throughput, propagation };
  } finally {
    await Promise.allSettled(clients.map((c) => c.close()));
    await proxy.close();
    await Promise.allSettled(replicas.map((r) => r.stop()));
    await rm(copy, { recursive: true, force: true });
  }
}

export function replicasSection(results: readonly ReplicasResult[], cores: number): string[] {
  const reads: string[][] = [];
  const publishes: string[][] = [];
  for (const r of results) {
    const one = r.throughput.find((t) => t.behind === 1)!.readsPerSecond;
    for (const t of r.throughput)
      reads.push([
        r.store,
        `${r.size} (${count(r.files)} files)`,
        t.behind === 'direct' ? 'one replica, no proxy' : `${t.behind} behind the proxy`,
        perSecond(t.readsPerSecond),
        t.behind === 'direct' ? '' : `${(t.readsPerSecond / one).toFixed(2)}×`,
      ]);
    for (const [i, p] of r.propagation.entries())
      publishes.push([
        r.store,
        String(i + 1),
        ms(p.publishMs),
        ms(Math.max(...p.replicas)),
        Math.max(...p.replicas) < p.publishMs ? 'before it exits' : ms(Math.max(...p.replicas) - p.publishMs),
        p.replicas.map(ms).join(', '),
      ]);
  }
  return [
    '## Replicas',
    '',
    `Three \`skillmount serve\` processes (the built command line, \`--stateless --watch\`: PostgreSQL by LISTEN/NOTIFY, S3 by polling with \`--poll-interval ${S3_POLL_MS}\`) on one PostgreSQL namespace, then on one S3 bucket of the loopback S3-protocol server, behind a round-robin proxy (node:http, keep-alive agents) on 127.0.0.1 in the benchmark's own process. Verified reads of every file, ${IN_FLIGHT} requests in flight, by the lean client through the proxy with 1, 2 and 3 replicas behind it (the median of the timed passes shown, after one untimed), and straight to one replica for the proxy's own cost. **This machine has ${cores} cores**, shared by the replicas, the proxy, the client and the storage servers: aggregate throughput cannot grow linearly with replicas here, and these rows show the overhead of spreading the load more than any gain.`,
    '',
    table(['storage', 'corpus', 'replicas', 'verified reads/s', 'vs 1 behind the proxy'], reads),
    '',
    `Then one file (not a SKILL.md) is changed in a copy of the corpus folder and \`skillmount publish\` (the built command line, a fresh process) writes it to the storage; each replica is asked directly with \`skills/get\` every ${POLL_MS} ms until it lists the new digest. Times are from the start of the publish (a fresh Node process that checks the whole folder, then writes the one changed file, and for S3 the manifest); \`of which after the exit\` is how long the last replica took once the publish had finished (\`before it exits\` when every replica served the change before the publish process had ended).`,
    '',
    table(['storage', 'publish', 'publish exits', 'every replica serves it', 'of which after the exit', 'each replica'], publishes),
    '',
  ];
}
