/**
 * A burst of initialize requests from one client must not lock other clients out of session
 * mode: at a cap, a new session replaces the least recently used idle one, of the same client
 * first. Before, 1000 sessions filled the one global cap and every new client got 503 for 15
 * minutes (renewable).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import express from 'express';
import Fastify from 'fastify';
import { memoryStorage } from '@skillmount/core';
import skillsPlugin from '@skillmount/fastify';
import { skillsMiddleware } from '@skillmount/express';
import { listenExpressSkills, listenFastify } from '../support/apps.js';
import { connectClient } from '../support/client.js';
import { bigFileTree, startCli } from './attacks.js';
import { FRAMEWORKS, type Framework } from './servers.js';

const SKILLS = { 'alpha/SKILL.md': '---\nname: alpha\ndescription: Alpha.\n---\nbody\n' };
const BURST = 1100;

/** Send `count` initialize requests, 50 at a time; the session ids that were granted, oldest first. */
async function initializeBurst(url: string, count: number, headers: Record<string, string> = {}): Promise<{ ids: string[]; statuses: Map<number, number> }> {
  const ids: string[] = [];
  const statuses = new Map<number, number>();
  for (let sent = 0; sent < count; sent += 50) {
    const answers = await Promise.all(
      Array.from({ length: Math.min(50, count - sent) }, async () => {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'burst', version: '0' } },
          }),
        });
        await res.text();
        return { status: res.status, id: res.headers.get('mcp-session-id') };
      }),
    );
    for (const { status, id } of answers) {
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (id) ids.push(id);
    }
  }
  return { ids, statuses };
}

/** Whether a session still answers (a ping), or is gone (404). */
async function alive(url: string, id: string): Promise<boolean> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
  });
  await res.text();
  assert.ok(res.status === 200 || res.status === 404, `ping answered ${res.status}`);
  return res.status === 200;
}

/** Sessions on (with `limits`), with an auth layer in front that names the client from an `x-client` header. */
async function serveWithAuth(framework: Framework, limits: { maxSessionsPerClient?: number } = {}): Promise<{ url: string; close(): Promise<void> }> {
  const authOf = (header: unknown) => ({ token: 't', clientId: String(header ?? 'anonymous'), scopes: [] });
  const options = { storage: memoryStorage(SKILLS), sessions: true, onWarning: () => {}, ...limits };
  if (framework === 'fastify') {
    const app = Fastify();
    app.addHook('onRequest', async (request) => {
      (request.raw as typeof request.raw & { auth?: unknown }).auth = authOf(request.headers['x-client']);
    });
    await app.register(skillsPlugin, options);
    return listenFastify(app);
  }
  const skills = skillsMiddleware(options);
  const app = express();
  app.use((req, _res, next) => {
    (req as typeof req & { auth?: unknown }).auth = authOf(req.headers['x-client']);
    next();
  });
  return listenExpressSkills(app, skills);
}

for (const framework of FRAMEWORKS) {
  test(`${framework} CLI: ${BURST} initialize requests do not lock the next client out`, { timeout: 180_000 }, async (t) => {
    const { root } = await bigFileTree(1000);
    const server = await startCli([root, '--framework', framework]);
    t.after(async () => {
      await server.stop();
      await rm(root, { recursive: true, force: true });
    });
    const burst = await initializeBurst(server.url, BURST);
    assert.deepEqual([...burst.statuses], [[200, BURST]], 'idle sessions of the same client make room');
    // The same address as the burst: the client still gets in, and works.
    const { call, close } = await connectClient(server.url);
    const list = await call('skills/list', {});
    assert.deepEqual(
      list.skills.map((s: { uri: string }) => s.uri),
      ['skill://big/SKILL.md'],
    );
    await close();
    // The burst held at most the per-client cap: its oldest sessions were closed, its newest kept.
    assert.equal(await alive(server.url, burst.ids[0]!), false);
    assert.equal(await alive(server.url, burst.ids.at(-1)!), true);
  });

  test(`${framework}: a burst from one authenticated client leaves another client's idle session alone`, { timeout: 180_000 }, async (t) => {
    const served = await serveWithAuth(framework);
    t.after(() => served.close());
    const alice = await connectClient(served.url, { 'x-client': 'alice' });
    t.after(() => alice.close());
    assert.equal((await alice.call('skills/list', {})).skills.length, 1);

    const burst = await initializeBurst(served.url, BURST, { 'x-client': 'mallory' });
    assert.deepEqual([...burst.statuses], [[200, BURST]]);
    const kept = (await Promise.all(burst.ids.slice(-150).map((id) => alive(served.url, id)))).filter(Boolean).length;
    assert.equal(kept, 100, 'mallory keeps her 100 most recent sessions (the per-client cap)');

    // Alice's session, idle all along, still answers; and a new client gets in.
    assert.equal((await alice.call('skills/list', {})).skills.length, 1);
    const bob = await connectClient(served.url, { 'x-client': 'bob' });
    assert.equal((await bob.call('skills/get', { uri: 'skill://alpha/SKILL.md' })).skill.uri, 'skill://alpha/SKILL.md');
    await bob.close();
  });
}

test('a client whose sessions are all busy is refused with 429, and others still get in', async (t) => {
  const served = await serveWithAuth('express', { maxSessionsPerClient: 2 });
  t.after(() => served.close());
  // Two sessions with an open GET stream each: busy, so neither may be replaced.
  const streams: AbortController[] = [];
  t.after(() => {
    for (const s of streams) s.abort();
  });
  for (const id of (await initializeBurst(served.url, 2, { 'x-client': 'mallory' })).ids) {
    const abort = new AbortController();
    streams.push(abort);
    const res = await fetch(served.url, {
      headers: { accept: 'text/event-stream', 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25', 'x-client': 'mallory' },
      signal: abort.signal,
    });
    assert.equal(res.status, 200);
  }
  const third = await initializeBurst(served.url, 1, { 'x-client': 'mallory' });
  assert.deepEqual([...third.statuses], [[429, 1]]);
  const other = await initializeBurst(served.url, 1, { 'x-client': 'alice' });
  assert.deepEqual([...other.statuses], [[200, 1]]);
});
