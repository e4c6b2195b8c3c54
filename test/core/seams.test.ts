/**
 * attach() repeated or refused, and what happens when an SDK v1 internal skillmount relies on is
 * missing: real McpServer / Server instances, real HTTP on loopback, the SDK's own client.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ReadResourceRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { SkillCatalog, attach, createSkillsEndpoint, memoryStorage, type SkillWarning } from '@skillmount/core';
import { connectClient, errorCode } from '../support/client.js';
import { demoTree, readJsonBody } from './helpers.js';
import { listenHttp } from '../support/apps.js';
import { skillMd } from '../support/skill-md.js';
import { statelessTransport } from '../support/stateless-route.js';

const EXTENSION = 'io.modelcontextprotocol/skills';

/** A stateless route: a fresh server from `build` per request, connected by the test itself. */
async function serveOwn(build: () => McpServer | Server) {
  return listenHttp(async (req: IncomingMessage, res: ServerResponse) => {
    const server = build();
    const transport = await statelessTransport(server, res);
    await transport.handleRequest(req, res);
  });
}

async function withClient<T>(url: string, fn: (c: Awaited<ReturnType<typeof connectClient>>) => Promise<T>): Promise<T> {
  const c = await connectClient(url);
  try {
    return await fn(c);
  } finally {
    await c.close();
  }
}

/** The app's own `skills/list`, on the SDK's public `setRequestHandler`. */
const AppSkillsList = z.object({ method: z.literal('skills/list'), params: z.unknown().optional() });

