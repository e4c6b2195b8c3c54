/**
 * Session mode at the global cap: a new session takes the slot of the client holding the most
 * sessions, never of a client holding fewer than the newcomer would. Before, it took the globally
 * least recently used idle session: 11 addresses (or 11 freely registered OAuth client ids) at
 * 100 sessions each evicted every established client's session. Clients are told apart by the
 * framework's address, which honours the app's trusted-proxy setting, or by `auth.clientId`.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { test } from 'node:test';
import express from 'express';
import Fastify from 'fastify';
import { memoryStorage } from '@skillmount/core';
import skillsPlugin from '@skillmount/fastify';
import { skillsMiddleware } from '@skillmount/express';
import { clientAddress, type From, postFrom } from '../support/addresses.js';
import { listenExpressSkills, listenFastify } from '../support/apps.js';
import { FRAMEWORKS, type Framework } from './servers.js';

const SKILLS = { 'alpha/SKILL.md': '---\nname: alpha\ndescription: Alpha.\n---\nbody\n' };
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fairness', version: '0' } },
};

interface Setup {
  limits: { maxSessions: number; maxSessionsPerClient: number };
  /** Fastify's `trustProxy` / Express's `trust proxy`. */
  trustProxy?: boolean;
  /** Name the client from an `x-client` header through an auth layer (`auth.clientId`). */
  auth?: boolean;
}

async function serve(framework: Framework, setup: Setup): Promise<{ url: string; close(): Promise<void> }> {
  const options = { storage: memoryStorage(SKILLS), sessions: true, onWarning: () => {}, ...setup.limits };
  const authOf = (header: unknown) => ({ token: 't', clientId: String(header), scopes: [] });
  if (framework === 'fastify') {
    const app = Fastify({ trustProxy: setup.trustProxy === true });
    if (setup.auth) {
      app.addHook('onRequest', async (req) => {
        (req.raw as typeof req.raw & { auth?: unknown }).auth = authOf(req.headers['x-client']);
      });
    }
    await app.register(skillsPlugin, options);
    return listenFastify(app);
  }
  const app = express();
  app.set('trust proxy', setup.trustProxy === true);
  if (setup.auth) {
    app.use((req, _res, next) => {
      (req as typeof req & { auth?: unknown }).auth = authOf(req.headers['x-client']);
      next();
    });
  }
  const skills = skillsMiddleware(options);
  return listenExpressSkills(app, skills);
}

/** Initialize a session from `from`: its id, or the refusal's status. */
async function initialize(url: string, from: From): Promise<{ status: number; id?: string; text: string }> {
  const answer = await postFrom(url, INITIALIZE, from);
  const id = answer.headers['mcp-session-id'];
  return { status: answer.status, text: answer.text, ...(typeof id === 'string' ? { id } : {}) };
}

/** Whether a session still answers a ping (200), or is gone (404). */
async function alive(url: string, id: string, from: From): Promise<boolean> {
  const answer = await postFrom(
    url,
    { jsonrpc: '2.0', id: 2, method: 'ping' },
    { ...from, headers: { ...from.headers, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' } },
  );
  assert.ok(answer.status === 200 || answer.status === 404, `ping answered ${answer.status}: ${answer.text}`);
  return answer.status === 200;
}

/** Keep the session's GET event stream open (the session is busy, so it may not be evicted); resolves once it is open. */
function holdOpen(url: string, id: string, from: From, t: { after(fn: () => void): void }): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      agent: false,
      ...(from.localAddress ? { localAddress: from.localAddress } : {}),
      headers: { accept: 'text/event-stream', 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25', ...from.headers },
    });
    t.after(() => req.destroy());
    req.on('error', reject);
    req.on('response', (res) => {
      if (res.statusCode !== 200) reject(new Error(`GET stream answered ${res.statusCode}`));
      else resolve();
    });
    req.end();
  });
}

