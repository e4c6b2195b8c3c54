/**
 * A bounded load run on loopback: one skills server with two tenants (a folder each), and N SDK v1
 * clients in a separate process doing skills/list, skills/get and verified resources/read in turn,
 * each client as one tenant. Prints requests per second, p50/p99 latency, the error count, and the
 * server's memory before, right after, and after a gc some seconds later.
 *
 *   node --import tsx scripts/load.ts [--clients 100] [--seconds 30] [--framework fastify|express] [--client sdk|raw]
 *
 * Exits 1 when any request failed or the heap grew. `--client sdk` (default): each client is the
 * SDK's own `Client` (Streamable HTTP) with the verifying `SkillsClient`. `--client raw`: each
 * client posts JSON-RPC with fetch and checks every read's size and SHA-256 against the entry
 * itself — much cheaper per request, for measuring the server when the SDK client's own cost
 * dominates. The clients run in a child process, so they share neither the server's event loop
 * nor its heap; the server runs in this process.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { SkillSource } from '@skillmount/core';
import { TYPESCRIPT_IMPORT } from './typescript-import.mjs';

const EXAMPLES = path.resolve(import.meta.dirname, '../examples/skills');
const TENANTS = ['acme', 'globex'] as const;
const SETTLE_MS = 5000;

interface Report {
  requests: number;
  errors: number;
  firstErrors: string[];
  /** Milliseconds, one per request. */
  latencies: number[];
  verifiedReads: number;
}

const { values: args } = parseArgs({
  options: {
    clients: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '30' },
    framework: { type: 'string', default: 'fastify' },
    client: { type: 'string', default: 'sdk' },
    role: { type: 'string', default: 'server' },
    url: { type: 'string' },
  },
});

const clients = Number(args.clients);
const seconds = Number(args.seconds);
if (!Number.isInteger(clients) || clients < 1) throw new Error(`--clients must be a positive integer, got ${args.clients}`);
if (!(seconds > 0)) throw new Error(`--seconds must be a positive number, got ${args.seconds}`);
if (args.framework !== 'fastify' && args.framework !== 'express') throw new Error(`--framework must be fastify or express, got ${args.framework}`);
if (args.client !== 'sdk' && args.client !== 'raw') throw new Error(`--client must be sdk or raw, got ${args.client}`);

if (args.role === 'clients') await runClients(args.url!, clients, args.client);
else await runServer(args.framework, clients, seconds, args.client);

// ---------------------------------------------------------------------------
// Server side (this process)

