/**
 * CORS in front of the skills endpoint (the apps of cors-apps.ts): the framework's own CORS
 * library from `MCP_CORS_OPTIONS`, the app's bearer check, `allowedHosts` pinned to the endpoint's
 * name and `allowedOrigins` naming the browser host's origin. Node's fetch
 * sends an `Origin` as a page would; the browser test shows what a real page may then read.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { MCP_CORS_OPTIONS } from '@skillmount/core';
import { SkillsClient } from '@skillmount/core/client';
import type { Listening } from './apps.js';
import { CHALLENGE, TOKEN } from './cors-apps.js';
import { exampleFiles } from './skills-suite.js';

/** The browser host's origin, allowed by both the CORS layer and `allowedOrigins`. */
export const ALLOWED_ORIGIN = 'https://app.example.test';
export const OTHER_ORIGIN = 'https://evil.example.test';
/** Starts the framework's app of cors-apps.ts for `ALLOWED_ORIGIN`. */
export type StartCorsApp = () => Promise<Listening>;

const ALL_REQUEST_HEADERS = MCP_CORS_OPTIONS.allowedHeaders.map((h) => h.toLowerCase());
const split = (value: string | null) =>
  (value ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);

function preflight(url: string, origin: string, method = 'POST', headers = ALL_REQUEST_HEADERS): Promise<Response> {
  return fetch(url, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers.join(',') },
  });
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'cors-test', version: '1' } },
});