/** Every session of `count` flooding clients, `each` per client; all must be granted. */
async function flood(url: string, count: number, each: number, fromOf: (n: number) => From): Promise<{ id: string; from: From }[]> {
  const sessions = [];
  for (let n = 0; n < count; n++) {
    const from = fromOf(n);
    for (const answer of await Promise.all(Array.from({ length: each }, () => initialize(url, from)))) {
      assert.equal(answer.status, 200, answer.text);
      sessions.push({ id: answer.id!, from });
    }
  }
  return sessions;
}

const CLIENTS: { name: string; setup: Omit<Setup, 'limits'>; from: (n: number) => From }[] = [
  // Behind a trusted proxy: one socket address, a forwarded address per client.
  { name: 'forwarded addresses behind a trusted proxy', setup: { trustProxy: true }, from: (n) => ({ headers: { 'x-forwarded-for': `198.51.100.${n + 1}` } }) },
  { name: 'authenticated client ids', setup: { auth: true }, from: (n) => ({ headers: { 'x-client': `flood-${n}` } }) },
  { name: 'source addresses', setup: {}, from: (n) => ({ localAddress: clientAddress(n + 10) }) },
];

for (const framework of FRAMEWORKS) {
  for (const clients of CLIENTS) {
    test(`${framework}, ${clients.name}: a flood at the global cap evicts its own sessions, not an established client's`, async (t) => {
      const served = await serve(framework, { ...clients.setup, limits: { maxSessions: 20, maxSessionsPerClient: 5 } });
      t.after(() => served.close());
      // The established client: one session, used once, then idle (the least recently used of all).
      const alice = clients.from(100);
      const established = await flood(served.url, 1, 1, () => alice);
      for (const { id } of established) assert.equal(await alive(served.url, id, alice), true);

      // 10 more clients at the per-client cap: 50 sessions through a table of 20.
      const flooded = await flood(served.url, 10, 5, clients.from);
      for (const { id } of established) assert.equal(await alive(served.url, id, alice), true, "the established client's idle session survives");
      let kept = 0;
      for (const { id, from } of flooded) if (await alive(served.url, id, from)) kept++;
      assert.equal(kept, 19, 'the flood holds the rest of the table, and churned only its own sessions');
    });
  }

  test(`${framework}: without the trusted-proxy setting, X-Forwarded-For does not make new clients`, async (t) => {
    const served = await serve(framework, { limits: { maxSessions: 20, maxSessionsPerClient: 5 } });
    t.after(() => served.close());
    const forged = await flood(served.url, 8, 1, (n) => ({ localAddress: clientAddress(3), headers: { 'x-forwarded-for': `203.0.113.${n + 1}` } }));
    let kept = 0;
    for (const { id, from } of forged) if (await alive(served.url, id, from)) kept++;
    assert.equal(kept, 5, 'one address, one per-client cap, whatever the header says');
  });
}

test('at the global cap, busy sessions are kept: the next biggest holder gives way, then the newcomer is refused (503)', async (t) => {
  const served = await serve('express', { limits: { maxSessions: 4, maxSessionsPerClient: 4 } });
  t.after(() => served.close());
  const mallory = { localAddress: clientAddress(20) };
  const eve = { localAddress: clientAddress(21) };
  // Mallory holds 3 sessions, each with an open GET stream: busy.
  for (const { id } of await flood(served.url, 1, 3, () => mallory)) await holdOpen(served.url, id, mallory, t);
  const [eveSession] = await flood(served.url, 1, 1, () => eve);

  // The biggest holder's sessions are all busy; Eve holds as many as the newcomer would (1): hers goes.
  const carol = { localAddress: clientAddress(22) };
  const [carolSession] = await flood(served.url, 1, 1, () => carol);
  assert.equal(await alive(served.url, eveSession!.id, eve), false);
  await holdOpen(served.url, carolSession!.id, carol, t);

  // Now every session is busy: a newcomer is refused, and no one is evicted.
  const dave = await initialize(served.url, { localAddress: clientAddress(23) });
  assert.equal(dave.status, 503);
  assert.match(
    JSON.parse(dave.text).error.message,
    /^Too many open sessions: all 4 are busy or held by clients with no more sessions than this one; try again later$/,
  );
  assert.equal(await alive(served.url, carolSession!.id, carol), true);
});
