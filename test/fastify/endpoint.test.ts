/**
 * What only the Fastify plugin has: its route lives in an encapsulated context, so its body parser
 * stays off the app's own routes. Every behaviour both adapters share is in test/adapters.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fsStorage } from '@skillmount/storage-fs';
import { EXAMPLES } from '../support/skills-suite.js';
import { startApp } from './app.js';

test("the endpoint's JSON parser stays in its own context: the app's routes keep Fastify's", async () => {
  const { app, url } = await startApp({ storage: fsStorage(EXAMPLES), onWarning: () => {} }, (app) => {
    app.post('/echo', async (request) => request.body);
    app.post('/text', async (request) => ({ got: request.body }));
  });
  try {
    const headers = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
    const mcp = await fetch(url, { method: 'POST', headers, body: '{"a":' });
    assert.equal(mcp.status, 400);
    assert.equal(((await mcp.json()) as any).error.code, -32700, 'the endpoint answers in JSON-RPC form');

    const echo = await fetch(url.replace('/mcp', '/echo'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":' });
    assert.equal(echo.status, 400);
    assert.equal(((await echo.json()) as any).code, 'FST_ERR_CTP_INVALID_JSON_BODY', "the app's routes keep Fastify's JSON parser");
    // The endpoint takes JSON only; the app's routes keep Fastify's text/plain parser.
    const text = await fetch(url.replace('/mcp', '/text'), { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' });
    assert.deepEqual(await text.json(), { got: 'hello' });
  } finally {
    await app.close();
  }
});

test("headers the app's hooks set on the reply reach the endpoint's answers, on both protocol eras, and the answers stay whole", async () => {
  const { app, url } = await startApp({ storage: fsStorage(EXAMPLES), sessions: true, onWarning: () => {} }, (app) => {
    app.addHook('onRequest', async (_request, reply) => {
      reply.header('x-frame-options', 'DENY').header('x-ratelimit-remaining', 41).header('content-length', '1');
    });
  });
  try {
    const headers = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
    // A session's initialize is answered by the SDK's transport; the length a hook set is not the answer's.
    const legacy = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    });
    assert.equal(legacy.status, 200);
    assert.equal(legacy.headers.get('x-frame-options'), 'DENY');
    assert.equal(legacy.headers.get('x-ratelimit-remaining'), '41');
    assert.match(await legacy.text(), /"serverInfo"/, 'the whole answer, not one byte of it');

    const modern = await fetch(url, {
      method: 'POST',
      headers: { ...headers, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'skills/list' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'skills/list',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
      }),
    });
    assert.equal(modern.status, 200);
    assert.equal(modern.headers.get('x-frame-options'), 'DENY');
    assert.equal(((await modern.json()) as { result: { skills: unknown[] } }).result.skills.length, 3);
  } finally {
    await app.close();
  }
});
