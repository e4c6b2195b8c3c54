/**
 * Attacks on a running skills endpoint, with raw sockets and a `skillmount serve` child process
 * whose memory can be read from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const BIN = path.resolve(import.meta.dirname, '../../packages/cli/dist/bin.js');

export interface CliServer {
  child: ChildProcess;
  url: string;
  stderr(): string;
  stop(): Promise<void>;
}

/** Start `skillmount serve <args>` on a free port; resolves once it prints its URL. */
export async function startCli(args: string[]): Promise<CliServer> {
  const child = spawn(process.execPath, [BIN, 'serve', ...args, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${stderr}`)), 30_000);
    child.stdout!.on('data', (d) => {
      stdout += d;
      const m = /serving .* at (http:\/\/\S+)/.exec(stdout);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  return {
    child,
    url,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** A skills folder with one skill holding a `bytes`-byte text file at `big/references/big.md`. */
export async function bigFileTree(bytes: number): Promise<{ root: string; uri: string }> {
  const root = await mkdtemp(path.join(tmpdir(), 'skillmount-big-'));
  await mkdir(path.join(root, 'big/references'), { recursive: true });
  await writeFile(path.join(root, 'big/SKILL.md'), '---\nname: big\ndescription: One large reference file.\n---\n# Big\n');
  const line = 'All work and no play makes a large reference file. 0123456789\n';
  await writeFile(path.join(root, 'big/references/big.md'), line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes));
  return { root, uri: 'skill://big/references/big.md' };
}

/** Resident memory of a process, in bytes (Linux). */
export function rssOf(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(kb?.[1] ?? 0) * 1024;
}

/**
 * The CPU seconds (user and system) the process has used, from /proc/PID/stat (in USER_HZ ticks,
 * 100 a second on Linux). What a server spends on a task does not grow with the machine's load,
 * as the wall time of the task does.
 */
export function cpuSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // After the command name in parentheses: field 3 (state) first, so utime (14) and stime (15) are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Sample `rssOf(pid)` every 100 ms for `ms`; the largest value. */
export async function peakRss(pid: number, ms: number): Promise<number> {
  let peak = rssOf(pid);
  const end = Date.now() + ms;
  while (Date.now() < end) {
    await new Promise((r) => setTimeout(r, 100));
    peak = Math.max(peak, rssOf(pid));
  }
  return peak;
}

/** Open an MCP session speaking `protocolVersion`; its id. */
export async function openSession(url: string, protocolVersion = '2025-03-26', headers: Record<string, string> = {}): Promise<string> {
  const common = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers };
  const init = await fetch(url, {
    method: 'POST',
    headers: common,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion, capabilities: {}, clientInfo: { name: 'attack', version: '0' } },
    }),
  });
  const id = init.headers.get('mcp-session-id');
  await init.text();
  if (!id) throw new Error(`initialize answered ${init.status} without a session id`);
  const done = await fetch(url, {
    method: 'POST',
    headers: { ...common, 'mcp-session-id': id, 'mcp-protocol-version': protocolVersion },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  await done.text();
  return id;
}

/** A JSON-RPC batch of `count` reads of `uri`. */
export function readBatch(uri: string, count: number, firstId = 1): string {
  return JSON.stringify(Array.from({ length: count }, (_, i) => ({ jsonrpc: '2.0', id: firstId + i, method: 'resources/read', params: { uri } })));
}

/**
 * POST `body` on `connections` raw sockets that never read their responses (the kernel's buffers
 * fill and the server must queue or hold back). Returns the sockets, still open.
 */
export async function sendUnread(url: string, body: string, connections: number, headers: Record<string, string> = {}): Promise<net.Socket[]> {
  const target = new URL(url);
  const head = [
    `POST ${target.pathname} HTTP/1.1`,
    `Host: ${target.host}`,
    'Content-Type: application/json',
    'Accept: application/json, text/event-stream',
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ].join('\r\n');
  const sockets: net.Socket[] = [];
  for (let i = 0; i < connections; i++) {
    const socket = net.connect(Number(target.port), target.hostname);
    socket.on('error', () => {});
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.pause(); // never read
    socket.write(`${head}\r\n\r\n${body}`);
    sockets.push(socket);
  }
  return sockets;
}

/**
 * Open `connections` raw sockets that never read, and write on each every request `requests(target)`
 * gives, pipelined (HTTP/1.1 requests one after another, as one write). Returns the sockets, still open.
 */
export async function pipelineUnread(url: string, requests: (target: URL) => string[], connections: number): Promise<net.Socket[]> {
  const target = new URL(url);
  return Promise.all(
    Array.from({ length: connections }, async () => {
      const socket = net.connect(Number(target.port), target.hostname);
      socket.on('error', () => {});
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.pause(); // never read
      socket.write(requests(target).join(''));
      return socket;
    }),
  );
}
