/**
 * The CORS examples of both adapters (docs/guide/hosts.md), run as written (`node cors.mjs`): the preflight from
 * the listed origin is answered with MCP's headers, a client sending that Origin lists the
 * skills, and another origin is refused by the Origin check.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { connectClient } from '../support/client.js';
import { exampleLocation, startDocExample } from '../support/doc-example.js';

const ORIGIN = 'https://app.example.com';

for (const pkg of ['fastify', 'express'] as const) {
  test(`${exampleLocation(pkg, 'cors.mjs')}: the listed origin gets CORS grants and skills, another gets 403`, { timeout: 120_000 }, async () => {
    const app = await startDocExample(pkg, 'cors.mjs');
    try {
      const pre = await fetch(app.url, {
        method: 'OPTIONS',
        headers: { origin: ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,authorization,mcp-session-id' },
      });
      assert.equal(pre.status, 204);
      assert.equal(pre.headers.get('access-control-allow-origin'), ORIGIN);
      assert.match(pre.headers.get('access-control-allow-headers') ?? '', /Authorization.*Mcp-Session-Id/);

      const { call, close } = await connectClient(app.url, { origin: ORIGIN });
      try {
        assert.equal((await call('skills/list', {})).skills.length, 3);
      } finally {
        await close();
      }
      const other = await fetch(app.url, {
        method: 'POST',
        headers: { origin: 'https://evil.example', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
      assert.equal(other.status, 403);
      assert.equal(other.headers.get('access-control-allow-origin'), null);
      await other.body?.cancel();
      assert.equal(app.stderr(), '');
    } finally {
      await app.stop();
    }
  });
}
