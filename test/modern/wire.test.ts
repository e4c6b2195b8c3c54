/**
 * The 2026-07-28 wire of the endpoint, request by request over real HTTP: discovery, the
 * envelope checks and their error codes, result envelopes, framing, what 2026-07-28 removed, and
 * that legacy clients on the same endpoint see no change.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { connectClient } from '../support/client.js';
import { MODERN, envelope, modern, startTestApp, type RunningApp } from './support.js';

const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

for (const framework of ['fastify', 'express'] as const) {
  describe(`2026-07-28 wire, ${framework}`, () => {
    let app: RunningApp;
    before(async () => {
      app = await startTestApp(framework);
    });
    after(() => app?.close());

    test('server/discover: both versions, the app capabilities with the skills extension, its identity and instructions', async () => {
      const { status, headers, message } = await modern(app.url, 'server/discover');
      assert.equal(status, 200);
      assert.match(headers.get('content-type')!, /^application\/json/);
      assert.equal(headers.get('mcp-session-id'), null, 'no session is minted');
      const result = message.result;
      assert.deepEqual(result.supportedVersions, ['2026-07-28', '2025-11-25']);
      assert.equal(result.resultType, 'complete');
      assert.equal(result.ttlMs, 0);
      assert.equal(result.cacheScope, 'private');
      assert.deepEqual(result.capabilities.extensions, { 'io.modelcontextprotocol/skills': { directoryRead: true } });
      assert.ok(result.capabilities.resources && result.capabilities.tools && result.capabilities.prompts);
      assert.equal(result.capabilities.resources.subscribe, undefined, 'resources/subscribe is not served on 2026-07-28');
      // A client that does not declare the Skills extension gets the app's text, then the skills section (instructions: 'auto').
      assert.ok(result.instructions.startsWith('Adds numbers; skills explain refunds.\n\n'), result.instructions);
      assert.match(result.instructions, /<skill:\/\/git-workflow\/SKILL\.md>/);
      assert.deepEqual(result._meta[SERVER_INFO], { name: 'calculator-app', version: '3.1.4' });
      const declared = { 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/skills': {} } } };
      const withExtension = await modern(app.url, 'server/discover', {}, { meta: declared });
      assert.equal(withExtension.message.result.instructions, 'Adds numbers; skills explain refunds.', 'the app text alone for a client with the extension');
    });

    test('every result carries resultType, serverInfo and, where required, cache fields', async () => {
      for (const [method, params, cached] of [
        ['skills/list', {}, true],
        ['skills/get', { uri: 'skill://git-workflow/SKILL.md' }, true],
        ['resources/read', { uri: 'skill://git-workflow/SKILL.md' }, true],
        ['resources/directory/read', { uri: 'skill://git-workflow' }, true],
        ['resources/list', {}, true],
        ['resources/templates/list', {}, true],
        ['tools/list', {}, true],
        ['prompts/list', {}, true],
        ['resources/read', { uri: 'app://readme' }, true],
        ['tools/call', { name: 'add', arguments: { a: 1, b: 1 } }, false],
        ['prompts/get', { name: 'greet', arguments: { who: 'x' } }, false],
      ] as const) {
        const { status, message } = await modern(app.url, method, params);
        const where = `${method} ${JSON.stringify(params)}: ${JSON.stringify(message)}`;
        assert.equal(status, 200, where);
        assert.equal(message.result?.resultType, 'complete', where);
        assert.deepEqual(message.result._meta[SERVER_INFO], { name: 'calculator-app', version: '3.1.4' }, where);
        if (cached) {
          assert.equal(message.result.ttlMs, 0, where);
          assert.equal(message.result.cacheScope, 'private', where);
        } else {
          assert.equal(message.result.ttlMs, undefined, where);
        }
      }
    });

    test('unknown skill or file: -32602 with the URI', async () => {
      for (const [method, uri] of [
        ['skills/get', 'skill://nope/SKILL.md'],
        ['resources/read', 'skill://git-workflow/nope.md'],
        ['resources/directory/read', 'skill://git-workflow/SKILL.md'],
      ] as const) {
        const { status, message } = await modern(app.url, method, { uri });
        assert.equal(status, 200);
        assert.equal(message.error?.code, -32602, `${method} ${uri}: ${JSON.stringify(message)}`);
        assert.equal(message.error.data?.serverInfo, undefined);
      }
    });

    test('an unsupported version gets -32022 naming the supported ones; 2025-11-25 in an envelope too', async () => {
      for (const version of ['2027-01-01', '2025-11-25']) {
        const { status, message } = await modern(
          app.url,
          'skills/list',
          {},
          { meta: { 'io.modelcontextprotocol/protocolVersion': version }, headers: { 'mcp-protocol-version': version } },
        );
        assert.equal(status, 400);
        assert.equal(message.error.code, -32022);
        assert.deepEqual(message.error.data, { supported: ['2026-07-28', '2025-11-25'], requested: version });
      }
    });

    test('headers that disagree with the body, or are missing, get -32020', async () => {
      const cases: [string, Parameters<typeof modern>][] = [
        ['version header differs', [app.url, 'skills/list', {}, { headers: { 'mcp-protocol-version': '2026-12-31' } }]],
        ['method header differs', [app.url, 'skills/list', {}, { headers: { 'mcp-method': 'skills/get' } }]],
        ['method header missing', [app.url, 'skills/list', {}, { headers: { 'mcp-method': undefined } }]],
        ['version header missing', [app.url, 'skills/list', {}, { headers: { 'mcp-protocol-version': undefined } }]],
        ['name header missing', [app.url, 'tools/call', { name: 'add', arguments: { a: 1, b: 2 } }, { headers: { 'mcp-name': undefined } }]],
        [
          'name header differs',
          [app.url, 'resources/read', { uri: 'skill://git-workflow/SKILL.md' }, { headers: { 'mcp-name': 'skill://pdf-processing/SKILL.md' } }],
        ],
        ['bad base64 sentinel', [app.url, 'tools/call', { name: 'add', arguments: { a: 1, b: 2 } }, { headers: { 'mcp-name': '=?base64?!!!?=' } }]],
        ['initialize with the modern envelope', [app.url, 'initialize', {}, {}]],
      ];
      for (const [label, args] of cases) {
        const { status, message } = await modern(...args);
        assert.equal(status, 400, label);
        assert.equal(message.error?.code, -32020, `${label}: ${JSON.stringify(message)}`);
        assert.ok(message.error.data?.mismatch, label);
      }
      // A non-ASCII name in its base64 form agrees with the body.
      const name = 'skill://git-workflow/SKILL.md';
      const encoded = `=?base64?${Buffer.from(name).toString('base64')}?=`;
      const ok = await modern(app.url, 'resources/read', { uri: name }, { headers: { 'mcp-name': encoded } });
      assert.equal(ok.status, 200, JSON.stringify(ok.message));
    });

    test('a missing or incomplete _meta gets -32602 saying which key', async () => {
      const noMeta = await modern(app.url, 'skills/list', {}, { body: { jsonrpc: '2.0', id: 1, method: 'skills/list', params: {} } });
      assert.equal(noMeta.status, 400);
      assert.equal(noMeta.message.error.code, -32602);
      assert.deepEqual(noMeta.message.error.data, { envelope: { missing: ['_meta'] } });
      const noCapabilities = await modern(app.url, 'skills/list', {}, { meta: { 'io.modelcontextprotocol/clientCapabilities': undefined } });
      assert.equal(noCapabilities.status, 400);
      assert.equal(noCapabilities.message.error.code, -32602);
      assert.deepEqual(noCapabilities.message.error.data, { envelope: { key: 'io.modelcontextprotocol/clientCapabilities', problem: 'missing' } });
      assert.match(noCapabilities.message.error.message, /clientCapabilities: missing/);
      // clientInfo is optional.
      const noClientInfo = await modern(app.url, 'skills/list', {}, { meta: { 'io.modelcontextprotocol/clientInfo': undefined } });
      assert.equal(noClientInfo.status, 200);
    });

    test('batches, null ids and non-JSON-RPC bodies get -32600; GET and DELETE 405; notifications 202', async () => {
      const one = { jsonrpc: '2.0', id: 1, method: 'skills/list', params: { _meta: envelope() } };
      for (const body of [[one], [one, { ...one, id: 2 }], { ...one, id: null }, { ...one, jsonrpc: '1.0' }]) {
        const { status, message } = await modern(app.url, 'skills/list', {}, { body });
        assert.equal(status, 400, JSON.stringify(body));
        assert.equal(message.error.code, -32600, JSON.stringify(message));
      }
      for (const method of ['GET', 'DELETE']) {
        const res = await fetch(app.url, { method, headers: { 'mcp-protocol-version': MODERN, accept: 'text/event-stream' } });
        assert.equal(res.status, 405, method);
        assert.equal(res.headers.get('allow'), 'POST');
        assert.equal(((await res.json()) as { error: { code: number } }).error.code, -32000);
      }
      const note = await modern(
        app.url,
        'notifications/cancelled',
        {},
        { body: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'x', _meta: envelope() } } },
      );
      assert.equal(note.status, 202);
      assert.equal(note.text, '');
    });

    test('what 2026-07-28 removed gets 404 -32601, never a hang', async () => {
      for (const method of ['ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe', 'no/such-method']) {
        const { status, message } = await modern(app.url, method, method === 'logging/setLevel' ? { level: 'debug' } : {});
        assert.equal(status, 404, method);
        assert.equal(message.error.code, -32601, `${method}: ${JSON.stringify(message)}`);
      }
    });

    test('a tool asking the client for input (elicitation) gets a clear error at once', async () => {
      const { status, message } = await modern(
        app.url,
        'tools/call',
        { name: 'confirm', arguments: {} },
        { meta: { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } } },
      );
      assert.equal(status, 200);
      assert.equal(message.result.isError, true);
      assert.match(message.result.content[0].text, /Not available on protocol 2026-07-28/);
    });

    test('log messages go out only when _meta asks for a level, and only at or above it', async () => {
      const quiet = await modern(app.url, 'tools/call', { name: 'chatty', arguments: {} });
      assert.match(quiet.headers.get('content-type')!, /^application\/json/);
      assert.equal(quiet.message.result.content[0].text, 'done');
      const loud = await modern(app.url, 'tools/call', { name: 'chatty', arguments: {} }, { meta: { 'io.modelcontextprotocol/logLevel': 'info' } });
      assert.match(loud.headers.get('content-type')!, /^text\/event-stream/);
      assert.equal(loud.headers.get('cache-control'), 'no-cache, no-transform');
      const logs = loud.frames.filter((f) => f.method === 'notifications/message').map((f) => f.params.data);
      assert.deepEqual(logs, ['a warning line']);
      assert.equal(loud.message.result.content[0].text, 'done', 'the result is the last frame');
    });

    test('legacy clients on the same endpoint keep their sessions and 2025-11-25', async () => {
      const { client, call, close } = await connectClient(app.url);
      try {
        assert.equal(client.getServerVersion()?.name, 'calculator-app');
        const listing = await call('skills/list', {});
        assert.equal(listing.skills.length, 3);
        assert.equal(listing._meta?.[SERVER_INFO], undefined, 'legacy results are as before');
        const sum = await client.callTool({ name: 'add', arguments: { a: 2, b: 2 } });
        assert.deepEqual(sum.content, [{ type: 'text', text: '4' }]);
      } finally {
        await close();
      }
    });
  });
}
