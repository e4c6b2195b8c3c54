/**
 * JSON-RPC batches exist only in protocol 2025-03-26: refused on later versions, and capped in
 * length where they exist. A 9 KB batch of 100 reads of a large file was the lever of a memory
 * blow-up.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { memoryStorage } from '@skillmount/core';
import { send, jsonRpcMessages, type RawResponse } from './raw-http.js';
import { FRAMEWORKS, serve } from './servers.js';
import { openSession, readBatch } from './attacks.js';

const SKILLS = { 'alpha/SKILL.md': '---\nname: alpha\ndescription: Alpha.\n---\nbody\n' };
const URI = 'skill://alpha/SKILL.md';

function answered(answer: RawResponse): Extract<RawResponse, { kind: 'response' }> {
  assert.equal(answer.kind, 'response', JSON.stringify(answer));
  return answer as Extract<RawResponse, { kind: 'response' }>;
}

function refusal(answer: RawResponse): { status: number; code: number; message: string } {
  const response = answered(answer);
  const error = JSON.parse(response.text).error;
  return { status: response.status, code: error.code, message: error.message };
}

for (const framework of FRAMEWORKS) {
  for (const sessions of [false, true]) {
    test(`${framework}${sessions ? ' (sessions)' : ''}: batches are refused on 2025-06-18 and later, capped at 32 on 2025-03-26`, async () => {
      const served = await serve(framework, { storage: memoryStorage(SKILLS), onWarning: () => {}, sessions });
      try {
        const session: Record<string, string> = sessions ? { 'mcp-session-id': await openSession(served.url, '2025-03-26') } : {};

        for (const version of ['2025-06-18', '2025-11-25']) {
          const answer = refusal(await send(served.url, { headers: { ...session, 'mcp-protocol-version': version }, body: readBatch(URI, 2) }));
          assert.equal(answer.status, 400);
          assert.equal(answer.code, -32600);
          assert.match(answer.message, new RegExp(`protocol version "${version}" has no JSON-RPC batches.*send one message per request`));
        }
        // A 2026-07-28 request takes the modern path, which refuses batches with the same code.
        const modern = refusal(await send(served.url, { headers: { ...session, 'mcp-protocol-version': '2026-07-28' }, body: readBatch(URI, 2) }));
        assert.equal(modern.status, 400);
        assert.equal(modern.code, -32600);
        assert.match(modern.message, /protocol 2026-07-28 has no JSON-RPC batches; send one request per HTTP POST/);

        // No header means 2025-03-26, as the spec says: batches up to the cap are served.
        for (const headers of [{}, { 'mcp-protocol-version': '2025-03-26' }]) {
          const ok = answered(await send(served.url, { headers: { ...session, ...headers }, body: readBatch(URI, 32) }));
          assert.equal(ok.status, 200, ok.text);
          const messages = jsonRpcMessages(ok) as { id: number; result?: { contents: { text: string }[] } }[];
          assert.equal(messages.length, 32);
          assert.ok(messages.every((m) => m.result?.contents[0]?.text.includes('name: alpha')));

          // The attack's shape: 100 reads in one 9 KB request.
          const over = refusal(await send(served.url, { headers: { ...session, ...headers }, body: readBatch(URI, 100) }));
          assert.equal(over.status, 400);
          assert.equal(over.code, -32600);
          assert.match(over.message, /the batch holds 100 messages, over the 32 this endpoint takes in one request; split it/);
        }

        // An initialize inside a batch speaks for itself.
        const init = {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '0' } },
        };
        const batchedInit = refusal(await send(served.url, { body: JSON.stringify([init, { jsonrpc: '2.0', id: 2, method: 'ping' }]) }));
        assert.equal(batchedInit.code, -32600);
        assert.match(batchedInit.message, /"2025-11-25" has no JSON-RPC batches/);

        // Single messages on every version are untouched.
        const single = answered(
          await send(served.url, {
            headers: { ...session, 'mcp-protocol-version': '2025-11-25' },
            body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'resources/read', params: { uri: URI } }),
          }),
        );
        assert.equal(single.status, 200, single.text);
      } finally {
        await served.close();
      }
    });
  }
}
