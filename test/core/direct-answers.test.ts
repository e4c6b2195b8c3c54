/**
 * The endpoint answers 2025-11-25 skills requests from the source, with no SDK server or
 * transport per request. Every answer must be the one a plain SDK v1 server with the skills
 * attached gives (status, content type, the JSON-RPC message), and every request the SDK treats
 * its own way must still reach the SDK. Real sockets on both sides.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SkillCatalog, attach, createSkillsEndpoint, memoryStorage, type SkillContext, type SkillSource } from '@skillmount/core';
import { statelessTransport } from '../support/stateless-route.ts';
import { keepIdleConnections } from '../support/apps.js';

const SKILL = '---\nname: demo\ndescription: A demo skill.\n---\nBody.\n';
const FILES = { 'demo/SKILL.md': SKILL, 'demo/references/a.md': 'A.\n', 'demo/assets/logo.bin': new Uint8Array([0, 1, 2, 255]) };
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };

interface Served {
  url: string;
  close(): Promise<void>;
}

async function listen(handler: http.RequestListener): Promise<Served & { server: http.Server }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => keepIdleConnections(server).listen(0, '127.0.0.1', resolve));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** What an app writes with the SDK alone: a server per POST, the skills attached, the SDK's transport. */
function plainSdk(source: SkillSource): Promise<Served> {
  return listen(async (req, res) => {
    const server = new McpServer({ name: 'plain', version: '1.0.0' });
    attach(server, source);
    const transport = await statelessTransport(server, res);
    await transport.handleRequest(req, res);
  });
}

async function ours(source: SkillSource, options: { sessions?: boolean; server?: () => McpServer } = {}): Promise<Served> {
  const endpoint = createSkillsEndpoint({ source, ...options });
  const served = await listen((req, res) => void endpoint.handle(req, res, undefined).catch(() => undefined));
  return {
    url: served.url,
    async close() {
      await endpoint.close();
      await served.close();
    },
  };
}

interface Answer {
  status: number;
  type: string | null;
  sessionId: string | null;
  message: unknown;
}

