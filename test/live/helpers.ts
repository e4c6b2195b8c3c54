/**
 * Running the real CLI (`skillmount publish`, `skillmount serve`) as child processes against real
 * storage, and judging what it serves with real clients: the SDK v1 client for change
 * notifications, the official SDK v2 `SkillsClient` for verified reads.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import path from 'node:path';
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { connectClient } from '../support/client.js';
import { exampleFiles } from '../support/skills-suite.js';
import { waitFor } from '../support/wait.js';

/** How long a live test waits for a change, a warning or a reconnection: a bound on waiting on a busy machine, not a timing assertion. */
export const LIVE_PATIENCE_MS = 60_000;

export const BIN = path.resolve(import.meta.dirname, '../../packages/cli/dist/bin.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run `skillmount …` to completion (asynchronously: clients in this process keep running meanwhile). */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 20_000): Promise<CliResult> {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`skillmount ${args.join(' ')} did not finish within ${timeoutMs} ms\n${stderr}`));
    }, timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface Serving {
  url: string;
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolve once stderr matches `pattern` (searching what arrived since `from`), or fail after `ms`. */
  waitForStderr(pattern: RegExp, ms?: number, from?: number): Promise<string>;
  /** SIGTERM; resolves with the exit code once the process is gone (SIGKILL after 5 s). */
  stop(): Promise<number | null>;
}

/** Start `skillmount serve <location> --port 0 …` and resolve once it prints its URL. */
export async function startServe(location: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<Serving> {
  const child = spawn(process.execPath, [BIN, 'serve', location, '--port', '0', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const closed = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const reap = () => child.kill('SIGKILL');
  process.once('exit', reap);
  const stop = async () => {
    process.off('exit', reap);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    const code = await closed;
    clearTimeout(killer);
    return code;
  };
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => fail('printed no URL within 15 s'), 15_000);
    const onData = () => {
      const m = /skillmount: serving \d+ skills? at (http:\/\/\S+)/.exec(stdout);
      if (!m) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      resolve(m[1]!);
    };
    const fail = (why: string) => {
      clearTimeout(timer);
      void stop().then(() => reject(new Error(`skillmount serve ${location}: ${why}\n--- stderr\n${stderr}\n--- stdout\n${stdout}`)));
    };
    child.stdout!.on('data', onData);
    void closed.then((code) => fail(`exited with ${code} before printing its URL`));
  });
  return {
    url,
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    async waitForStderr(pattern, ms = LIVE_PATIENCE_MS, from = 0) {
      await waitFor(() => pattern.test(stderr.slice(from)), `stderr to match ${pattern} (stderr so far:\n${stderr})`, ms);
      return stderr.slice(from);
    },
    stop,
  };
}

export const sha256 = (bytes: Uint8Array | string) => 'sha256:' + createHash('sha256').update(bytes).digest('hex');

/**
 * The official SDK v2 `SkillsClient` against `url`: it lists exactly the skills of `folder` and
 * reads every file of every skill verified (size and digest), byte for byte as on disk. Returns
 * how many files it verified.
 */
export async function verifyWithSdkV2(url: string, folder: string): Promise<number> {
  const onDisk = exampleFiles(folder);
  const skillRoots = onDisk.filter((f) => f === 'SKILL.md' || f.endsWith('/SKILL.md')).map((f) => f.slice(0, -'/SKILL.md'.length));
  const client = new V2Client({ name: 'skillmount-live-tests', version: '0.0.0' });
  await client.connect(new V2Transport(new URL(url)));
  try {
    const skills = new SkillsClient(client);
    assert.equal(skills.supported, true, 'the server declares the skills extension');
    const listing = await skills.list();
    assert.deepEqual(listing.skills.map((s) => s.uri).sort(), skillRoots.map((r) => `skill://${r}/SKILL.md`).sort());
    let verified = 0;
    for (const root of skillRoots) {
      const { skill } = await skills.get(`skill://${root}/SKILL.md`);
      const files = onDisk.filter((f) => f.startsWith(root + '/')).map((f) => f.slice(root.length + 1));
      const listed = (skill.resources as { uri: string }[]).map((r) => r.uri.slice(`skill://${root}/`.length)).sort();
      assert.deepEqual(listed, files.sort(), `${root}: the entry lists exactly the files on disk`);
      for (const rel of files) {
        const file = await skills.read(skill, rel);
        assert.equal(file.verified, true, `${root}/${rel} verified`);
        assert.ok(Buffer.from(file.bytes).equals(readFileSync(path.join(folder, root, rel))), `${root}/${rel}: bytes equal the file on disk`);
        verified++;
      }
    }
    return verified;
  } finally {
    await client.close();
  }
}

/** An SDK v1 client on a session, counting `notifications/resources/list_changed`. */
export async function watchingClient(url: string) {
  const { client, call, close } = await connectClient(url);
  let changes = 0;
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
    changes++;
  });
  /** The digest `skills/get` publishes for a file of a skill. */
  const digestOf = async (skillUri: string, fileUri: string): Promise<string | undefined> => {
    const { skill } = await call('skills/get', { uri: skillUri });
    return (skill.resources as { uri: string; digest: string }[]).find((r) => r.uri === fileUri)?.digest;
  };
  return {
    client,
    call,
    close,
    digestOf,
    get changes() {
      return changes;
    },
    /** Resolve once a `list_changed` arrived after `since` (a `changes` value), within `ms`. */
    async changed(since: number, ms = LIVE_PATIENCE_MS) {
      await waitFor(() => changes > since, 'notifications/resources/list_changed', ms);
    },
  };
}

export interface TcpRelay {
  /** `http://127.0.0.1:<port>`: give this to clients instead of the server's own address. */
  url: string;
  /** Stop listening and cut every open connection, as when the server behind it goes away. */
  cut(): Promise<void>;
  /** Listen again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A TCP relay on loopback in front of a real server. Cutting it makes the server unreachable
 * for whoever connects through it (connections reset, new ones refused), and restoring it brings
 * the same server back at the same address — an outage that can end, unlike stopping the server.
 */
export async function tcpRelay(target: string): Promise<TcpRelay> {
  const { hostname, port: targetPort } = new URL(target);
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const listen = (server: Server, port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
    });
  const open = () =>
    createServer((inbound) => {
      const outbound = createConnection(Number(targetPort), hostname);
      track(inbound);
      track(outbound);
      inbound.on('error', () => outbound.destroy());
      outbound.on('error', () => inbound.destroy());
      inbound.pipe(outbound).pipe(inbound);
    });
  let server = open();
  const port = await listen(server, 0);
  const cut = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  return {
    url: `http://127.0.0.1:${port}`,
    cut,
    async restore() {
      server = open();
      await listen(server, port);
    },
    async close() {
      if (server.listening) await cut();
    },
  };
}
