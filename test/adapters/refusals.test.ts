/**
 * What the wire carries for requests the endpoint refuses (wrong method, body, content type, Host,
 * Origin, size, session), asked of both adapters side by side: each answer is the expected one,
 * and the two adapters' answers are the same status, media type and JSON-RPC body. Where they
 * differ on purpose, the difference is pinned with the reason.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { memoryStorage } from '@skillmount/core';
import { connectClient } from '../support/client.js';
import { skillMd } from '../support/skill-md.js';
import { send, type RawRequest } from '../hostile/raw-http.js';
import { ADAPTERS, startAdapter, type AdapterKind, type AdapterOptions, type StartedAdapter } from './support.js';

const LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'skills/list', params: {} });
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});
const BODY_LIMIT = 2000;

interface Answer {
  status: number;
  /** The media type, without parameters: Fastify adds `; charset=utf-8` to the JSON it sends itself, Express does not (both are UTF-8). */
  type: string;
  allow: string | null;
  body: any;
}

/** One request on a fresh connection (raw, so a body can be chunked, or declared longer than sent). */
async function ask(url: string, request: RawRequest): Promise<Answer> {
  const answer = await send(url, request);
  assert.equal(answer.kind, 'response', JSON.stringify(answer));
  if (answer.kind !== 'response') throw new Error('no answer');
  const type = answer.contentType.split(';')[0]!;
  return { status: answer.status, type, allow: null, body: type === 'application/json' ? JSON.parse(answer.text) : answer.text };
}

/** Through fetch, for the response headers. */
async function askFetch(url: string, method: string, body?: string): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json, text/event-stream' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, { method, headers, body });
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!;
  const text = await res.text();
  return { status: res.status, type, allow: res.headers.get('allow'), body: type === 'application/json' ? JSON.parse(text) : text };
}

const rpcError = (code: number, message: string) => ({ jsonrpc: '2.0', error: { code, message }, id: null });

/** Both adapters with the same options, for the duration of `t`. */
async function both(t: { after(fn: () => Promise<void>): void }, options: AdapterOptions): Promise<Record<AdapterKind, StartedAdapter>> {
  const started = {} as Record<AdapterKind, StartedAdapter>;
  for (const kind of ADAPTERS) {
    started[kind] = await startAdapter(kind, options);
    t.after(() => started[kind].close());
  }
  return started;
}

/** `request` asked of both adapters: the same answer from each, which `check` accepts. */
async function sameAnswer(
  apps: Record<AdapterKind, StartedAdapter>,
  label: string,
  request: (url: string) => Promise<Answer>,
  check: (answer: Answer) => void,
) {
  const [fastify, express] = await Promise.all(ADAPTERS.map((kind) => request(apps[kind].url)));
  check(fastify!);
  assert.deepEqual(express, fastify, `${label}: the adapters answer alike`);
}

const skills = () => memoryStorage({ 'alpha/SKILL.md': skillMd('alpha') });

test('stateless: refusals of methods, bodies, content types, hosts, origins and sizes are the same on both adapters', async (t) => {
  const apps = await both(t, { storage: skills(), bodyLimit: BODY_LIMIT });
  const postOnly = rpcError(-32000, 'Method not allowed: this stateless MCP endpoint takes POST only');
  for (const [method, body] of [
    ['GET', undefined],
    ['DELETE', undefined],
    // An empty JSON body on DELETE, which Fastify's own parser would refuse with its own 400.
    ['DELETE', ''],
  ] as const) {
    await sameAnswer(
      apps,
      `${method} ${JSON.stringify(body)}`,
      (url) => askFetch(url, method, body),
      (answer) => assert.deepEqual(answer, { status: 405, type: 'application/json', allow: 'POST', body: postOnly }),
    );
  }
  const notJson = { status: 400, type: 'application/json', allow: null, body: rpcError(-32700, 'Parse error: the request body is not valid JSON') };
  for (const body of ['{"jsonrpc": "2.0", "method": ', '']) {
    await sameAnswer(
      apps,
      `body ${JSON.stringify(body)}`,
      (url) => ask(url, { body }),
      (answer) => assert.deepEqual(answer, notJson),
    );
  }
  // Valid JSON that is not JSON-RPC: the SDK transport's own answer.
  await sameAnswer(
    apps,
    'not JSON-RPC',
    (url) => ask(url, { body: '{"hello": "world"}' }),
    (answer) =>
      assert.deepEqual(answer, { status: 400, type: 'application/json', allow: null, body: rpcError(-32700, 'Parse error: Invalid JSON-RPC message') }),
  );
  for (const contentType of ['text/plain', 'application/x-www-form-urlencoded']) {
    await sameAnswer(
      apps,
      contentType,
      (url) => ask(url, { body: LIST, headers: { 'content-type': contentType } }),
      (answer) =>
        assert.deepEqual(answer, {
          status: 415,
          type: 'application/json',
          allow: null,
          body: rpcError(-32000, 'Unsupported Media Type: Content-Type must be application/json'),
        }),
    );
  }
  for (const [header, value] of [
    ['host', 'evil.example'],
    ['origin', 'http://evil.example'],
  ] as const) {
    await sameAnswer(
      apps,
      `${header} ${value}`,
      (url) => ask(url, { body: LIST, headers: { [header]: value } }),
      (answer) => {
        assert.equal(answer.status, 403);
        assert.equal(answer.body.error.code, -32000);
        assert.match(answer.body.error.message, /^Forbidden: (Host|Origin) ".*evil\.example" is not allowed on this endpoint .*allowedHosts/);
      },
    );
  }
  const tooLarge = rpcError(
    -32000,
    `Payload Too Large: the request body is over the ${BODY_LIMIT}-byte limit of this endpoint; send one JSON-RPC message or a small batch`,
  );
  for (const [label, request] of [
    ['sent', { body: 'x'.repeat(BODY_LIMIT + 1) }],
    ['chunked', { body: 'x'.repeat(50_000), chunked: true }],
    ['declared', { body: '{', declaredLength: 1e9 }],
  ] as const) {
    await sameAnswer(
      apps,
      `too large, ${label}`,
      (url) => ask(url, request),
      (answer) => assert.deepEqual(answer, { status: 413, type: 'application/json', allow: null, body: tooLarge }),
    );
  }
  // After all that, both still serve.
  for (const kind of ADAPTERS) {
    const { call, close } = await connectClient(apps[kind].url);
    try {
      assert.equal((await call('skills/list')).skills.length, 1, kind);
    } finally {
      await close();
    }
  }
});