async function runServer(framework: 'fastify' | 'express', clientCount: number, runSeconds: number, clientKind: 'sdk' | 'raw') {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  const root = makeTenants();
  const { tenantCatalogs } = await import('@skillmount/core');
  const { fsStorage } = await import('@skillmount/storage-fs');
  const warnings: string[] = [];
  const source = tenantCatalogs({
    key: (ctx) => (typeof ctx.tenant === 'string' ? ctx.tenant : undefined),
    storage: (tenant) => fsStorage(path.join(root, tenant)),
    onWarning: (w) => warnings.push(w.message),
  });
  const context = (request: { headers: Record<string, string | string[] | undefined> }) => ({ tenant: request.headers['x-tenant'] });
  const server = await listen(framework, source, context);

  const child = fork(
    fileURLToPath(import.meta.url),
    ['--role', 'clients', '--url', server.url, '--clients', String(clientCount), '--seconds', String(runSeconds), '--client', clientKind],
    {
      execArgv: [...TYPESCRIPT_IMPORT],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  try {
    await message(child, 'ready');
    gc();
    const before = memory();
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    child.send({ type: 'go', until: Date.now() + runSeconds * 1000 });
    const report = (await message(child, 'report')) as unknown as Report;
    const elapsed = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const after = memory();
    await new Promise<void>((resolve) => child.once('exit', () => resolve()));
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    gc();
    const settled = memory();

    const sorted = Float64Array.from(report.latencies).sort();
    const pct = (p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN);
    const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
    const heapGrowth = settled.heapUsed - before.heapUsed;
    const flat = heapGrowth < Math.max(5 * 1024 * 1024, before.heapUsed * 0.1);
    console.log(
      `load: ${framework}, ${clientCount} ${clientKind === 'sdk' ? 'SDK' : 'raw HTTP'} clients over ${TENANTS.length} tenants, ${elapsed.toFixed(1)} s`,
    );
    console.log(`  requests      ${report.requests} (${(report.requests / elapsed).toFixed(0)}/s), ${report.verifiedReads} verified reads`);
    console.log(`  latency       p50 ${pct(50).toFixed(1)} ms, p99 ${pct(99).toFixed(1)} ms, max ${pct(100).toFixed(1)} ms`);
    // On a shared machine the rates move with other work; the server's CPU time per request does not.
    const cpuMs = (cpu.user + cpu.system) / 1000;
    console.log(
      `  server CPU    ${(cpuMs / 1000).toFixed(1)} s (${(cpuMs / elapsed / 10).toFixed(0)}% of one core), ${(cpuMs / Math.max(1, report.requests)).toFixed(2)} ms per request`,
    );
    console.log(`  errors        ${report.errors}${report.firstErrors.length ? `: ${report.firstErrors.join(' | ')}` : ''}`);
    console.log(`  memory        rss / heap used`);
    console.log(`    before      ${mb(before.rss)} / ${mb(before.heapUsed)}`);
    console.log(`    after       ${mb(after.rss)} / ${mb(after.heapUsed)}`);
    console.log(
      `    after gc    ${mb(settled.rss)} / ${mb(settled.heapUsed)} (${SETTLE_MS / 1000} s later; heap ${heapGrowth >= 0 ? '+' : ''}${mb(heapGrowth)}: ${flat ? 'flat' : 'GREW'})`,
    );
    if (warnings.length) console.log(`  warnings      ${warnings.length}: ${warnings.slice(0, 3).join(' | ')}`);
    process.exitCode = report.errors === 0 && flat ? 0 : 1;
  } finally {
    child.kill();
    await server.close();
    await source.close();
    rmSync(root, { recursive: true, force: true });
  }
}

/** Two tenants on disk: the example skills, and thirty generated ones. */
function makeTenants(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'skillmount-load-'));
  cpSync(EXAMPLES, path.join(root, 'acme'), { recursive: true });
  for (let i = 0; i < 30; i++) {
    const dir = path.join(root, 'globex', `skill-${i}`);
    mkdirSync(path.join(dir, 'references'), { recursive: true });
    writeFileSync(
      path.join(dir, 'SKILL.md'),
      `---\nname: skill-${i}\ndescription: Generated skill number ${i}.\n---\n\n# Skill ${i}\n\nSee references/guide.md.\n`,
    );
    writeFileSync(path.join(dir, 'references', 'guide.md'), `# Guide ${i}\n\n${'Some guidance. '.repeat(50 + i * 10)}\n`);
  }
  return root;
}

