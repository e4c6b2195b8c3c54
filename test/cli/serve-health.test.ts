/**
 * `skillmount serve --health /healthz`: readiness and liveness, on each framework serve builds.
 * Ready with the skill count once serving; degraded while the last reload failed (under --strict a
 * broken SKILL.md makes the whole reload fail, and the previous catalog keeps serving), ready again
 * once it succeeds; "stopping" (503) from SIGTERM on, while a request in flight still finishes; then
 * exit 0. Liveness answers 200 throughout.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from 'skillmount';
import { within } from '../support/wait.js';
import { startPostgres } from '../support/postgres.js';

const BIN = path.resolve(import.meta.dirname, '../../packages/cli/dist/bin.js');

const children = new Set<ChildProcess>();
after(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** Resolves with the first match of `pattern` in what the child prints (stdout and stderr). */
function output(child: ChildProcess) {
  let text = '';
  const waiters = new Set<() => void>();
  const add = (d: string) => {
    text += d;
    for (const look of waiters) look();
  };
  child.stdout!.setEncoding('utf8').on('data', add);
  child.stderr!.setEncoding('utf8').on('data', add);
  const line = (pattern: RegExp, what: string) =>
    within(
      new Promise<RegExpExecArray>((resolve) => {
        const look = () => {
          const match = pattern.exec(text);
          if (!match) return;
          waiters.delete(look);
          resolve(match);
        };
        waiters.add(look);
        look();
      }),
      30_000,
      `${what}; the output so far:\n${text}`,
    );
  return { line, text: () => text };
}

async function health(url: URL, method = 'GET'): Promise<{ status: number; cache: string | null; body: Record<string, unknown> | string }> {
  const response = await fetch(url, { method });
  const text = await response.text();
  return { status: response.status, cache: response.headers.get('cache-control'), body: text === '' ? '' : (JSON.parse(text) as Record<string, unknown>) };
}

// Large enough that its answer, read by nobody, is still being sent when SIGTERM arrives: a
// paused loopback connection holds a few MiB in the kernel (see serve-stop.test.ts).
const BIG = 12 * 1024 * 1024;

describe('serve --health', { concurrency: true }, () => {
  for (const framework of ['fastify', 'express']) {
    test(`--framework ${framework}: ready, degraded while a reload fails, ready again, 503 stopping after SIGTERM while a read finishes, exit 0`, async (t) => {
      const root = await mkdtemp(path.join(tmpdir(), 'skillmount-health-'));
      t.after(() => rm(root, { recursive: true, force: true }));
      await mkdir(path.join(root, 'big'));
      await writeFile(path.join(root, 'big/SKILL.md'), '---\nname: big\ndescription: One large file.\n---\n\n# Big\n');
      await writeFile(path.join(root, 'big/data.bin'), Buffer.alloc(BIG, 7));

      const args = [BIN, 'serve', root, '--port', '0', '--framework', framework, '--stateless', '--strict', '--health', '/healthz'];
      const serve = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      children.add(serve);
      const exited = once(serve, 'exit');
      const out = output(serve);
      const mcp = new URL((await out.line(/serving 1 skill at (http:\/\/\S+)/, 'serve did not start'))[1]!);
      await out.line(/readiness at http:\/\/\S+\/healthz, liveness at \/healthz\/live/, 'serve did not name the health paths');
      const ready = new URL('/healthz', mcp);
      const live = new URL('/healthz/live', mcp);

      const first = await health(ready);
      assert.equal(first.status, 200);
      assert.equal(first.cache, 'no-store');
      const loadedAt = (first.body as Record<string, unknown>).loadedAt;
      assert.deepEqual(first.body, { status: 'ready', skills: 1, loadedAt });
      assert.deepEqual(await health(live), { status: 200, cache: 'no-store', body: { status: 'live' } });
      assert.deepEqual(await health(ready, 'HEAD'), { status: 200, cache: 'no-store', body: '' });

      // A SKILL.md without frontmatter: under --strict the reload fails as a whole.
      await mkdir(path.join(root, 'broken'));
      await writeFile(path.join(root, 'broken/SKILL.md'), 'no frontmatter\n');
      await out.line(/reload failed, still serving the previous catalog/, 'the reload did not fail');
      const degraded = await health(ready);
      assert.equal(degraded.status, 200);
      assert.deepEqual(degraded.body, {
        status: 'degraded',
        skills: 1,
        loadedAt,
        reason: 'the last reload failed; serving the previous catalog',
        code: 'reload-failed',
        failedAt: (degraded.body as Record<string, unknown>).failedAt,
      });
      assert.doesNotMatch(JSON.stringify(degraded.body), /SKILL|broken|frontmatter/, 'no path nor error text on the public path');
      assert.equal((await health(live)).status, 200);

      await rm(path.join(root, 'broken'), { recursive: true });
      await out.line(/reloaded after a failed reload: serving 1 skill/, 'the reload did not succeed again');
      const again = await health(ready);
      assert.equal(again.status, 200);
      assert.equal((again.body as Record<string, unknown>).status, 'ready');

      // A read whose answer is read by nobody for now, on a connection of its own.
      const socket = connect(Number(mcp.port), mcp.hostname);
      const chunks: Buffer[] = [];
      const closed = once(socket, 'close');
      const begun = new Promise<void>((resolve) =>
        socket.on('data', (d: Buffer) => {
          chunks.push(d);
          if (chunks.length > 1) return;
          socket.pause();
          resolve();
        }),
      );
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'skill://big/data.bin' } });
      const head = [
        `POST ${mcp.pathname} HTTP/1.1`,
        `host: ${mcp.host}`,
        'content-type: application/json',
        'accept: application/json, text/event-stream',
        'mcp-protocol-version: 2025-11-25',
        `content-length: ${Buffer.byteLength(body)}`,
      ];
      socket.write(`${head.join('\r\n')}\r\n\r\n${body}`);
      await within(begun, 10_000, 'the answer to begin');

      serve.kill('SIGTERM');
      await out.line(/SIGTERM, stopping/, 'the stop to begin');
      // The listening socket is closed: a probe's new connection is refused. A probe on a
      // connection still open is answered "stopping", after the answer before it on that connection.
      socket.write(`GET /healthz HTTP/1.1\r\nhost: ${mcp.host}\r\n\r\n`);
      socket.resume();
      await within(closed, 20_000, `the connection to close; the output:\n${out.text()}`);
      const text = Buffer.concat(chunks).toString('latin1');
      const stopping = text.indexOf('HTTP/1.1 503');
      assert.ok(stopping > BIG, `the readiness answer follows the whole read (${text.length} bytes, 503 at ${stopping})`);
      assert.match(text.slice(0, stopping), /^HTTP\/1\.1 200 /);
      assert.match(text.slice(stopping), /cache-control: no-store[\s\S]*\r\n\r\n\{"status":"stopping"\}$/i);

      const [code, signal] = await within(exited, 20_000, `serve to exit; its output:\n${out.text()}`);
      assert.deepEqual({ code, signal }, { code: 0, signal: null }, out.text());
    });
  }
});

