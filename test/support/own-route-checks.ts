/**
 * What an app's own MCP route with skills must do for real clients, stateless or with sessions:
 * the SDK v1 client (2025-11-25) with no transport error, GET and DELETE as the Streamable HTTP
 * transport expects, and the SDK v2 client pinned to 2026-07-28. Used on the documentation's examples.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { SkillsClient as ModernSkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { waitFor } from './wait.js';
import { checkSkillsEndpoint, exampleFiles } from './skills-suite.js';
import { type DocApp, exampleLocation, startDocExample } from './doc-example.js';

export type RouteMode = 'stateless' | 'sessions';

/**
 * Skills, files and the app's tool through an SDK v1 client. The client opens its GET event stream
 * on its own after connecting; that answer is waited for and must be a stream (sessions) or 405
 * (stateless), and the client must report no transport error (a 404 there is one).
 */
export async function checkLegacyClient(url: string, mode: RouteMode): Promise<void> {
  await checkSkillsEndpoint(url);
  const gets: Response[] = [];
  const errors: Error[] = [];
  const recordingFetch = async (input: string | URL, init?: RequestInit) => {
    const res = await fetch(input, init);
    if (init?.method === 'GET') gets.push(res);
    return res;
  };
  const client = new Client({ name: 'own-route-tests', version: '0.0.0' });
  client.onerror = (error) => errors.push(error);
  const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: recordingFetch });
  await client.connect(transport);
  try {
    await waitFor(() => gets.length > 0, "the client's GET event stream to be answered", 30_000);
    if (mode === 'sessions') {
      assert.match(transport.sessionId ?? '', /^[0-9a-f-]{36}$/, 'the route gave the client a session');
      assert.equal(gets[0]!.status, 200, 'GET with the session id opens the session event stream');
      assert.match(gets[0]!.headers.get('content-type') ?? '', /^text\/event-stream/);
    } else {
      assert.equal(transport.sessionId, undefined, 'a stateless route gives no session');
      assert.equal(gets[0]!.status, 405, 'GET on a stateless route: no event stream');
    }
    const listed = await client.request({ method: 'skills/list', params: {} } as never, ResultSchema);
    assert.equal((listed as { skills: unknown[] }).skills.length, 3);
    assert.deepEqual((await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).content, [{ type: 'text', text: '5' }]);
    if (mode === 'sessions') await checkSessionEnd(url, transport);
  } finally {
    await client.close();
  }
  assert.deepEqual(
    errors.map((e) => e.message),
    [],
    'the client reported no transport errors',
  );
}

/** DELETE ends the session; the ended session's id then gets 404, as the transport says a client must start over. */
async function checkSessionEnd(url: string, transport: StreamableHTTPClientTransport): Promise<void> {
  const id = transport.sessionId!;
  await transport.terminateSession();
  const after = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'skills/list', params: {} }),
  });
  assert.equal(after.status, 404, 'an ended session is not found');
  assert.match(await after.text(), /Session not found/);
}

/** A stateless route answers GET and DELETE with 405 and a JSON-RPC error, as the SDK's transport expects of it. */
export async function checkStatelessMethods(url: string): Promise<void> {
  for (const method of ['GET', 'DELETE']) {
    const res = await fetch(url, { method, headers: { accept: 'text/event-stream, application/json' } });
    assert.equal(res.status, 405, `${method} on a stateless route`);
    assert.equal(res.headers.get('allow'), 'POST');
    const body = (await res.json()) as { jsonrpc: string; error: { code: number } };
    assert.equal(body.jsonrpc, '2.0');
    assert.equal(body.error.code, -32000);
  }
}

/** The official SDK v2 client pinned to 2026-07-28: every skill listed and every file read (and verified by it), and the app's tool. */
export async function checkModernClient(url: string): Promise<void> {
  const client = new ModernClient({ name: 'own-route-tests', version: '0.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } as never } });
  await client.connect(new ModernTransport(new URL(url)));
  try {
    assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
    const skills = new ModernSkillsClient(client);
    const listing = await skills.list();
    assert.equal(listing.skills.length, 3);
    const read: string[] = [];
    for (const skill of listing.skills) {
      const root = skill.uri.slice(0, -'/SKILL.md'.length);
      for (const { uri } of skill.resources as { uri: string }[]) {
        const file = await skills.read(skill, uri.slice(root.length + 1));
        assert.equal(file.verified, true, `${uri} verified by the SDK v2 client`);
        read.push(file.uri);
      }
    }
    assert.deepEqual(
      read.sort(),
      exampleFiles().map((f) => `skill://${f}`),
    );
    const sum = await client.callTool({ name: 'add', arguments: { a: 20, b: 22 } });
    assert.deepEqual(sum.content, [{ type: 'text', text: '42' }]);
  } finally {
    await client.close();
  }
}

/** The app's console output has no skillmount warning (none of the adapters' own-route warnings fired). */
export function checkNoWarnings(stderr: string): void {
  assert.doesNotMatch(stderr, /modern-not-handled|context-not-applied|skillmount/);
}

/**
 * The "Adding skills to an existing MCP route" examples of `framework` (docs/guide/existing-route.md), run as written
 * (node own-route.mjs): real clients list and read the skills through them, stateless and with
 * sessions, on both protocol eras.
 */
export function docRouteSuite(framework: 'fastify' | 'express'): void {
  for (const [file, mode] of [
    ['own-route.mjs', 'stateless'],
    ['own-route-sessions.mjs', 'sessions'],
  ] as const) {
    describe(exampleLocation(framework, file), () => {
      let app: DocApp;
      before(async () => {
        app = await startDocExample(framework, file);
      });
      after(() => app?.stop());

      test(`an SDK v1 client lists, gets and reads every skill (${mode}), with no transport error`, async () => {
        await checkLegacyClient(app.url, mode);
      });

      if (mode === 'stateless') {
        test('GET and DELETE answer 405 with a JSON-RPC error', async () => {
          await checkStatelessMethods(app.url);
        });
      }

      test('an SDK v2 client pinned to 2026-07-28 lists and reads every skill, and calls the app tool', async () => {
        await checkModernClient(app.url);
      });

      test('the app logged no skillmount warning', () => {
        checkNoWarnings(app.stderr());
      });
    });
  }
}
