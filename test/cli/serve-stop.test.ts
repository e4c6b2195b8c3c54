/**
 * How `skillmount serve` stops: when the process that launched it ends (here `npx`, killed with
 * SIGKILL, which it can pass on to nobody), and on SIGTERM with requests in flight: an answer
 * being read slowly finishes, a request that can never finish is cut after the grace period, and
 * the process exits with status 0.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { within } from '../support/wait.js';
import { listening } from '../support/port-open.js';
import { reapedGroups } from '../support/process-groups.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(REPO, 'packages/cli/dist/bin.js');

// Process groups the tests start, killed whole if a test fails before they end.
const groups = reapedGroups();

/** What a child and its descendants print; `ended` resolves once the last of them has closed its end of the pipes. */
function output(child: ChildProcess) {
  let text = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (text += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (text += d));
  const ended = Promise.all([once(child.stdout!, 'close'), once(child.stderr!, 'close')]);
  const line = (pattern: RegExp, what: string, ms: number) =>
    within(
      new Promise<RegExpExecArray>((resolve) => {
        const look = () => {
          const match = pattern.exec(text);
          if (!match) return;
          child.stdout!.off('data', look).off('close', look);
          child.stderr!.off('data', look).off('close', look);
          resolve(match);
        };
        child.stdout!.on('data', look).on('close', look);
        child.stderr!.on('data', look).on('close', look);
        look();
      }),
      ms,
      `${what}; the output so far:\n${text}`,
    );
  return { text: () => text, ended, line };
}

test('serve started with npx: killing only npx (SIGKILL) stops the server, which frees its port', async () => {
  // As a user's job runs it: npx (npm exec) runs the bin through `sh -c`, so the server is npx's
  // grandchild. `--no`: the workspace's bin, never one fetched from the registry.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm_|pnpm_)/i.test(key)));
  const npx = spawn('npx', ['--no', 'skillmount', 'serve', 'examples/skills', '--port', '0'], {
    cwd: REPO,
    env: { ...env, npm_config_update_notifier: 'false' },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  groups.add(npx.pid!);
  const out = output(npx);
  const url = new URL((await out.line(/serving \d+ skills at (http:\/\/\S+)/, 'serve did not start through npx', 60_000))[1]!);
  assert.equal(await listening(url), true);

  npx.kill('SIGKILL');
  // The server looks at the processes that launched it every second, then stops as on SIGTERM,
  // which takes well under a second with nothing in flight: 20 s is room for a loaded machine.
  // The pipes close when the server (and the shell between) have exited.
  await within(out.ended, 20_000, `the server to exit after npx was killed; its output:\n${out.text()}`);
  assert.match(out.text(), /skillmount: the process that started the server \(pid \d+\) has ended, stopping/);
  assert.equal(await listening(url), false, out.text());
  groups.delete(npx.pid!);
});

// 12 MiB of bytes, 16 MiB of base64 in the answer. A paused loopback connection holds a few MiB in
// the kernel (the send buffer grows to tcp_wmem's 4 MiB at most, the receive window stays small
// while nothing is read), so most of the answer is still in the server when SIGTERM arrives.
const BIG = 12 * 1024 * 1024;
const SKILL_MD = '---\nname: big\ndescription: One large file.\n---\n\n# Big\n';

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const readRequest = (uri: string) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri } });

/** An initialized 2025-11-25 session: the headers its requests carry. */
async function openSession(url: URL): Promise<Record<string, string>> {
  const params = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'stop-test', version: '0' } };
  const init = await fetch(url, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params }) });
  assert.equal(init.status, 200, await init.text());
  const headers = { ...JSON_HEADERS, 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' };
  const ready = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  assert.equal(ready.status, 202, await ready.text());
  return headers;
}

/** The body of an answer, and the `resources/read` result its SSE message carries. */
async function readAnswer(response: http.IncomingMessage): Promise<{ contents: { text?: string; blob?: string }[] }> {
  response.setEncoding('utf8');
  let text = '';
  response.on('data', (d: string) => (text += d));
  await once(response, 'end');
  const data = /^data: (.+)$/m.exec(text);
  assert.ok(data, `no SSE message in the answer (status ${response.statusCode}): ${text.slice(0, 500)}`);
  return (JSON.parse(data[1]!) as { result: { contents: { text?: string; blob?: string }[] } }).result;
}