export function corsSuite(framework: string, start: StartCorsApp): void {
  let app: Listening;
  before(async () => {
    app = await start();
  });
  after(() => app?.close());

  test(`${framework}: a preflight from the allowed origin is answered by the CORS library with MCP's methods and headers, before any auth`, async () => {
    for (const method of ['POST', 'GET', 'DELETE']) {
      const answer = await preflight(app.url, ALLOWED_ORIGIN, method);
      assert.equal(answer.status, 204, `${method}: a preflight never carries the token, and must not meet the bearer check or our guard`);
      assert.equal(answer.headers.get('access-control-allow-origin'), ALLOWED_ORIGIN);
      assert.deepEqual(split(answer.headers.get('access-control-allow-methods')).sort(), ['delete', 'get', 'post']);
      assert.deepEqual(split(answer.headers.get('access-control-allow-headers')).sort(), [...ALL_REQUEST_HEADERS].sort());
      assert.ok(split(answer.headers.get('vary')).includes('origin'), 'Vary: Origin, so a cache keeps answers per origin');
    }
    assert.deepEqual(ALL_REQUEST_HEADERS.sort(), [
      'authorization',
      'content-type',
      'last-event-id',
      'mcp-method',
      'mcp-name',
      'mcp-protocol-version',
      'mcp-session-id',
    ]);
  });

  test(`${framework}: a session client from the allowed origin lists and verifies every skill, and every answer is readable cross-origin`, async () => {
    const seen: Response[] = [];
    const recording = async (input: string | URL, init?: RequestInit) => {
      const answer = await fetch(input, init);
      seen.push(answer);
      return answer;
    };
    const transport = new StreamableHTTPClientTransport(new URL(app.url), {
      requestInit: { headers: { origin: ALLOWED_ORIGIN, authorization: `Bearer ${TOKEN}` } },
      fetch: recording,
    });
    const client = new Client({ name: 'cors-host', version: '1.0.0' });
    await client.connect(transport);
    try {
      assert.match(transport.sessionId ?? '', /\S/, 'the session id came back');
      const skills = new SkillsClient(client);
      const { skills: entries } = await skills.list();
      assert.deepEqual(
        entries.map((e) => e.uri),
        ['skill://acme/billing/refunds/SKILL.md', 'skill://git-workflow/SKILL.md', 'skill://pdf-processing/SKILL.md'],
      );
      const read: string[] = [];
      for (const entry of entries) {
        for (const resource of entry.resources as { uri: string }[]) {
          const file = await skills.read(entry, resource.uri);
          assert.equal(file.verified, true, resource.uri);
          read.push(file.uri.slice('skill://'.length));
        }
      }
      assert.deepEqual(
        read.sort(),
        exampleFiles()
          .map((f) => encodeURI(f))
          .sort(),
      );
    } finally {
      await client.close();
    }
    const initialize = seen[0]!;
    assert.ok(initialize.headers.get('mcp-session-id'), 'initialize answered with Mcp-Session-Id');
    for (const answer of seen) {
      assert.equal(answer.headers.get('access-control-allow-origin'), ALLOWED_ORIGIN, `${answer.status} ${answer.url}`);
      assert.deepEqual(split(answer.headers.get('access-control-expose-headers')).sort(), ['mcp-session-id', 'www-authenticate']);
    }
    assert.ok(seen.length >= 4, `initialize, the notification, the list and the reads went through CORS (${seen.length} answers)`);
  });

  test(`${framework}: a protocol 2026-07-28 request from the allowed origin carries its Mcp-Method header and gets CORS headers`, async () => {
    const answer = await fetch(app.url, {
      method: 'POST',
      headers: {
        origin: ALLOWED_ORIGIN,
        authorization: `Bearer ${TOKEN}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'skills/list',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'skills/list',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('access-control-allow-origin'), ALLOWED_ORIGIN);
    const body = (await answer.json()) as { result: { skills: unknown[] } };
    assert.equal(body.result.skills.length, 3);
  });

  test(`${framework}: another origin gets no CORS grant from the library and a 403 from the Origin check`, async () => {
    const pre = await preflight(app.url, OTHER_ORIGIN);
    assert.equal(pre.headers.get('access-control-allow-origin'), null, 'the browser stops here: no grant for this origin');
    // A client that ignores CORS (not a browser) still meets the Origin check.
    const post = await fetch(app.url, {
      method: 'POST',
      headers: {
        origin: OTHER_ORIGIN,
        authorization: `Bearer ${TOKEN}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: INITIALIZE,
    });
    assert.equal(post.status, 403);
    assert.equal(post.headers.get('access-control-allow-origin'), null);
    const error = ((await post.json()) as { error: { code: number; message: string } }).error;
    assert.equal(error.code, -32000);
    assert.match(error.message, /Origin "https:\/\/evil\.example\.test" is not allowed.*allowedOrigins/);
    // The real client, from that origin, cannot connect.
    const client = new Client({ name: 'cors-other', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(app.url), {
      requestInit: { headers: { origin: OTHER_ORIGIN, authorization: `Bearer ${TOKEN}` } },
    });
    await assert.rejects(client.connect(transport), (error: Error & { code?: number }) => {
      assert.equal(error.code, 403);
      assert.match(error.message, /Origin \\?"https:\/\/evil\.example\.test\\?" is not allowed/);
      return true;
    });
    await client.close();
  });

  test(`${framework}: the allowed origin does not bypass the Host check (DNS rebinding)`, async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        app.url,
        {
          method: 'POST',
          headers: {
            host: 'evil.example.test',
            origin: ALLOWED_ORIGIN,
            authorization: `Bearer ${TOKEN}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(INITIALIZE);
    });
    assert.equal(status, 403);
  });

  test(`${framework}: a 401 from the app's auth reaches the page with WWW-Authenticate exposed`, async () => {
    const answer = await fetch(app.url, {
      method: 'POST',
      headers: { origin: ALLOWED_ORIGIN, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: INITIALIZE,
    });
    assert.equal(answer.status, 401);
    assert.equal(answer.headers.get('www-authenticate'), CHALLENGE);
    assert.equal(answer.headers.get('access-control-allow-origin'), ALLOWED_ORIGIN);
    assert.ok(split(answer.headers.get('access-control-expose-headers')).includes('www-authenticate'));
  });
}
