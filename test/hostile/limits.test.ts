import { test } from 'node:test';
import assert from 'node:assert/strict';
import express from 'express';
import Fastify from 'fastify';
import { memoryStorage } from '@skillmount/core';
import skillsPlugin from '@skillmount/fastify';
import { skillsMiddleware } from '@skillmount/express';
import { listenExpress, listenFastify } from '../support/apps.js';
import { send, type RawResponse } from './raw-http.js';
import { FRAMEWORKS, serve } from './servers.js';

const SKILLS = { 'alpha/SKILL.md': '---\nname: alpha\ndescription: Alpha.\n---\nbody\n' };

/** A skills/get whose body is exactly `bytes` long. */
function getOfSize(bytes: number): string {
  const empty = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'skills/get', params: { uri: 'skill://alpha/' } });
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'skills/get', params: { uri: `skill://alpha/${'x'.repeat(bytes - empty.length)}` } });
}

function status(answer: RawResponse): number {
  assert.equal(answer.kind, 'response', JSON.stringify(answer));
  return answer.kind === 'response' ? answer.status : 0;
}

function errorOf(answer: RawResponse): { code: number; message: string } {
  assert.ok(answer.kind === 'response');
  return JSON.parse(answer.text).error;
}

for (const framework of FRAMEWORKS) {
  test(`${framework}: bodyLimit refuses larger bodies with 413 and a JSON-RPC error, declared or chunked`, async () => {
    const served = await serve(framework, { storage: memoryStorage(SKILLS), onWarning: () => {}, bodyLimit: 2000 });
    try {
      assert.equal(getOfSize(2000).length, 2000);
      assert.equal(status(await send(served.url, { body: getOfSize(2000) })), 200, 'at the limit');
      for (const request of [{ body: getOfSize(2001) }, { body: getOfSize(50_000), chunked: true }, { body: '{', declaredLength: 1e9 }]) {
        const answer = await send(served.url, request);
        assert.equal(status(answer), 413);
        assert.equal(errorOf(answer).code, -32000);
        assert.match(errorOf(answer).message, /over the 2000-byte limit/);
      }
      const list = await send(served.url, { body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'skills/list' }) });
      assert.equal(status(list), 200, 'still answering');
    } finally {
      await served.close();
    }
  });
}

test("fastify: the route's bodyLimit applies on the MCP route, whatever the app's", async () => {
  const app = Fastify({ bodyLimit: 100 });
  await app.register(skillsPlugin, { storage: memoryStorage(SKILLS), onWarning: () => {} });
  const { url } = await listenFastify(app);
  try {
    assert.equal(status(await send(url, { body: getOfSize(5000) })), 200);
    assert.equal(status(await send(url, { body: getOfSize(2 * 1024 * 1024) })), 413);
  } finally {
    await app.close();
  }
});

test('express: an app-level express.json() reads first with its own limit; a declared body over bodyLimit is still refused', async () => {
  for (const [parser, big, expected] of [
    [express.json(), 200_000, 'html 413'],
    [express.json({ limit: '10mb' }), 2 * 1024 * 1024, 'json-rpc 413'],
  ] as const) {
    const skills = skillsMiddleware({ storage: memoryStorage(SKILLS), onWarning: () => {} });
    const app = express();
    app.use(parser);
    app.use('/mcp', skills);
    // The app's own error page, as express.json() errors reach it (quiet, unlike the default one).
    app.use((error: { status?: number }, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res
        .status(error.status ?? 500)
        .type('html')
        .send('<p>refused</p>');
    });
    const http = await listenExpress(app);
    try {
      const url = http.url;
      assert.equal(status(await send(url, { body: getOfSize(5000) })), 200, 'a parsed body is taken');
      const answer = await send(url, { body: getOfSize(big) });
      assert.equal(status(answer), 413);
      assert.ok(answer.kind === 'response');
      assert.equal(answer.contentType.startsWith('application/json') ? 'json-rpc 413' : 'html 413', expected);
    } finally {
      await skills.close();
      await http.close();
    }
  }
});
