/**
 * Client capabilities and client info in a 2026-07-28 envelope that the SDK's schemas refuse get
 * -32602 naming the key, on skills methods and on the app's own. Before, a request the app's
 * handlers answer got -32603 (the in-process initialize refused them) and a warning per request.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SkillWarning } from '@skillmount/core';
import { modern, startTestApp } from './support.js';

const CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';

for (const framework of ['fastify', 'express'] as const) {
  test(`${framework}: invalid client capabilities or client info in the envelope get -32602 and no warning`, async () => {
    const warnings: SkillWarning[] = [];
    const app = await startTestApp(framework, { sessions: false, onWarning: (w) => warnings.push(w) });
    try {
      const cases = [
        { key: CAPABILITIES, meta: { [CAPABILITIES]: { roots: 5 } } },
        { key: CAPABILITIES, meta: { [CAPABILITIES]: { sampling: 'yes' } } },
        { key: CLIENT_INFO, meta: { [CLIENT_INFO]: { name: 'x', version: '1', title: 7 } } },
      ];
      for (const { key, meta } of cases) {
        for (const [method, params] of [
          ['tools/call', { name: 'add', arguments: { a: 1, b: 2 } }],
          ['tools/list', {}],
          ['skills/list', {}],
        ] as const) {
          for (let i = 0; i < 3; i++) {
            const { status, message } = await modern(app.url, method, params, { meta });
            const where = `${method} ${JSON.stringify(meta)}: ${JSON.stringify(message)}`;
            assert.equal(status, 400, where);
            assert.equal(message.error?.code, -32602, where);
            assert.equal(message.error.data?.envelope?.key, key, where);
          }
        }
      }
      // Capabilities the schema takes (and ones it does not know) still work.
      const fine = await modern(
        app.url,
        'tools/call',
        { name: 'add', arguments: { a: 1, b: 2 } },
        { meta: { [CAPABILITIES]: { roots: { listChanged: true }, somethingNew: {} } } },
      );
      assert.equal(fine.status, 200, JSON.stringify(fine.message));
      assert.deepEqual(warnings, [], 'nothing was logged for requests the client got wrong');
    } finally {
      await app.close();
    }
  });
}

for (const framework of ['fastify', 'express'] as const) {
  // The timeout turns the old failure (no answer at all) into a failure rather than a hang.
  test(`${framework}: a _meta the SDK's request schema refuses (a progressToken of null) gets -32602 on every method, never no answer`, {
    timeout: 30_000,
  }, async () => {
    const app = await startTestApp(framework, { sessions: false });
    try {
      for (const progressToken of [null, 1.5, {}, true]) {
        for (const [method, params] of [
          ['tools/list', {}],
          ['tools/call', { name: 'add', arguments: { a: 1, b: 2 } }],
          ['skills/list', {}],
          ['resources/read', { uri: 'skill://acme/billing/refunds/SKILL.md' }],
        ] as const) {
          // The app's handlers answered nothing for such a request: the SDK dropped it, and the client waited until it gave up.
          const { status, message } = await modern(app.url, method, params, { meta: { progressToken } });
          const where = `${method} progressToken ${JSON.stringify(progressToken)}: ${JSON.stringify(message)}`;
          assert.equal(status, 400, where);
          assert.equal(message.error?.code, -32602, where);
          assert.deepEqual(message.error.data?.envelope, { key: 'progressToken', problem: 'not a string or an integer' }, where);
        }
      }
      const fine = await modern(app.url, 'tools/list', {}, { meta: { progressToken: 'p-1' } });
      assert.equal(fine.status, 200, JSON.stringify(fine.message));
    } finally {
      await app.close();
    }
  });
}