test('serve --health on PostgreSQL: degraded (200) while the server is stopped, ready once it is back and a reload succeeds', async (t) => {
  const pg = await startPostgres({ own: true });
  t.after(() => pg.stop());
  const folder = await mkdtemp(path.join(tmpdir(), 'skillmount-health-pg-'));
  t.after(() => rm(folder, { recursive: true, force: true }));
  await mkdir(path.join(folder, 'kept'));
  await writeFile(path.join(folder, 'kept/SKILL.md'), '---\nname: kept\ndescription: Served while the database is down.\n---\n\n# Kept\n');
  assert.equal(await main(['publish', folder, pg.connectionString]), 0);

  const args = [BIN, 'serve', pg.connectionString, '--port', '0', '--stateless', '--health', '/healthz', '--log-format', 'json'];
  const serve = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(serve);
  const exited = once(serve, 'exit');
  const out = output(serve);
  const mcp = new URL(JSON.parse((await out.line(/\{[^\n]*"event":"serving"[^\n]*\}/, 'serve did not start'))[0]).url as string);
  const ready = new URL('/healthz', mcp);
  assert.equal(((await health(ready)).body as Record<string, unknown>).status, 'ready');
  // Once listening, the storage reports a change (writes made before LISTEN may have been missed).
  await out.line(/"event":"reloaded"/, 'no reload once listening');

  await pg.whileStopped!(async () => {
    // The LISTEN connection drops: the storage says so, and readiness shows it without failing.
    await out.line(/"event":"warning"[^\n]*"code":"storage-failed"/, 'the lost connection was not reported');
    const degraded = await health(ready);
    assert.equal(degraded.status, 200);
    assert.deepEqual(degraded.body, {
      status: 'degraded',
      skills: 1,
      loadedAt: (degraded.body as Record<string, unknown>).loadedAt,
      reason: 'the storage reported a failure; serving the last catalog',
      code: 'storage-failed',
      failedAt: (degraded.body as Record<string, unknown>).failedAt,
    });
    // The last catalog keeps serving its listing (a file not read before needs the database).
    const list = await fetch(mcp, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'skills/list', params: {} }),
    });
    assert.match(await list.text(), /Served while the database is down/);
  });
  // Listening again, the storage reports a change again: the reload succeeds.
  await out.line(/("event":"reloaded"[\s\S]*){2}/, 'no reload once the database was back');
  assert.equal(((await health(ready)).body as Record<string, unknown>).status, 'ready');

  serve.kill('SIGTERM');
  const [code] = await within(exited, 20_000, `serve to exit; its output:\n${out.text()}`);
  assert.equal(code, 0, out.text());
});

test('serve --health: a path without "/", the MCP path, one under /.well-known/, or the flag twice are usage errors', async () => {
  const cases = [
    [['--health', 'healthz'], /--health must be a path starting with "\/".*got "healthz"/],
    [['--health', '/mcp'], /--health \/mcp answers at \/mcp, which collides with the MCP path \/mcp: pick a path outside it/],
    [['--path', '/api', '--health', '/api/health'], /collides with the MCP path \/api/],
    [['--health', '/.well-known/health'], /--health must not be under \/\.well-known\//],
    [['--health', '/a', '--health', '/b'], /--health is given 2 times \(\/a, \/b\): give it once/],
  ] as const;
  for (const [flags, message] of cases) {
    let stderr = '';
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string) => {
      stderr += chunk;
      return true;
    }) as typeof process.stderr.write;
    let code: number | undefined;
    try {
      // The flags are checked before the storage is opened: the location need not exist.
      code = await main(['serve', path.join(tmpdir(), 'skillmount-no-such-folder'), ...flags]);
    } finally {
      process.stderr.write = write;
    }
    assert.equal(code, 2, stderr);
    assert.match(stderr, message);
  }
});