// Side by side: each waits out the 10 s grace.
describe('serve, SIGTERM with requests in flight in a session', { concurrency: true }, () => {
  for (const framework of ['fastify', 'express']) {
    test(`--framework ${framework}: a slow reader gets its whole answer, a request whose body comes after SIGTERM is answered, a stalled one is cut after 10 s, exit 0`, async (t) => {
      const root = await mkdtemp(path.join(tmpdir(), 'skillmount-stop-'));
      t.after(() => rm(root, { recursive: true, force: true }));
      await mkdir(path.join(root, 'big'));
      await writeFile(path.join(root, 'big/SKILL.md'), SKILL_MD);
      const bytes = randomBytes(BIG);
      await writeFile(path.join(root, 'big/data.bin'), bytes);

      const serve = spawn(process.execPath, [BIN, 'serve', root, '--port', '0', '--framework', framework], {
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      groups.add(serve.pid!);
      const exited = once(serve, 'exit');
      const out = output(serve);
      const url = new URL((await out.line(/serving 1 skill at (http:\/\/\S+)/, 'serve did not start', 30_000))[1]!);
      const session = await openSession(url);

      // The reader: its answer has begun (headers arrived), and it reads nothing more for now.
      const reading = http.request(url, { method: 'POST', headers: session, agent: false });
      reading.end(readRequest('skill://big/data.bin'));
      const [response] = (await once(reading, 'response')) as [http.IncomingMessage];
      assert.equal(response.statusCode, 200);
      // The late sender and the stalled request: their bodies are not sent yet. Node's server
      // answers "100 Continue" as it hands a request to the app: from then on it is in flight.
      const late = readRequest('skill://big/SKILL.md');
      const sending = http.request(url, {
        method: 'POST',
        headers: { ...session, expect: '100-continue', 'content-length': String(Buffer.byteLength(late)) },
        agent: false,
      });
      sending.flushHeaders();
      const stalled = connect(Number(url.port), url.hostname);
      const stalledClosed = once(stalled, 'close');
      stalled.on('error', () => undefined);
      stalled.setEncoding('utf8');
      const continued = new Promise<void>((resolve) => stalled.on('data', (d: string) => d.includes('100 Continue') && resolve()));
      const head = Object.entries({ ...session, 'content-length': '100', expect: '100-continue' }).map(([name, value]) => `${name}: ${value}\r\n`);
      stalled.write(`POST ${url.pathname} HTTP/1.1\r\nhost: ${url.host}\r\n${head.join('')}\r\n`);
      await within(Promise.all([once(sending, 'continue'), continued]), 10_000, 'the requests to reach the app');

      serve.kill('SIGTERM');
      await out.line(/skillmount: SIGTERM, stopping \(requests in flight get up to 10 s to finish\)/, 'the stop to begin', 10_000);
      // The listening socket closes before that line is printed: no new connection is taken.
      assert.equal(await listening(url), false);

      // The session is still open for the requests in flight.
      sending.end(late);
      const [answer] = (await once(sending, 'response')) as [http.IncomingMessage];
      assert.equal((await readAnswer(answer)).contents[0]!.text, SKILL_MD);
      const whole = (await readAnswer(response)).contents[0]!.blob!;
      assert.ok(Buffer.from(whole, 'base64').equals(bytes), 'the large answer read after SIGTERM is whole');

      // The bound: 10 s of grace for the stalled request, then its connection is closed and the
      // process exits; another 10 s is room for a loaded machine.
      const [code, signal] = await within(exited, 20_000, `serve to exit after SIGTERM; its output:\n${out.text()}`);
      assert.deepEqual({ code, signal }, { code: 0, signal: null }, out.text());
      await within(stalledClosed, 5_000, 'the stalled connection to be closed');
      // The others finished long before: what is left is the stalled request.
      assert.match(out.text(), /skillmount: 1 request still in flight after 10 s: closing its connection/);
      groups.delete(serve.pid!);
    });
  }
});