async function post(url: string, body: unknown, headers: Record<string, string> = HEADERS): Promise<Answer> {
  const response = await fetch(url, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await response.text();
  const data = text.split('\n').find((line) => line.startsWith('data: '));
  const message = data ? JSON.parse(data.slice(6)) : text ? JSON.parse(text) : undefined;
  return { status: response.status, type: response.headers.get('content-type'), sessionId: response.headers.get('mcp-session-id'), message };
}

const request = (id: number | string, method: string, params?: unknown) => ({ jsonrpc: '2.0', id, method, ...(params !== undefined ? { params } : {}) });

/** Requests the endpoint answers itself: good ones, and ones its handlers refuse. */
const SKILLS_REQUESTS = [
  request(1, 'skills/list'),
  request(2, 'skills/list', { cursor: 'not-a-cursor' }),
  request('three', 'skills/list', { _meta: { note: 'kept' } }),
  request(4, 'skills/get', { uri: 'skill://demo/SKILL.md' }),
  request(5, 'skills/get', { uri: 'skill://nope/SKILL.md' }),
  request(6, 'skills/get', {}),
  request(7, 'skills/get', { uri: 42 }),
  request(8, 'resources/read', { uri: 'skill://demo/SKILL.md' }),
  request(9, 'resources/read', { uri: 'skill://demo/assets/logo.bin' }),
  request(10, 'resources/read', { uri: 'skill://demo/references/missing.md' }),
  request(11, 'resources/directory/read', { uri: 'skill://demo/references' }),
  request(12, 'resources/directory/read', { uri: 'skill://demo/nothing' }),
];

/** Requests the SDK treats its own way, so they must reach it and be answered as it answers them. */
const SDK_REQUESTS: { what: string; body: unknown; headers?: Record<string, string> }[] = [
  { what: 'an Accept header without text/event-stream', body: request(1, 'skills/list'), headers: { ...HEADERS, accept: 'application/json' } },
  { what: 'a field JSON-RPC does not have', body: { ...request(1, 'skills/list'), extra: true } },
  { what: 'a fractional id', body: request(1.5, 'skills/list') },
  { what: 'params that are an array', body: request(1, 'skills/list', []) },
  { what: 'a URI with dot segments', body: request(1, 'resources/read', { uri: 'skill://demo/references/../SKILL.md' }) },
  { what: 'a URI that is not a URL', body: request(1, 'resources/read', { uri: 'skill://demo/a b.md' }) },
  { what: 'a URI the skills do not serve', body: request(1, 'resources/read', { uri: 'file:///etc/passwd' }) },
  { what: 'a URI longer than the handlers take', body: request(1, 'resources/read', { uri: `skill://demo/${'a'.repeat(9000)}.md` }) },
  { what: 'another method', body: request(1, 'tools/list') },
  { what: 'a notification', body: { jsonrpc: '2.0', method: 'notifications/initialized' } },
  { what: 'a body that is not JSON-RPC', body: { hello: 'world' } },
  // The SDK's schema refuses these _meta shapes with 400; they were once answered from the source.
  { what: 'a progressToken that is an object', body: request(1, 'skills/list', { _meta: { progressToken: {} } }) },
  { what: 'a fractional progressToken', body: request(1, 'skills/get', { uri: 'skill://demo/SKILL.md', _meta: { progressToken: 1.5 } }) },
  { what: 'a related task that is a number', body: request(1, 'skills/list', { _meta: { 'io.modelcontextprotocol/related-task': 7 } }) },
];

test('2025-11-25 skills requests: the same answers as a plain SDK server with the skills attached, stateless and in a session', async () => {
  const catalog = await SkillCatalog.load(memoryStorage(FILES));
  const reference = await plainSdk(catalog);
  const stateless = await ours(catalog);
  const withSessions = await ours(catalog, { sessions: true });
  try {
    const init = await post(
      withSessions.url,
      request(0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } }),
    );
    const sessionId = init.sessionId;
    assert.ok(sessionId, 'the session opened');
    for (const body of SKILLS_REQUESTS) {
      const expected = await post(reference.url, body);
      assert.equal(expected.status, 200);
      assert.equal(expected.type, 'text/event-stream');
      assert.deepEqual(await post(stateless.url, body), expected, `stateless ${JSON.stringify(body)}`);
      const inSession = await post(withSessions.url, body, { ...HEADERS, 'mcp-session-id': sessionId });
      assert.deepEqual(inSession, { ...expected, sessionId }, `session ${JSON.stringify(body)}`);
    }
  } finally {
    await Promise.all([reference.close(), stateless.close(), withSessions.close()]);
  }
});

test("2025-11-25: requests the SDK treats its own way still reach it; a skills request runs the app's factory once and needs no transport", async () => {
  const catalog = await SkillCatalog.load(memoryStorage(FILES));
  let built = 0;
  const server = () => {
    built++;
    return new McpServer({ name: 'plain', version: '1.0.0' });
  };
  const reference = await plainSdk(catalog);
  const stateless = await ours(catalog, { server });
  try {
    for (const body of SKILLS_REQUESTS) assert.deepEqual(await post(stateless.url, body), await post(reference.url, body), JSON.stringify(body));
    // The factory's own checks hold for skills requests too; the answer then comes from the source.
    assert.equal(built, SKILLS_REQUESTS.length, "each skills request ran the app's factory once");
    for (const { what, body, headers } of SDK_REQUESTS) {
      const before = built;
      const expected = await post(reference.url, body, headers);
      const answer = await post(stateless.url, body, headers);
      assert.equal(answer.status, expected.status, what);
      assert.deepEqual(answer.message, expected.message, what);
      assert.equal(built, before + 1, `${what}: answered by a server from the app's factory`);
    }
  } finally {
    await Promise.all([reference.close(), stateless.close()]);
  }
});

