/**
 * Soak: reads while a skill changes. One skill folder served by a skillmount endpoint in a child
 * process (a catalog over fsStorage, watched, so every save reloads it); its SKILL.md saved anew
 * every `--edit-every` seconds (written beside it and renamed over it, as editors save); clients
 * that hold an entry for `--hold-ms`, read its SKILL.md in a loop and ask for the entry again
 * when it is older than that. Half the clients are skillmount's SkillsClient (SDK v1 client), half
 * the official SDK v2 SkillsClient. Counts, per client kind, the requests the server answered and
 * the reads the client refused.
 *
 * Phases: `before` (the server keeps no earlier bytes, `retainMs: 0`, and SkillsClient does not
 * ask again, `refresh: false`: how a release without either behaves), `reask` (no earlier bytes
 * kept, SkillsClient asks again: a server that does not know the digest key) and `after` (the
 * defaults). `--phase both` (default) runs before and after; `all` the three. The SDK v2 client
 * names no digest, so it is served as before in every phase. Not part of the test suite.
 *
 *   node --import tsx bench/soak-reload.ts [--clients 50] [--seconds 180] [--edit-every 5]
 *     [--hold-ms 1000] [--phase before|reask|after|both|all]
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from '@modelcontextprotocol/client';
import { SkillsClient as V2SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { SkillCatalog, createSkillsEndpoint } from '@skillmount/core';
import { SkillsClient, type SkillEntry } from '@skillmount/core/client';
import { fsStorage } from '@skillmount/storage-fs';
import { TYPESCRIPT_IMPORT } from '../scripts/typescript-import.mjs';

const URI = 'skill://moving/SKILL.md';
const KINDS = ['skillmount', 'sdk-v2'] as const;
type Kind = (typeof KINDS)[number];
type Phase = 'before' | 'reask' | 'after';
const PHASES: Record<Phase, { retainMs: number; refresh: boolean }> = {
  before: { retainMs: 0, refresh: false },
  reask: { retainMs: 0, refresh: true },
  after: { retainMs: 60_000, refresh: true },
};

const skillMd = (n: number) =>
  `---\nname: moving\ndescription: A skill saved again and again, this is save number ${n}.\n---\n# Moving\n\n${'Body. '.repeat(n % 7)}\n`;

/** The child: serve `root` with `retainMs`, count requests by client kind (header `x-soak-kind`) and method, print them on SIGTERM. */
async function serve(root: string, retainMs: number): Promise<void> {
  const catalog = await SkillCatalog.load(fsStorage(root), { retainMs, onWarning: () => {} });
  catalog.watch();
  let reloads = 0;
  catalog.onListChanged(() => reloads++);
  const endpoint = createSkillsEndpoint({ source: catalog });
  const counts: Record<string, Record<string, number>> = {};
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    const kind = String(req.headers['x-soak-kind'] ?? 'other');
    for (const message of [body].flat()) {
      if (typeof message?.method !== 'string' || message.id === undefined) continue;
      const byMethod = counts[kind] ?? {};
      counts[kind] = byMethod;
      byMethod[message.method] = (byMethod[message.method] ?? 0) + 1;
    }
    await endpoint.handle(req, res, body).catch(() => undefined);
  });
  server.listen(0, '127.0.0.1', () => {
    process.stdout.write(`${JSON.stringify({ port: (server.address() as { port: number }).port })}\n`);
  });
  process.on('SIGTERM', () => {
    process.stdout.write(`${JSON.stringify({ counts, reloads })}\n`);
    process.exit(0);
  });
}

interface Tally {
  clients: number;
  reads: number;
  refused: number;
  gets: number;
  /** The first few refusals' messages, for the report. */
  samples: string[];
}

/** One host: an entry held for `holdMs`, its SKILL.md read in a loop until `until`. */
async function host(kind: Kind, url: string, refresh: boolean, holdMs: number, tally: Tally): Promise<(until: number) => Promise<void>> {
  const requestInit = { headers: { 'x-soak-kind': kind } };
  let get: () => Promise<SkillEntry>;
  let read: (entry: SkillEntry) => Promise<unknown>;
  let close: () => Promise<void>;
  if (kind === 'skillmount') {
    const client = new Client({ name: 'soak-skillmount', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit }));
    const skills = new SkillsClient(client, { refresh });
    get = async () => (await skills.get(URI)).skill;
    read = (entry) => skills.read(entry);
    close = () => client.close();
  } else {
    const client = new V2Client({ name: 'soak-sdk-v2', version: '1.0.0' });
    await client.connect(new V2Transport(new URL(url), { requestInit }));
    const skills = new V2SkillsClient(client);
    get = async () => (await skills.get(URI)).skill as SkillEntry;
    read = (entry) => skills.read(entry as never);
    close = () => client.close();
  }
  return async (until) => {
    let entry: SkillEntry | undefined;
    let fetchedAt = 0;
    while (Date.now() < until) {
      if (entry === undefined || Date.now() - fetchedAt > holdMs) {
        try {
          entry = await get();
          fetchedAt = Date.now();
          tally.gets++;
        } catch {
          continue;
        }
      }
      tally.reads++;
      try {
        await read(entry);
      } catch (error) {
        tally.refused++;
        if (tally.samples.length < 3)
          tally.samples.push(
            String((error as Error).message)
              .split('\n')[0]!
              .slice(0, 160),
          );
        entry = undefined; // a host that refused a read asks for the entry again
      }
    }
    await close();
  };
}