async function listen(
  framework: 'fastify' | 'express',
  source: SkillSource,
  context: (request: { headers: Record<string, string | string[] | undefined> }) => Record<string, unknown>,
) {
  if (framework === 'fastify') {
    const { default: Fastify } = await import('fastify');
    const { skillsPlugin } = await import('@skillmount/fastify');
    const app = Fastify();
    await app.register(skillsPlugin, { source, context });
    await app.listen({ port: 0, host: '127.0.0.1' });
    return { url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/mcp`, close: () => app.close() };
  }
  const { default: express } = await import('express');
  const { skillsMiddleware } = await import('@skillmount/express');
  const skills = skillsMiddleware({ source, context });
  const app = express();
  app.use('/mcp', skills);
  const server = await new Promise<HttpServer>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    close: async () => {
      await skills.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function memory() {
  const { rss, heapUsed } = process.memoryUsage();
  return { rss, heapUsed };
}

function message(child: ChildProcess, type: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const onMessage = (msg: Record<string, unknown>) => {
      if (msg?.type !== type) return;
      cleanup();
      resolve(msg);
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`the client process exited (code ${code}) before sending "${type}"`));
    };
    const cleanup = () => {
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

// ---------------------------------------------------------------------------
// Client side (the child process)

interface FileRef {
  uri: string;
  size: number;
  digest: string;
}
interface EntryLike {
  uri: string;
  resources: FileRef[] | 'dynamic';
}
/** What one client does; `read` resolves once the bytes are verified against the entry. */
interface Driver {
  list(): Promise<EntryLike[]>;
  get(uri: string): Promise<unknown>;
  read(entry: EntryLike, file: FileRef): Promise<void>;
  close(): Promise<void>;
}

async function sdkDriver(url: string, tenant: string, i: number): Promise<Driver> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const { SkillsClient } = await import('@skillmount/core/client');
  const client = new Client({ name: `load-${i}`, version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { 'x-tenant': tenant } } }));
  const skills = new SkillsClient(client);
  return {
    list: async () => (await skills.list()).skills,
    get: (uri) => skills.get(uri),
    read: async (entry, file) => {
      const read = await skills.read(entry as Parameters<typeof skills.read>[0], file.uri);
      if (!read.verified) throw new Error(`${read.uri} was not verified`);
    },
    close: () => client.close(),
  };
}

function rawDriver(url: string, tenant: string): Driver {
  let id = 0;
  const call = async (method: string, params: unknown): Promise<Record<string, any>> => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', 'x-tenant': tenant },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method}: HTTP ${response.status} ${text.slice(0, 200)}`);
    const data = text.split('\n').find((line) => line.startsWith('data:'));
    const message = JSON.parse(data ? data.slice(5) : text);
    if (message.error) throw new Error(`${method}: ${message.error.code} ${message.error.message}`);
    return message.result;
  };
  return {
    list: async () => (await call('skills/list', {})).skills,
    get: (uri) => call('skills/get', { uri }),
    read: async (_entry, file) => {
      const [content] = (await call('resources/read', { uri: file.uri })).contents;
      const bytes = content.text !== undefined ? Buffer.from(content.text, 'utf8') : Buffer.from(content.blob, 'base64');
      const digest = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
      if (bytes.length !== file.size || digest !== file.digest) throw new Error(`${file.uri}: the bytes do not match the published size and digest`);
    },
    close: async () => undefined,
  };
}

async function runClients(url: string, count: number, kind: 'sdk' | 'raw') {
  const report: Report = { requests: 0, errors: 0, firstErrors: [], latencies: [], verifiedReads: 0 };
  const fail = (error: unknown) => {
    report.errors++;
    if (report.firstErrors.length < 5) report.firstErrors.push(String((error as Error)?.message ?? error).slice(0, 200));
  };

  // Connect everyone and learn each tenant's skills before the clock starts.
  const sessions = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const tenant = TENANTS[i % TENANTS.length]!;
      const driver = kind === 'sdk' ? await sdkDriver(url, tenant, i) : rawDriver(url, tenant);
      const entries = await driver.list();
      if (entries.length === 0) throw new Error(`tenant ${tenant} lists no skills`);
      return { driver, entries };
    }),
  );
  process.send!({ type: 'ready' });
  const { until } = (await new Promise((resolve) => process.once('message', resolve))) as { until: number };

  await Promise.all(
    sessions.map(async ({ driver, entries }, i) => {
      for (let step = i; Date.now() < until; step++) {
        const entry = entries[step % entries.length]!;
        const started = performance.now();
        try {
          if (step % 3 === 0) await driver.list();
          else if (step % 3 === 1) await driver.get(entry.uri);
          else {
            const files = entry.resources === 'dynamic' ? [] : entry.resources;
            await driver.read(entry, files[step % files.length]!);
            report.verifiedReads++;
          }
          report.latencies.push(performance.now() - started);
          report.requests++;
        } catch (error) {
          fail(error);
        }
      }
    }),
  );
  await Promise.all(sessions.map(({ driver }) => driver.close().catch(fail)));
  process.send!({ type: 'report', ...report }, () => process.exit(0));
}