test("2025-11-25 skills requests: the source gets the request's context (auth, headers, session id, the app's fields) and a signal that aborts when the client goes away", async () => {
  const catalog = await SkillCatalog.load(memoryStorage(FILES));
  const seen: SkillContext[] = [];
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let entered!: () => void;
  const reading = new Promise<void>((resolve) => (entered = resolve));
  const source: SkillSource = {
    list: (params, ctx) => {
      seen.push(ctx!);
      return catalog.list(params);
    },
    get: (uri) => catalog.get(uri),
    read: async (uri, ctx) => {
      seen.push(ctx!);
      entered();
      await held;
      return catalog.read(uri);
    },
  };
  const endpoint = createSkillsEndpoint({ source, sessions: true });
  const served = await listen((req, res) => {
    (req as { auth?: unknown }).auth = { token: 't', clientId: 'client-1', scopes: [] };
    void endpoint.handle(req, res, undefined, { tenant: 'acme' }).catch(() => undefined);
  });
  try {
    // The client declares the Skills extension, so its initialize lists nothing (instructions: 'auto'): seen[0] is skills/list's.
    const capabilities = { extensions: { 'io.modelcontextprotocol/skills': {} } };
    const init = await post(served.url, request(0, 'initialize', { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 't', version: '1' } }));
    const headers = { ...HEADERS, 'mcp-session-id': init.sessionId!, 'x-trace': 'trace-1' };
    assert.equal((await post(served.url, request(1, 'skills/list'), headers)).status, 200);
    const listed = seen[0]!;
    assert.equal(listed.sessionId, init.sessionId);
    assert.equal(listed.auth?.clientId, 'client-1');
    assert.equal(listed.headers['x-trace'], 'trace-1');
    assert.equal(listed.tenant, 'acme');

    const gone = new AbortController();
    const abandoned = fetch(served.url, {
      method: 'POST',
      headers,
      body: JSON.stringify(request(2, 'resources/read', { uri: 'skill://demo/SKILL.md' })),
      signal: gone.signal,
    });
    await reading;
    const readCtx = seen[1]!;
    assert.equal(readCtx.signal?.aborted, false);
    gone.abort();
    await assert.rejects(abandoned);
    await new Promise<void>((resolve) => (readCtx.signal!.aborted ? resolve() : readCtx.signal!.addEventListener('abort', () => resolve())));
    release();
    // The endpoint keeps answering after an abandoned request.
    assert.equal((await post(served.url, request(3, 'skills/list'), headers)).status, 200);
  } finally {
    release();
    await endpoint.close();
    await served.close();
  }
});

test('2025-11-25 session: notifications/cancelled stops a skills request answered from the source, and no answer is sent for it', async () => {
  const catalog = await SkillCatalog.load(memoryStorage(FILES));
  let entered!: (signal: AbortSignal) => void;
  const reading = new Promise<AbortSignal>((resolve) => (entered = resolve));
  const source: SkillSource = {
    list: (params) => catalog.list(params),
    get: (uri) => catalog.get(uri),
    read: async (uri, ctx) => {
      if (!uri.endsWith('/a.md')) return catalog.read(uri);
      entered(ctx!.signal!);
      // A source that honours the signal: it gives up when the request is cancelled.
      await new Promise<void>((_, reject) => ctx!.signal!.addEventListener('abort', () => reject(new Error('aborted'))));
      throw new Error('unreachable');
    },
  };
  const served = await ours(source, { sessions: true });
  try {
    const init = await post(served.url, request(0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } }));
    const headers = { ...HEADERS, 'mcp-session-id': init.sessionId! };
    const slow = fetch(served.url, { method: 'POST', headers, body: JSON.stringify(request(41, 'resources/read', { uri: 'skill://demo/references/a.md' })) });
    const signal = await reading;
    assert.equal(signal.aborted, false);
    const cancel = (requestId: number) =>
      fetch(served.url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId } }) });
    assert.equal((await cancel(40)).status, 202);
    assert.equal(signal.aborted, false, 'another id does not stop it');
    assert.equal((await cancel(41)).status, 202);
    assert.equal(signal.aborted, true);
    const answer = await slow;
    assert.equal(answer.status, 200);
    assert.ok(!(await answer.text()).includes('data:'), 'no answer for a cancelled request');
    const after = await post(served.url, request(42, 'resources/read', { uri: 'skill://demo/SKILL.md' }), headers);
    assert.equal((after.message as { result: { contents: { text: string }[] } }).result.contents[0]!.text, SKILL);
  } finally {
    await served.close();
  }
});