async function phase(name: Phase, options: { clients: number; seconds: number; editEvery: number; holdMs: number }) {
  const root = mkdtempSync(path.join(tmpdir(), 'skillmount-soak-'));
  mkdirSync(path.join(root, 'moving'));
  const file = path.join(root, 'moving', 'SKILL.md');
  writeFileSync(file, skillMd(0));
  const child = spawn(process.execPath, [...TYPESCRIPT_IMPORT, import.meta.filename, '--serve', root, '--retain-ms', String(PHASES[name].retainMs)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  let buffered = '';
  let lineArrived: () => void = () => {};
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    for (let at = buffered.indexOf('\n'); at >= 0; at = buffered.indexOf('\n')) {
      lines.push(buffered.slice(0, at));
      buffered = buffered.slice(at + 1);
      lineArrived();
    }
  });
  const nextLine = async () => {
    while (lines.length === 0) await new Promise<void>((resolve) => (lineArrived = resolve));
    return JSON.parse(lines.shift()!);
  };
  const { port } = await nextLine();
  const url = `http://127.0.0.1:${port}/mcp`;
  const tallies = Object.fromEntries(KINDS.map((kind) => [kind, { clients: 0, reads: 0, refused: 0, gets: 0, samples: [] } as Tally])) as Record<Kind, Tally>;
  const loops: ((until: number) => Promise<void>)[] = [];
  for (let i = 0; i < options.clients; i++) {
    const kind = KINDS[i % KINDS.length]!;
    tallies[kind].clients++;
    loops.push(await host(kind, url, PHASES[name].refresh, options.holdMs, tallies[kind]));
  }
  let saves = 0;
  const editor = setInterval(() => {
    saves++;
    writeFileSync(`${file}.tmp`, skillMd(saves));
    renameSync(`${file}.tmp`, file);
  }, options.editEvery * 1000);
  const started = Date.now();
  await Promise.all(loops.map((loop) => loop(started + options.seconds * 1000)));
  const elapsed = (Date.now() - started) / 1000;
  clearInterval(editor);
  child.kill('SIGTERM');
  const { counts, reloads } = await nextLine();
  rmSync(root, { recursive: true, force: true });
  return { name, elapsed, saves, reloads, tallies, counts: counts as Record<string, Record<string, number>> };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      serve: { type: 'string' },
      'retain-ms': { type: 'string', default: '60000' },
      clients: { type: 'string', default: '50' },
      seconds: { type: 'string', default: '180' },
      'edit-every': { type: 'string', default: '5' },
      'hold-ms': { type: 'string', default: '1000' },
      phase: { type: 'string', default: 'both' },
    },
  });
  if (values.serve !== undefined) return serve(values.serve, Number(values['retain-ms']));
  const options = {
    clients: Number(values.clients),
    seconds: Number(values.seconds),
    editEvery: Number(values['edit-every']),
    holdMs: Number(values['hold-ms']),
  };
  for (const [name, value] of Object.entries(options)) if (!(value > 0)) throw new Error(`--${name} must be a positive number`);
  const phases: Phase[] = values.phase === 'both' ? ['before', 'after'] : values.phase === 'all' ? ['before', 'reask', 'after'] : [values.phase as Phase];
  for (const name of phases) if (!(name in PHASES)) throw new Error(`--phase must be before, reask, after, both or all, got ${name}`);
  console.log(
    `Soak: ${options.clients} clients (half of each kind), ${options.seconds} s, SKILL.md saved every ${options.editEvery} s, entries held ${options.holdMs} ms\n`,
  );
  console.log('| phase | client | clients | requests answered (get / read) | reads | refused | refused per 10,000 |');
  console.log('|---|---|---|---|---|---|---|');
  const results = [];
  for (const name of phases) {
    const result = await phase(name, options);
    results.push(result);
    for (const kind of KINDS) {
      const tally = result.tallies[kind];
      const byMethod = result.counts[kind] ?? {};
      const answered = Object.values(byMethod).reduce((sum, n) => sum + n, 0);
      const perTenThousand = tally.reads === 0 ? 0 : (tally.refused * 10_000) / tally.reads;
      console.log(
        `| ${name} | ${kind} | ${tally.clients} | ${answered} (${byMethod['skills/get'] ?? 0} / ${byMethod['resources/read'] ?? 0}) | ${tally.reads} | ${tally.refused} | ${perTenThousand.toFixed(2)} |`,
      );
    }
  }
  for (const result of results) {
    console.log(`\n${result.name}: ${result.elapsed.toFixed(1)} s, ${result.saves} saves, ${result.reloads} reloads that changed the list`);
    for (const kind of KINDS) for (const sample of result.tallies[kind].samples) console.log(`  ${kind} refused: ${sample}`);
  }
}

await main();
