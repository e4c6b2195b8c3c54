/**
 * `skills/list` answers count against the response budget like reads do. Before, only
 * `resources/read` was counted: 20 connections (10 here) × 200 pipelined `skills/list` on a 200-skill
 * catalog with large frontmatter, never read, took a `skillmount serve` from 125 MiB to over
 * 1 GiB (still climbing) and another client's `skills/get` waited 27 s; now the server grows by
 * about 100 MiB and answers others within a few seconds of the flood starting, then in
 * milliseconds. Measured on a `skillmount serve` child process through /proc, with real sockets
 * that never read. How long another client waits is bounded in the server's CPU time, not in
 * wall time, which grows with whatever else the machine runs.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cpuSecondsOf, pipelineUnread, rssOf, startCli } from './attacks.js';
import { FRAMEWORKS } from './servers.js';
import { postFrom } from '../support/addresses.js';

const MiB = 1024 * 1024;
const SKILLS = 200;
const CONNECTIONS = 10;
const PIPELINED = 200;
const ATTACK_MS = 8000;

/** 200 skills whose frontmatter is as large as a tenant may write it (a long description, a few KiB of metadata). */
async function wideTree(): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'skillmount-wide-'));
  const metadata = Array.from({ length: 40 }, (_, i) => `  key-${i}: "${'m'.repeat(100)}"`).join('\n');
  for (let i = 0; i < SKILLS; i++) {
    const name = `skill-${String(i).padStart(3, '0')}`;
    await mkdir(path.join(root, name));
    await writeFile(path.join(root, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${'d'.repeat(1000)}\nmetadata:\n${metadata}\n---\nBody.\n`);
  }
  return root;
}

function post(target: URL, body: unknown, headers: Record<string, string>): string {
  const text = JSON.stringify(body);
  return [
    `POST ${target.pathname} HTTP/1.1`,
    `Host: ${target.host}`,
    'Content-Type: application/json',
    'Accept: application/json, text/event-stream',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    `Content-Length: ${Buffer.byteLength(text)}`,
    '',
    text,
  ].join('\r\n');
}

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const ERAS = {
  '2025-11-25': (target: URL, id: number) => post(target, { jsonrpc: '2.0', id, method: 'skills/list', params: {} }, { 'MCP-Protocol-Version': '2025-11-25' }),
  '2026-07-28': (target: URL, id: number) =>
    post(target, { jsonrpc: '2.0', id, method: 'skills/list', params: { _meta: META } }, { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'skills/list' }),
};

/**
 * One `skills/get` by a client that reads its answers, on a connection of its own (a kept-alive one
 * may be closed by the server as the request goes out, when this process runs late); its time in ms,
 * and the CPU seconds the server used meanwhile.
 */
async function timedGet(url: string, pid: number): Promise<{ ms: number; serverCpu: number }> {
  const started = performance.now();
  const cpuBefore = cpuSecondsOf(pid);
  const { status, text } = await postFrom(
    url,
    { jsonrpc: '2.0', id: 1, method: 'skills/get', params: { uri: 'skill://skill-007/SKILL.md' } },
    { headers: { 'mcp-protocol-version': '2025-11-25' } },
  );
  assert.match(text, /skill-007/, `skills/get answered: ${status} ${text.slice(0, 200)}`);
  return { ms: performance.now() - started, serverCpu: cpuSecondsOf(pid) - cpuBefore };
}

async function served(t: TestContext, framework: string) {
  const root = await wideTree();
  const server = await startCli([root, '--framework', framework, '--stateless']);
  t.after(async () => {
    await server.stop();
    await rm(root, { recursive: true, force: true });
  });
  await timedGet(server.url, server.child.pid!);
  return server;
}

for (const framework of FRAMEWORKS) {
  for (const [era, request] of Object.entries(ERAS)) {
    test(`${framework}, ${era}: ${CONNECTIONS} connections × ${PIPELINED} pipelined skills/list, never read: memory stays bounded, others are answered`, {
      timeout: 180_000,
    }, async (t) => {
      const server = await served(t, framework);
      const pid = server.child.pid!;
      const baseline = rssOf(pid);
      const sockets = await pipelineUnread(server.url, (target) => Array.from({ length: PIPELINED }, (_, i) => request(target, i + 1)), CONNECTIONS);
      // While the flood is on: the server's memory, and another client's skills/get, one after another.
      let peak = baseline;
      let worst = { ms: 0, serverCpu: 0 };
      const end = Date.now() + ATTACK_MS;
      while (Date.now() < end) {
        const get = await timedGet(server.url, pid);
        if (get.serverCpu > worst.serverCpu) worst = get;
        peak = Math.max(peak, rssOf(pid));
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      for (const socket of sockets) socket.destroy();
      t.diagnostic(
        `RSS baseline ${Math.round(baseline / MiB)} MiB, peak under attack ${Math.round(peak / MiB)} MiB; ` +
          `another client's worst skills/get waited while the server used ${worst.serverCpu.toFixed(2)} s of CPU (${Math.round(worst.ms)} ms)`,
      );
      assert.ok(peak - baseline < 250 * MiB, `RSS grew by ${Math.round((peak - baseline) / MiB)} MiB under the attack`);
      // Every one of its requests was answered with the skill (never "Server busy"). The worst is
      // the first, during the flood's first burst: about 1-2 s of the server's CPU, then none to
      // speak of. Before, the server worked through every answer first (27 s) or fell over.
      assert.ok(worst.serverCpu < 8, `another client's skills/get waited while the server used ${worst.serverCpu.toFixed(2)} s of CPU under the attack`);
    });
  }
}
