/**
 * A client that sends many reads of a large file and never reads the answers must not push the
 * server's memory up without bound, and what it did take comes back once its sockets close.
 * Measured on a `skillmount serve` child process, through /proc.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { connectClient } from '../support/client.js';
import { bigFileTree, openSession, peakRss, pipelineUnread, readBatch, rssOf, sendUnread, startCli } from './attacks.js';
import { FRAMEWORKS } from './servers.js';

const MiB = 1024 * 1024;
const FILE_BYTES = 4 * MiB;
/** Batches as large as the endpoint takes (2025-03-26). */
const BATCH = 32;
const CONNECTIONS = 10;

/** `skillmount serve` of a folder holding one 4 MiB file, read once (and cached) as any first reader would; its RSS then. */
async function warmServer(t: TestContext, args: string[]) {
  const { root, uri } = await bigFileTree(FILE_BYTES);
  const server = await startCli([root, '--framework', ...args]);
  t.after(async () => {
    await server.stop();
    await rm(root, { recursive: true, force: true });
  });
  const pid = server.child.pid!;
  const warm = await connectClient(server.url);
  assert.equal(((await warm.client.readResource({ uri })).contents[0] as { text: string }).text.length, FILE_BYTES);
  await warm.close();
  return { server, uri, pid, baseline: rssOf(pid) };
}

for (const framework of FRAMEWORKS) {
  test(`${framework}: ${CONNECTIONS} connections × ${BATCH} reads of a 4 MiB file, never read: memory stays bounded and comes back`, {
    timeout: 180_000,
  }, async (t) => {
    const { server, uri, pid, baseline } = await warmServer(t, [framework]);

    const session = await openSession(server.url, '2025-03-26');
    // About 1.3 GB of answers asked for; before the response budget this took the server to gigabytes.
    const sockets = await sendUnread(server.url, readBatch(uri, BATCH), CONNECTIONS, { 'mcp-session-id': session });
    const peak = await peakRss(pid, 8000);
    for (const socket of sockets) socket.destroy();

    t.diagnostic(`RSS baseline ${Math.round(baseline / MiB)} MiB, peak under attack ${Math.round(peak / MiB)} MiB`);
    assert.ok(peak - baseline < 300 * MiB, `RSS grew by ${Math.round((peak - baseline) / MiB)} MiB under the attack`);

    // Once the sockets are gone the server serves a real client again, and its memory settles near where it began.
    const client = await connectClient(server.url);
    assert.equal(((await client.client.readResource({ uri })).contents[0] as { text: string }).text.length, FILE_BYTES);
    await client.close();
    // A client that reads its answers gets a whole batch of large files, one after another. Its ids
    // are new: the session's abandoned requests 1–32 may still be pending, and a session never
    // reuses an id (SDK 1.29 sends the answer to a reused id down the abandoned stream).
    const batch = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': session },
      body: readBatch(uri, 8, BATCH + 1),
    });
    const events = (await batch.text()).split('\n').filter((line) => line.startsWith('data: '));
    const results = events.map((line) => JSON.parse(line.slice(6)) as { result?: { contents: { text: string }[] } });
    assert.equal(results.filter((m) => m.result?.contents[0]?.text.length === FILE_BYTES).length, 8);
    let after = rssOf(pid);
    for (let i = 0; i < 50 && after - baseline >= 150 * MiB; i++) {
      await new Promise((r) => setTimeout(r, 200));
      after = rssOf(pid);
    }
    t.diagnostic(`RSS after the sockets closed ${Math.round(after / MiB)} MiB`);
    assert.ok(after - baseline < 150 * MiB, `RSS stayed ${Math.round((after - baseline) / MiB)} MiB above its baseline after the sockets closed`);
  });
}

/** One protocol 2026-07-28 read of `uri`: a self-contained POST, no session. */
function modernRead(target: URL, uri: string, id: number): string {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'resources/read',
    params: { uri, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
  });
  return [
    `POST ${target.pathname} HTTP/1.1`,
    `Host: ${target.host}`,
    'Content-Type: application/json',
    'Accept: application/json, text/event-stream',
    'MCP-Protocol-Version: 2026-07-28',
    'Mcp-Method: resources/read',
    `Mcp-Name: ${uri}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    '',
    body,
  ].join('\r\n');
}

for (const framework of FRAMEWORKS) {
  test(`${framework}: protocol 2026-07-28 reads of a 4 MiB file pipelined on connections that never read: memory stays bounded`, {
    timeout: 180_000,
  }, async (t) => {
    const { server, uri, pid, baseline } = await warmServer(t, [framework, '--stateless']);

    // 10 connections × 32 pipelined reads: about 1.3 GB of answers asked for, none read.
    const reads = (target: URL) => Array.from({ length: BATCH }, (_, i) => modernRead(target, uri, i + 1));
    const sockets = await pipelineUnread(server.url, reads, CONNECTIONS);
    const peak = await peakRss(pid, 8000);
    for (const socket of sockets) socket.destroy();
    t.diagnostic(`RSS baseline ${Math.round(baseline / MiB)} MiB, peak under attack ${Math.round(peak / MiB)} MiB`);
    assert.ok(peak - baseline < 300 * MiB, `RSS grew by ${Math.round((peak - baseline) / MiB)} MiB under the attack`);

    // The server still answers a modern read in full once the attackers are gone.
    const answer = await fetch(server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'resources/read',
        'mcp-name': uri,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'resources/read',
        params: { uri, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
      }),
    });
    const message = (await answer.json()) as { result?: { contents: { text: string }[] } };
    assert.equal(message.result?.contents[0]?.text.length, FILE_BYTES);
  });
}