test('sessions: requests without a valid session, and a malformed opening request, are refused the same on both adapters', async (t) => {
  const apps = await both(t, { storage: skills(), sessions: true });
  const noSession = rpcError(-32000, 'Bad Request: no Mcp-Session-Id header; the first request of a session must be initialize');
  const unknown = rpcError(-32001, 'Session not found: start a new session with an initialize request');
  for (const [label, request, expected] of [
    ['POST without a session', { body: LIST }, { status: 400, body: noSession }],
    ['GET without a session', { method: 'GET', headers: { accept: 'text/event-stream' } }, { status: 400, body: noSession }],
    ['DELETE without a session', { method: 'DELETE' }, { status: 400, body: noSession }],
    ['POST, unknown session', { body: LIST, headers: { 'mcp-session-id': 'no-such-session' } }, { status: 404, body: unknown }],
    ['GET, unknown session', { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': 'no-such-session' } }, { status: 404, body: unknown }],
    ['DELETE, unknown session', { method: 'DELETE', headers: { 'mcp-session-id': 'no-such-session' } }, { status: 404, body: unknown }],
    ['malformed initialize', { body: INITIALIZE.slice(0, -10) }, { status: 400, body: rpcError(-32700, 'Parse error: the request body is not valid JSON') }],
    [
      'initialize as text/plain',
      { body: INITIALIZE, headers: { 'content-type': 'text/plain' } },
      { status: 415, body: rpcError(-32000, 'Unsupported Media Type: Content-Type must be application/json') },
    ],
  ] as const) {
    await sameAnswer(
      apps,
      label,
      (url) => ask(url, request),
      (answer) => assert.deepEqual(answer, { ...expected, type: 'application/json', allow: null }),
    );
  }
});

test('pinned differences: a __proto__ key, and methods MCP does not use', async (t) => {
  const apps = await both(t, { storage: skills() });
  // Fastify's route parses with Fastify's own JSON parser under the app's onProtoPoisoning setting
  // ('error' by default), so a body with a __proto__ key is refused as not JSON. Express's router
  // parses with JSON.parse, which keeps __proto__ as a plain key: the body is then refused as what
  // it is, not a JSON-RPC message. Both are -32700.
  const proto = { fastify: 'Parse error: the request body is not valid JSON', express: 'Parse error: Invalid JSON-RPC message' };
  for (const kind of ADAPTERS) {
    assert.deepEqual(await ask(apps[kind].url, { body: '{"__proto__": {"x": 1}, "jsonrpc": "2.0", "id": 1, "method": "ping"}' }), {
      status: 400,
      type: 'application/json',
      allow: null,
      body: rpcError(-32700, proto[kind]),
    });
  }
  // PUT, PATCH, OPTIONS: not MCP's, so each framework's own not-found handler answers (the app's, when it sets one,
  // such as a CORS preflight): a JSON object on Fastify, an HTML page on Express.
  for (const method of ['PUT', 'PATCH', 'OPTIONS']) {
    for (const kind of ADAPTERS) {
      const answer = await askFetch(apps[kind].url, method, method === 'OPTIONS' ? undefined : LIST);
      assert.equal(answer.status, 404, `${kind} ${method}`);
      if (kind === 'fastify') assert.deepEqual(answer.body, { message: `Route ${method}:/mcp not found`, error: 'Not Found', statusCode: 404 });
      else assert.match(answer.body, new RegExp(`Cannot ${method} /mcp`));
    }
  }
});