describe('attach() is safe to repeat, and refuses before it changes anything', { timeout: 30_000 }, () => {
  test('the same source twice: the same handle, and the server serves it once', async () => {
    const catalog = await SkillCatalog.load(memoryStorage(demoTree()));
    const handles: unknown[] = [];
    const http = await serveOwn(() => {
      const mcp = new McpServer({ name: 'app', version: '1.0.0' });
      const first = attach(mcp, catalog);
      const second = attach(mcp, catalog);
      handles.push(first, second);
      return mcp;
    });
    try {
      await withClient(http.url, async ({ client, call }) => {
        assert.deepEqual(client.getServerCapabilities()?.extensions, { [EXTENSION]: { directoryRead: true } });
        assert.equal((await call('skills/list')).skills.length, 3);
        const skillFiles = (await client.listResources()).resources.filter((r) => r.uri.startsWith('skill://'));
        assert.deepEqual(
          skillFiles.map((r) => r.uri),
          catalog.entries.map((e) => e.uri),
          'each SKILL.md listed once',
        );
        assert.equal((await client.listResourceTemplates()).resourceTemplates.length, 1);
      });
      assert.ok(handles.length >= 2);
      assert.equal(handles[0], handles[1]);
    } finally {
      await http.close();
    }
  });

  test('a second, different source is refused, and the first keeps serving', async () => {
    const first = await SkillCatalog.load(memoryStorage(demoTree()));
    const other = await SkillCatalog.load(memoryStorage({ 'other/SKILL.md': skillMd('other') }));
    const refusals: Error[] = [];
    const http = await serveOwn(() => {
      const mcp = new McpServer({ name: 'app', version: '1.0.0' });
      attach(mcp, first);
      try {
        attach(mcp, other);
      } catch (error) {
        refusals.push(error as Error);
      }
      return mcp;
    });
    try {
      await withClient(http.url, async ({ call }) => {
        assert.deepEqual(
          (await call('skills/list')).skills.map((s: { uri: string }) => s.uri),
          first.entries.map((e) => e.uri),
        );
      });
      assert.ok(refusals.length > 0);
      assert.match(refusals[0]!.message, /^skillmount: attach\(server, source\): this server already serves another skill source/);
      assert.match(refusals[0]!.message, /Combine the catalogs into one SkillSource/);
    } finally {
      await http.close();
    }
  });

  test("a server with the app's own skills/list is refused and answers exactly as before", async () => {
    const catalog = await SkillCatalog.load(memoryStorage(demoTree()));
    const refusals: Error[] = [];
    const http = await serveOwn(() => {
      const mcp = new McpServer({ name: 'app', version: '1.0.0' });
      mcp.registerTool('ping', { description: 'pong' }, async () => ({ content: [{ type: 'text', text: 'pong' }] }));
      mcp.server.setRequestHandler(AppSkillsList, async () => ({ skills: [], mine: true }) as never);
      try {
        attach(mcp, catalog);
      } catch (error) {
        refusals.push(error as Error);
      }
      return mcp;
    });
    try {
      await withClient(http.url, async ({ client, call }) => {
        const capabilities = client.getServerCapabilities() ?? {};
        assert.equal((capabilities as { extensions?: unknown }).extensions, undefined, 'no skills extension declared');
        assert.equal(capabilities.resources, undefined, 'no resources capability added');
        assert.deepEqual(await call('skills/list'), { skills: [], mine: true }, "the app's handler still answers");
        assert.deepEqual((await client.callTool({ name: 'ping' })).content, [{ type: 'text', text: 'pong' }]);
        assert.equal(await errorCode(call('skills/get', { uri: 'skill://git-workflow/SKILL.md' })), -32601);
      });
      assert.match(refusals[0]!.message, /already has its own skills\/list handler/);
      assert.match(refusals[0]!.message, /Remove the app's skills\/list \/ skills\/get \/ resources\/directory\/read handlers/);
    } finally {
      await http.close();
    }
  });

  test('a low-level Server that already reads resources is refused in auto mode before anything is added', async () => {
    const catalog = await SkillCatalog.load(memoryStorage(demoTree()));
    const http = await serveOwn(() => {
      const low = new Server({ name: 'low', version: '1.0.0' }, { capabilities: { resources: {} } });
      low.setRequestHandler(ReadResourceRequestSchema, async (request) => ({ contents: [{ uri: request.params.uri, text: 'own' }] }));
      assert.throws(() => attach(low, catalog), /resources: "manual"/);
      return low;
    });
    try {
      await withClient(http.url, async ({ client, call }) => {
        assert.equal((client.getServerCapabilities() as { extensions?: unknown }).extensions, undefined);
        assert.equal(await errorCode(call('skills/list')), -32601);
        assert.equal(((await client.readResource({ uri: 'skill://git-workflow/SKILL.md' })).contents[0] as { text: string }).text, 'own');
      });
    } finally {
      await http.close();
    }
  });
});

/** Stands in for the SDK's handler map on a release that changed it: same job, not a Map. */
class HandlerTable {
  readonly #map: Map<string, unknown>;
  constructor(from: Map<string, unknown>) {
    this.#map = new Map(from);
  }
  get(method: string) {
    return this.#map.get(method);
  }
  set(method: string, handler: unknown) {
    this.#map.set(method, handler);
    return this;
  }
  has(method: string) {
    return this.#map.has(method);
  }
  delete(method: string) {
    return this.#map.delete(method);
  }
}

function withoutHandlerMap(low: Server): void {
  const view = low as unknown as { _requestHandlers: Map<string, unknown> };
  view._requestHandlers = new HandlerTable(view._requestHandlers) as never;
}

describe('a missing SDK seam is reported once, and the endpoint still hides internal errors', { timeout: 30_000 }, () => {
  test('no handler map: one sdk-seam-missing warning per consequence; -32603 details still never reach the client', async () => {
    const catalog = await SkillCatalog.load(memoryStorage(demoTree()));
    const warned: SkillWarning[] = [];
    const endpoint = createSkillsEndpoint({
      source: catalog,
      attach: { onWarning: (w) => warned.push(w) },
      server: () => {
        const mcp = new McpServer({ name: 'app', version: '1.0.0' });
        mcp.registerTool('boom', { description: 'fails' }, async () => {
          throw new Error('database at 10.0.0.7:5432 refused SECRET-TOKEN');
        });
        // A tool error becomes a result; a failing custom method is a JSON-RPC -32603.
        mcp.server.setRequestHandler(z.object({ method: z.literal('app/boom') }), async () => {
          throw new Error('database at 10.0.0.7:5432 refused SECRET-TOKEN');
        });
        withoutHandlerMap(mcp.server);
        return mcp;
      },
    });
    const http = await listenHttp(async (req, res) => endpoint.handle(req, res, req.method === 'POST' ? await readJsonBody(req) : undefined));
    try {
      for (let round = 0; round < 2; round++) {
        await withClient(http.url, async ({ client, call }) => {
          assert.equal((await call('skills/list')).skills.length, 3, 'skills are still served');
          const text = ((await client.readResource({ uri: 'skill://git-workflow/SKILL.md' })).contents[0] as { text: string }).text;
          assert.equal(text, skillMd('git-workflow'));
          const failure = await call('app/boom').then(
            () => assert.fail('app/boom should fail'),
            (error: { code: number; message: string }) => error,
          );
          assert.equal(failure.code, -32603);
          assert.doesNotMatch(failure.message, /SECRET-TOKEN|10\.0\.0\.7/);
          assert.match(failure.message, /Internal error/);
        });
      }
      const missing = warned.filter((w) => w.code === 'sdk-seam-missing');
      // hideInternalErrors, the response budget, McpServer's resource params and the skills in the
      // initialize answer's instructions: each reported once, over four servers.
      assert.equal(missing.length, 4, missing.map((w) => w.message).join('\n'));
      assert.equal(new Set(missing.map((w) => w.message)).size, 4);
      for (const w of missing) {
        assert.match(w.message, /seam "request-handler-map"/);
        assert.match(w.message, /_requestHandlers/);
        assert.match(w.message, /tested with @modelcontextprotocol\/sdk \d+\.\d+\.\d+ to \d+\.\d+\.\d+/);
      }
      assert.ok(missing.some((w) => /not held to the response budget/.test(w.message)));
      assert.ok(missing.some((w) => /errors thrown by request handlers are hidden only/.test(w.message)));
      assert.ok(missing.some((w) => /malformed params get -32603/.test(w.message)));
      assert.ok(missing.some((w) => /the server's instructions do not name its skills/.test(w.message)));
      const internal = warned.filter((w) => w.code === 'internal-error');
      assert.equal(internal.length, 2, 'each hidden error is reported to the operator');
      assert.match(internal[0]!.message, /SECRET-TOKEN/);
    } finally {
      await endpoint.close();
      await http.close();
    }
  });

  test('a connect() that cannot be wrapped: attach() warns once that list changes will not be sent, and serves', async () => {
    const catalog = await SkillCatalog.load(memoryStorage(demoTree()));
    const warned: SkillWarning[] = [];
    const onWarning = (w: SkillWarning) => warned.push(w);
    const http = await serveOwn(() => {
      const mcp = new McpServer({ name: 'app', version: '1.0.0' });
      Object.defineProperty(mcp.server, 'connect', { value: mcp.server.connect, writable: false });
      attach(mcp, catalog, { onWarning });
      return mcp;
    });
    try {
      await withClient(http.url, async ({ call }) => {
        assert.equal((await call('skills/list')).skills.length, 3);
      });
      await withClient(http.url, async ({ call }) => {
        assert.equal((await call('skills/get', { uri: 'skill://git-workflow/SKILL.md' })).skill.uri, 'skill://git-workflow/SKILL.md');
      });
      const missing = warned.filter((w) => w.code === 'sdk-seam-missing');
      assert.equal(missing.length, 1);
      assert.match(missing[0]!.message, /seam "server-connect"/);
      assert.match(missing[0]!.message, /not told when the skill list changes/);
    } finally {
      await http.close();
    }
  });
});
