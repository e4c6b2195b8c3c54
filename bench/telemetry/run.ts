/**
 * What OpenTelemetry costs a skills server: server CPU per verified `resources/read`, measured in
 * server processes side by side, on two servers: the skills endpoint alone on node:http (the
 * lightest read there is) and a Fastify app with the skills plugin and its own McpServer (the
 * server the plugin's README sets up). Each runs with no OpenTelemetry; `instrumentSkills()` with
 * the API and no SDK; and an SDK recording every span (always-on sampler, batch processor) with a
 * metric reader; and the same SDK with `instrumentSkills()` not called (what the SDK costs by
 * itself). Two more split the SDK's figure on the endpoint: `instrumentSkills()` with the SDK's
 * tracer only (the metrics' share, by difference), and the SDK with a bare span per request from a
 * subscriber of the bench's own (no attributes, no context, no metrics: what any instrumentation
 * that records a span pays), and that bare span with no span processor at all (the span by
 * itself, before anything keeps or exports it). The servers run in sets of fresh processes, each
 * warmed up before it is measured; each round of a set sends every server the same number of
 * reads, in turns of 100 reads per server in a new order each round, so that all of them answer
 * through the same stretch of time: a shared machine's changing speed falls on every mode alike. Each server's CPU is its
 * own (`process.cpuUsage` across the round). The client checks every answer's SHA-256 against the
 * listing's digest. Prints each mode's median CPU per read with the spread over all rounds, and
 * the median of the per-round ratios to the same server with no OpenTelemetry.
 *
 *   node --import tsx bench/telemetry/run.ts [--sets 3] [--warm-up 20000] [--rounds 5] [--reads 3000]
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { forkServer, type ForkedServer } from '../http/servers.js';
import { median } from '../measure.js';

const MODES = ['none', 'api', 'sdk', 'sdk-only', 'sdk-traces', 'sdk-bare', 'sdk-span'] as const;
type Mode = (typeof MODES)[number];
/** The servers, by kind, and the modes each runs in: the endpoint in all of them, the Fastify app in the first four. */
const KINDS = {
  endpoint: { label: 'the skills endpoint alone on node:http', modes: MODES },
  fastify: { label: 'a Fastify app with the skills plugin and its own McpServer', modes: MODES.slice(0, 4) },
} as const satisfies Record<string, { label: string; modes: readonly Mode[] }>;
type Kind = keyof typeof KINDS;
const LABELS: Record<Mode, string> = {
  none: 'no OpenTelemetry',
  api: 'instrumentSkills, API without an SDK',
  sdk: 'instrumentSkills, SDK recording every span',
  'sdk-only': 'the same SDK, instrumentSkills not called',
  'sdk-traces': 'instrumentSkills, SDK recording every span, no meter provider',
  'sdk-bare': 'the same SDK, a bare span per request, instrumentSkills not called',
  'sdk-span': 'the same SDK with no span processor, a bare span per request, instrumentSkills not called',
};

const { values } = parseArgs({
  options: {
    sets: { type: 'string', default: '3' },
    'warm-up': { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '5' },
    reads: { type: 'string', default: '3000' },
  },
});
function positive(name: 'sets' | 'warm-up' | 'rounds' | 'reads'): number {
  const value = Number(values[name]);
  if (Number.isInteger(value) && value >= 1) return value;
  console.error(`--${name} must be a positive whole number, got ${values[name]}`);
  process.exit(2);
}
const [sets, warmUp, rounds, reads] = [positive('sets'), positive('warm-up'), positive('rounds'), positive('reads')];

function start(kind: Kind, mode: Mode): Promise<ForkedServer> {
  return forkServer(path.join(import.meta.dirname, 'server.mjs'), [kind, mode], `${kind} ${mode}`);
}

function shuffled<T>(list: readonly T[]): T[] {
  const items = [...list];
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
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

/** Reads one server answers in a row before the next one's turn: enough to keep it warm, few enough to interleave finely. */
const BURST = 100;

/**
 * `count` verified reads from each server, 8 in flight, taken in turns of `BURST` reads, so that
 * every server answers through the same stretch of time, on the same machine.
 */
async function readRound(urls: readonly string[], listed: Map<string, string>, count: number): Promise<void> {
  const uris = [...listed.keys()];
  // The server of each read, in order: BURST reads for each in turn, until each has had `count`.
  const turns: number[] = [];
  for (let done = 0; done < count; done += BURST) {
    for (let i = 0; i < urls.length; i++) turns.push(...Array<number>(Math.min(BURST, count - done)).fill(i));
  }
  let next = 0;
  const worker = async () => {
    while (next < turns.length) {
      const k = next++;
      const uri = uris[k % uris.length]!;
      const { contents } = await call(urls[turns[k]!]!, 'resources/read', { uri });
      const digest = `sha256:${createHash('sha256').update(contents[0].text, 'utf8').digest('hex')}`;
      if (digest !== listed.get(uri)) throw new Error(`${uri}: the answer does not match the listed digest`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

const runs = (Object.keys(KINDS) as Kind[]).flatMap((kind) => KINDS[kind].modes.map((mode) => ({ kind, mode })));
const perRead = runs.map(() => [] as number[]);
// Fresh servers for each set: a process keeps the speed its code and heap settled at (the SDK set
// up and unused, which runs the same requests as no OpenTelemetry, stayed at ×0.90–1.00 of it
// through one set of long-lived servers), and only new ones make that a spread rather than a bias.
for (let set = 0; set < sets; set++) {
  const servers = await Promise.all(runs.map(({ kind, mode }) => start(kind, mode)));
  try {
    const urls = servers.map((server) => server.url);
    const listed = await digests(urls[0]!);
    // Not measured: a server's CPU per read settles only after some 20,000 reads (after 1000 it
    // was three times the settled figure, after 3000 twice), as its code is optimised.
    await readRound(shuffled(urls), listed, warmUp);
    for (let round = 0; round < rounds; round++) {
      const before = await Promise.all(servers.map((server) => server.cpuMicros()));
      // A new order each round: the server before another's turn leaves the caches in its own
      // state, and a fixed order would make that a bias of one mode.
      await readRound(shuffled(urls), listed, reads);
      const after = await Promise.all(servers.map((server) => server.cpuMicros()));
      for (let i = 0; i < servers.length; i++) perRead[i]!.push((after[i]! - before[i]!) / reads);
    }
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}
console.log(
  `Server CPU per verified resources/read (µs), ${sets} sets of servers × ${rounds} interleaved rounds of ${reads} reads, 8 in flight, Node.js ${process.version}`,
);
for (const kind of Object.keys(KINDS) as Kind[]) {
  console.log(`${KINDS[kind].label}:`);
  const none = perRead[runs.findIndex((run) => run.kind === kind && run.mode === 'none')]!;
  runs.forEach((run, i) => {
    if (run.kind !== kind) return;
    const values = perRead[i]!;
    const ratios = values.map((v, r) => v / none[r]!);
    const spread = `${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)}`;
    const vsNone =
      run.mode === 'none'
        ? ''
        : `, ×${median(ratios).toFixed(3)} of no OpenTelemetry (rounds ${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)})`;
    console.log(`  ${LABELS[run.mode]}: median ${median(values).toFixed(1)} (spread ${spread})${vsNone}`);
  });
}
