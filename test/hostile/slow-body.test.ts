/**
 * A request body sent a byte at a time is cut off at the body deadline: 408 with a JSON-RPC
 * error, then the connection is closed. Before, such a body held its connection for as long as
 * the client kept trickling.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { rm } from 'node:fs/promises';
import { memoryStorage } from '@skillmount/core';
import { FRAMEWORKS, serve } from './servers.js';
import { bigFileTree, startCli } from './attacks.js';

const SKILLS = { 'alpha/SKILL.md': '---\nname: alpha\ndescription: Alpha.\n---\nbody\n' };
const BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'skills/list', params: {} });

/**
 * Send headers, then the body one byte every 300 ms. Resolves when the server closes the
 * connection (or after `giveUpMs`), with what it answered and how long the connection lasted.
 */
async function trickle(url: string, giveUpMs: number): Promise<{ closed: boolean; heldMs: number; head: string; body: string }> {
  const target = new URL(url);
  const socket = net.connect(Number(target.port), target.hostname);
  socket.on('error', () => {});
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(
    [
      `POST ${target.pathname} HTTP/1.1`,
      `Host: ${target.host}`,
      'Content-Type: application/json',
      'Accept: application/json, text/event-stream',
      `Content-Length: ${BODY.length}`,
      '',
      '',
    ].join('\r\n'),
  );
  const started = Date.now();
  let answer = '';
  socket.on('data', (chunk) => (answer += chunk));
  let sent = 0;
  const drip = setInterval(() => {
    if (sent < BODY.length - 1 && !socket.destroyed) socket.write(BODY[sent++]!);
  }, 300);
  const closed = await Promise.race([
    new Promise<boolean>((resolve) => socket.once('close', () => resolve(true))),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), giveUpMs)),
  ]);
  clearInterval(drip);
  socket.destroy();
  const split = answer.indexOf('\r\n\r\n');
  return { closed, heldMs: Date.now() - started, head: answer.slice(0, split), body: answer.slice(split + 4) };
}

function assertCutOff(result: Awaited<ReturnType<typeof trickle>>, timeoutMs: number): void {
  assert.ok(result.closed, `the connection was still open after ${result.heldMs} ms`);
  assert.ok(result.heldMs >= timeoutMs - 100, `cut off after ${result.heldMs} ms, before the ${timeoutMs} ms deadline`);
  assert.ok(result.heldMs < timeoutMs + 5000, `held ${result.heldMs} ms`);
  assert.match(result.head, /^HTTP\/1\.1 408 /);
  const error = JSON.parse(result.body.match(/\{.*\}/s)![0]).error;
  assert.equal(error.code, -32000);
  assert.match(error.message, new RegExp(`did not arrive within ${timeoutMs} ms of its headers; send the whole body at once`));
}

for (const framework of FRAMEWORKS) {
  test(`${framework}: a body trickled a byte at a time is cut off at bodyTimeout`, async () => {
    const served = await serve(framework, { storage: memoryStorage(SKILLS), onWarning: () => {}, bodyTimeout: 1500 });
    try {
      assertCutOff(await trickle(served.url, 15_000), 1500);
      // A body sent at once is unaffected.
      const res = await fetch(served.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: BODY,
      });
      assert.equal(res.status, 200);
      assert.match(await res.text(), /skill:\/\/alpha\/SKILL\.md/);
    } finally {
      await served.close();
    }
  });

  test(`${framework} CLI: --request-timeout cuts off a trickled body`, { timeout: 60_000 }, async (t) => {
    const { root } = await bigFileTree(1000);
    const server = await startCli([root, '--framework', framework, '--request-timeout', '1500']);
    t.after(async () => {
      await server.stop();
      await rm(root, { recursive: true, force: true });
    });
    assertCutOff(await trickle(server.url, 15_000), 1500);
  });
}
