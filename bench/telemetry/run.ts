/**
 * What OpenTelemetry costs a skills server: server CPU per verified `resources/read`, measured in
 * server processes side by side — no OpenTelemetry; `instrumentSkills()` with the API and no
 * SDK; and an SDK recording every span (always-on sampler, batch processor) with a metric reader.
 * Three more split the SDK's figure: the same SDK with `instrumentSkills()` not called (what the SDK
 * costs by itself), `instrumentSkills()` with the SDK's tracer only (the metrics' share, by
 * difference), and the SDK with a bare span per request from a subscriber of the bench's own (no
 * attributes, no context, no metrics: what any instrumentation that records a span pays). Batches of reads go to each server in turn, in a rotating order (interleaved), and each
 * batch's CPU is the server's own (`process.cpuUsage` across the batch). The client checks every
 * answer's SHA-256 against the listing's digest. Prints each mode's median CPU per read with the
 * spread over rounds, and the median of the per-round ratios to no OpenTelemetry.
 *
 *   node --import tsx bench/telemetry/run.ts [--reads 3000] [--rounds 15]
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { median } from '../measure.js';

const MODES = ['none', 'api', 'sdk', 'sdk-only', 'sdk-traces', 'sdk-bare'] as const;
type Mode = (typeof MODES)[number];
const LABELS: Record<Mode, string> = {
  none: 'no OpenTelemetry',
  api: 'instrumentSkills, API without an SDK',
  sdk: 'instrumentSkills, SDK recording every span',
  'sdk-only': 'the same SDK, instrumentSkills not called',
  'sdk-traces': 'instrumentSkills, SDK recording every span, no meter provider',
  'sdk-bare': 'the same SDK, a bare span per request, instrumentSkills not called',
};

const { values } = parseArgs({ options: { reads: { type: 'string', default: '3000' }, rounds: { type: 'string', default: '15' } } });
const reads = Number(values.reads);
const rounds = Number(values.rounds);
if (!Number.isInteger(reads) || reads < 1 || !Number.isInteger(rounds) || rounds < 1) {
  console.error(`--reads and --rounds must be positive whole numbers, got ${values.reads} and ${values.rounds}`);
  process.exit(2);
}

interface Server {
  child: ChildProcess;
  url: string;
}

async function start(mode: Mode): Promise<Server> {
  const child = fork(path.join(import.meta.dirname, 'server.mjs'), [mode], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const [message] = (await once(child, 'message')) as [{ port: number }];
  return { child, url: `http://127.0.0.1:${message.port}/mcp` };
}

async function cpu(server: Server): Promise<number> {
  const answer = once(server.child, 'message') as Promise<[{ cpu: number }]>;
  server.child.send('cpu');
  return (await answer)[0].cpu;
}

let id = 0;
async function call(url: string, method: string, params: Record<string, unknown>): Promise<Record<string, any>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
  });
  const text = await response.text();
  const data = text.split('\n').find((line) => line.startsWith('data: '));
  const message = JSON.parse(data ? data.slice(6) : text);
  if (message.error) throw new Error(`${method}: ${message.error.message}`);
  return message.result;
}

/** The listing's digest of every SKILL.md, to check each read against. */
async function digests(url: string): Promise<Map<string, string>> {
  const listed = new Map<string, string>();
  let cursor: string | undefined;
  do {
    const page = await call(url, 'skills/list', cursor === undefined ? {} : { cursor });
    for (const skill of page.skills) listed.set(skill.uri, skill.resources.find((r: { uri: string }) => r.uri === skill.uri).digest);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return listed;
}

/** `count` verified reads, 8 in flight, spread over the skills. */
async function readBatch(url: string, listed: Map<string, string>, count: number): Promise<void> {
  const uris = [...listed.keys()];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const uri = uris[next++ % uris.length]!;
      const { contents } = await call(url, 'resources/read', { uri });
      const digest = `sha256:${createHash('sha256').update(contents[0].text, 'utf8').digest('hex')}`;
      if (digest !== listed.get(uri)) throw new Error(`${uri}: the answer does not match the listed digest`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

const servers = Object.fromEntries(await Promise.all(MODES.map(async (mode) => [mode, await start(mode)] as const))) as Record<Mode, Server>;
try {
  const listed = await digests(servers.none.url);
  // Warm-up, not measured: each server's JIT settles before the rounds (a first round ran up to half again slower).
  for (const mode of MODES) await readBatch(servers[mode].url, listed, reads);
  const perRead = Object.fromEntries(MODES.map((mode) => [mode, [] as number[]])) as Record<Mode, number[]>;
  for (let round = 0; round < rounds; round++) {
    const order = MODES.map((_, i) => MODES[(i + round) % MODES.length]!);
    for (const mode of order) {
      const before = await cpu(servers[mode]);
      await readBatch(servers[mode].url, listed, reads);
      perRead[mode].push(((await cpu(servers[mode])) - before) / reads);
    }
  }
  console.log(`Server CPU per verified resources/read (µs), ${rounds} interleaved rounds of ${reads} reads, 8 in flight, Node.js ${process.version}`);
  for (const mode of MODES) {
    const values = perRead[mode];
    const ratios = values.map((v, i) => v / perRead.none[i]!);
    const spread = `${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)}`;
    const vsNone =
      mode === 'none' ? '' : `, ×${median(ratios).toFixed(3)} of no OpenTelemetry (rounds ${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)})`;
    console.log(`  ${LABELS[mode]}: median ${median(values).toFixed(1)} (spread ${spread})${vsNone}`);
  }
} finally {
  for (const server of Object.values(servers)) server.child.send('stop');
}
