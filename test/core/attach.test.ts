/**
 * attach() and createSkillsEndpoint over real HTTP on loopback, with the SDK v1 client.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  ResourceListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import {
  SkillCatalog,
  SkillNotFoundError,
  attach,
  buildSkillEntry,
  createSkillsEndpoint,
  memoryStorage,
  runWithSkillContext,
  type SkillContext,
  type SkillEntry,
  type SkillSource,
  type SkillsEndpointOptions,
  type SkillWarning,
} from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import { connectClient, errorCode } from '../support/client.js';
import { EXAMPLES, checkSkillsEndpoint } from '../support/skills-suite.js';
import { demoTree, readJsonBody, warnings } from './helpers.js';
import { listenHttp } from '../support/apps.js';
import { skillMd } from '../support/skill-md.js';
import { sleep } from '../support/wait.js';
import { statelessTransport } from '../support/stateless-route.js';
import { tempDir, writeTree } from '../support/trees.js';

const sha = (content: string | Uint8Array) => 'sha256:' + createHash('sha256').update(content).digest('hex');

/** Everything the server wrote to the wire, to prove what was never sent. */
function tap(res: ServerResponse, log: Buffer[]): void {
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  const keep = (chunk: unknown) => {
    if (typeof chunk === 'string') log.push(Buffer.from(chunk));
    else if (chunk instanceof Uint8Array) log.push(Buffer.from(chunk));
  };
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    keep(chunk);
    return write(chunk, ...rest);
  }) as typeof res.write;
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (typeof chunk !== 'function') keep(chunk);
    return end(chunk, ...rest);
  }) as typeof res.end;
}

interface Served {
  url: string;
  /** Resolves once a client's standalone SSE stream (GET) has been answered, so notifications can reach it. */
  sseOpen?: Promise<void>;
  wire: Buffer[];
  sent: () => string;
  close: () => Promise<void>;
}

/**
 * createSkillsEndpoint behind node:http. `context(req)` and `auth(req)` play the part of an app's middleware;
 * the JSON body is parsed first, as web frameworks do, unless `rawBody` is set.
 */
async function serveEndpoint(
  options: SkillsEndpointOptions,
  app: { context?: (req: IncomingMessage) => Record<string, unknown>; auth?: (req: IncomingMessage) => unknown; rawBody?: boolean } = {},
): Promise<Served> {
  const endpoint = createSkillsEndpoint(options);
  const wire: Buffer[] = [];
  let opened!: () => void;
  const sseOpen = new Promise<void>((resolve) => (opened = resolve));
  const http = await listenHttp(async (req, res) => {
    tap(res, wire);
    if (req.method === 'GET') {
      const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
      res.writeHead = ((status: number, ...rest: unknown[]) => {
        const out = writeHead(status, ...rest);
        if (status === 200) setImmediate(opened);
        return out;
      }) as typeof res.writeHead;
    }
    if (app.auth) (req as IncomingMessage & { auth?: unknown }).auth = app.auth(req);
    const body = app.rawBody || req.method !== 'POST' ? undefined : await readJsonBody(req);
    await endpoint.handle(req, res, body, app.context?.(req));
  });
  return {
    url: http.url,
    sseOpen,
    wire,
    sent: () => Buffer.concat(wire).toString('utf8'),
    close: async () => {
      await endpoint.close();
      await http.close();
    },
  };
}

/** A stateless route the app writes itself: build, attach, connect, handle. */
async function serveOwn(build: () => McpServer | Server, context?: (req: IncomingMessage) => Record<string, unknown>): Promise<Served> {
  const wire: Buffer[] = [];
  const http = await listenHttp(async (req, res) => {
    tap(res, wire);
    const server = build();
    const transport = await statelessTransport(server, res);
    if (context) await runWithSkillContext(context(req), () => transport.handleRequest(req, res));
    else await transport.handleRequest(req, res);
  });
  return { url: http.url, wire, sent: () => Buffer.concat(wire).toString('utf8'), close: http.close };
}

/** Run `fn` with a connected client and close both ends afterwards, whatever happens. */
async function withClient<T>(
  served: Served,
  fn: (c: Awaited<ReturnType<typeof connectClient>>) => Promise<T>,
  headers: Record<string, string> = {},
): Promise<T> {
  const c = await connectClient(served.url, headers);
  try {
    return await fn(c);
  } finally {
    await c.close();
  }
}

async function rpcError(promise: Promise<unknown>): Promise<{ code: number; message: string; data?: unknown }> {
  try {
    await promise;
  } catch (error) {
    return error as { code: number; message: string; data?: unknown };
  }
  throw new Error('expected the call to fail');
}

const textOf = (content: unknown) => {
  const c = content as { text?: string; blob?: string };
  return c.text !== undefined ? c.text : Buffer.from(c.blob!, 'base64').toString('utf8');
};

for (const sessions of [false, true]) {
  const mode = sessions ? 'sessions' : 'stateless';

  describe(`createSkillsEndpoint (${mode})`, { timeout: 120_000 }, () => {
    test(`serves examples/skills from a folder: the shared endpoint checks, pageSize ${sessions ? 2 : 1}`, async () => {
      for (const pageSize of [sessions ? 2 : 1]) {
        const catalog = await SkillCatalog.load(fsStorage(EXAMPLES), { pageSize, onWarning: (w) => assert.fail(w.message) });
        const served = await serveEndpoint({ source: catalog, sessions });
        try {
          await checkSkillsEndpoint(served.url, { pageSize });
        } finally {
          await served.close();
        }
      }
    });

    test('declares resources and the skills extension with directoryRead', async () => {
      const catalog = await SkillCatalog.load(memoryStorage(demoTree()));
      const served = await serveEndpoint({ source: catalog, sessions });
      try {
        await withClient(served, async ({ client }) => {
          const caps = client.getServerCapabilities() as Record<string, any>;
          assert.ok(caps.resources);
          assert.deepEqual(caps.extensions, { 'io.modelcontextprotocol/skills': { directoryRead: true } });
        });
      } finally {
        await served.close();
      }
    });

    test('works behind a plain node:http server that has not read the body', async () => {
      const catalog = await SkillCatalog.load(memoryStorage(demoTree()));
      const served = await serveEndpoint({ source: catalog, sessions }, { rawBody: true });
      try {
        await withClient(served, async ({ call }) => {
          assert.equal((await call('skills/list')).skills.length, 3);
        });
      } finally {
        await served.close();
      }
    });

    test("the app's own tool and resource keep working beside the skills (McpServer)", async () => {
      const catalog = await SkillCatalog.load(memoryStorage(demoTree()));
      const served = await serveEndpoint({
        source: catalog,
        sessions,
        server: () => {
          const mcp = new McpServer({ name: 'app', version: '1.0.0' });
          mcp.registerTool('ping', { description: 'the app tool' }, async () => ({ content: [{ type: 'text', text: 'pong' }] }));
          mcp.registerResource('readme', 'app://readme', { mimeType: 'text/plain' }, async (uri) => ({ contents: [{ uri: uri.href, text: 'app readme' }] }));
          return mcp;
        },
      });
      try {
        await withClient(served, async ({ client, call }) => {
          const tools = await client.listTools();
          assert.deepEqual(
            tools.tools.map((t) => t.name),
            ['ping'],
          );
          assert.deepEqual((await client.callTool({ name: 'ping' })).content, [{ type: 'text', text: 'pong' }]);
          const resources = (await client.listResources()).resources.map((r) => r.uri);
          assert.ok(resources.includes('app://readme'));
          assert.ok(resources.includes('skill://git-workflow/SKILL.md'));
          assert.equal(textOf((await client.readResource({ uri: 'app://readme' })).contents[0]), 'app readme');
          assert.equal(textOf((await client.readResource({ uri: 'skill://git-workflow/SKILL.md' })).contents[0]), skillMd('git-workflow'));
          assert.equal((await call('skills/list')).skills.length, 3);
        });
      } finally {
        await served.close();
      }
    });

    test('a low-level Server gets resources/list, resources/read and the skills methods', async () => {
      const catalog = await SkillCatalog.load(memoryStorage(demoTree()));
      const served = await serveEndpoint({
        source: catalog,
        sessions,
        server: () => {
          const low = new Server({ name: 'low', version: '1.0.0' }, { capabilities: { tools: {} } });
          low.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: 'own', inputSchema: { type: 'object' } }] }));
          return low;
        },
      });
      try {
        await withClient(served, async ({ client, call }) => {
          assert.deepEqual(
            (await client.listTools()).tools.map((t) => t.name),
            ['own'],
          );
          const listed = (await client.listResources()).resources;
          assert.deepEqual(
            listed.map((r) => r.uri),
            catalog.entries.map((e) => e.uri),
          );
          assert.equal(listed[1]!.name, 'git-workflow');
          assert.equal(listed[1]!.mimeType, 'text/markdown');
          const read = await client.readResource({ uri: 'skill://pdf-processing/scripts/fill_form.py' });
          assert.equal(textOf(read.contents[0]), 'print("fill")\n');
          assert.equal(read.contents[0]!.mimeType, 'text/x-python');
          assert.equal(await errorCode(client.readResource({ uri: 'app://nope' })), -32602);
          assert.equal((await call('skills/get', { uri: 'skill://git-workflow/SKILL.md' })).skill.uri, 'skill://git-workflow/SKILL.md');
          assert.equal((await call('resources/directory/read', { uri: 'skill://git-workflow' })).resources.length, 2);
        });
      } finally {
        await served.close();
      }
    });

    test('a custom SkillSource gets the context fields, headers and authInfo of each request', async () => {
      const seen: { method: string; ctx: SkillContext }[] = [];
      const entries = new Map(['acme', 'globex'].map((t) => [t, buildSkillEntry(t, { 'SKILL.md': skillMd(t), 'notes.md': `${t} notes` })]));
      const source: SkillSource = {
        async list(_params, ctx) {
          seen.push({ method: 'list', ctx });
          return { skills: [entries.get(ctx.tenant as string)!] };
        },
        async get(uri, ctx) {
          seen.push({ method: 'get', ctx });
          const entry = entries.get(ctx.tenant as string)!;
          if (entry.uri !== uri) throw new SkillNotFoundError(`no ${uri}`, uri);
          return entry;
        },
        async read(uri, ctx) {
          seen.push({ method: 'read', ctx });
          if (uri !== `skill://${ctx.tenant}/notes.md`) throw new SkillNotFoundError(`no ${uri}`, uri);
          return { uri, bytes: Buffer.from(`${ctx.tenant} notes`) };
        },
        async readDirectory(uri, _params, ctx) {
          seen.push({ method: 'readDirectory', ctx });
          return { resources: [{ uri: `${uri}/notes.md`, name: 'notes.md', mimeType: 'text/markdown' }] };
        },
        async listResources(ctx) {
          seen.push({ method: 'listResources', ctx });
          return [];
        },
      };
      const served = await serveEndpoint(
        { source, sessions },
        {
          context: (req) => ({ tenant: req.headers['x-tenant'], route: req.url }),
          auth: (req) => ({ token: 't', clientId: `client-of-${req.headers['x-tenant']}`, scopes: ['skills:read'] }),
        },
      );
      try {
        for (const tenant of ['acme', 'globex']) {
          seen.length = 0;
          await withClient(
            served,
            async ({ client, call }) => {
              assert.deepEqual(
                (await call('skills/list')).skills.map((s: SkillEntry) => s.uri),
                [`skill://${tenant}/SKILL.md`],
              );
              assert.equal((await call('skills/get', { uri: `skill://${tenant}/SKILL.md` })).skill.frontmatter.name, tenant);
              const other = tenant === 'acme' ? 'globex' : 'acme';
              assert.equal(await errorCode(call('skills/get', { uri: `skill://${other}/SKILL.md` })), -32602, 'another tenant cannot be reached');
              assert.equal(textOf((await client.readResource({ uri: `skill://${tenant}/notes.md` })).contents[0]), `${tenant} notes`);
              await call('resources/directory/read', { uri: `skill://${tenant}` });
              await client.listResources();
              const sessionId = (client.transport as { sessionId?: string } | undefined)?.sessionId;
              assert.deepEqual([...new Set(seen.map((s) => s.method))].sort(), ['get', 'list', 'listResources', 'read', 'readDirectory']);
              for (const { method, ctx } of seen) {
                assert.equal(ctx.tenant, tenant, method);
                assert.equal(ctx.route, '/mcp', method);
                assert.equal(ctx.headers['x-tenant'], tenant, method);
                assert.equal(ctx.headers['x-extra'], 'yes', method);
                assert.equal(ctx.auth?.clientId, `client-of-${tenant}`, method);
                assert.deepEqual(ctx.auth?.scopes, ['skills:read'], method);
                assert.ok(ctx.signal instanceof AbortSignal, method);
                if (sessions) {
                  assert.ok(sessionId);
                  assert.equal(ctx.sessionId, sessionId, method);
                } else assert.equal(ctx.sessionId, undefined, method);
              }
            },
            { 'x-tenant': tenant, 'x-extra': 'yes' },
          );
        }
      } finally {
        await served.close();
      }
    });
  });
}

describe('attach() onto servers the app builds itself', { timeout: 120_000 }, () => {
  test('tools and resources registered before and after attach all work (McpServer)', async () => {
    const catalog = await SkillCatalog.load(memoryStorage(demoTree()));
    const served = await serveOwn(() => {
      const mcp = new McpServer({ name: 'app', version: '1.0.0' });
      mcp.registerTool('before', { description: 'registered before attach' }, async () => ({ content: [{ type: 'text', text: 'before' }] }));
      mcp.registerResource('before', 'app://before', { mimeType: 'text/plain' }, async (uri) => ({ contents: [{ uri: uri.href, text: 'before' }] }));
      attach(mcp, catalog);
      mcp.registerTool('after', { description: 'registered after attach' }, async () => ({ content: [{ type: 'text', text: 'after' }] }));
      mcp.registerResource('after', 'app://after', { mimeType: 'text/plain' }, async (uri) => ({ contents: [{ uri: uri.href, text: 'after' }] }));
      return mcp;
    });
    try {
      await withClient(served, async ({ client, call }) => {
        assert.deepEqual((await client.listTools()).tools.map((t) => t.name).sort(), ['after', 'before']);
        for (const name of ['before', 'after']) {
          assert.deepEqual((await client.callTool({ name })).content, [{ type: 'text', text: name }]);
          assert.equal(textOf((await client.readResource({ uri: `app://${name}` })).contents[0]), name);
        }
        const uris = (await client.listResources()).resources.map((r) => r.uri);
        for (const u of ['app://before', 'app://after', ...catalog.entries.map((e) => e.uri)]) assert.ok(uris.includes(u), u);
        assert.equal(textOf((await client.readResource({ uri: 'skill://git-workflow/references/commit-messages.md' })).contents[0]), '# Commit messages\n');
        assert.equal((await call('skills/list')).skills.length, 3);
      });
    } finally {
      await served.close();
    }
  });

  test('a low-level Server with its own resource handlers composes them with { resources: "manual" }', async () => {
    const catalog = await SkillCatalog.load(memoryStorage(demoTree()));
    const served = await serveOwn(() => {
      const low = new Server({ name: 'low', version: '1.0.0' }, { capabilities: { resources: {} } });
      const skills = attach(low, catalog, { resources: 'manual' });
      low.setRequestHandler(ListResourcesRequestSchema, async (_r, extra) => ({
        resources: [{ uri: 'app://own', name: 'own' }, ...(await skills.listResources(extra))],
      }));
      low.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
        const result = await skills.readResource(request.params.uri, extra);
        if (result) return result as never;
        return { contents: [{ uri: request.params.uri, text: 'own' }] };
      });
      return low;
    });
    try {
      await withClient(served, async ({ client }) => {
        const uris = (await client.listResources()).resources.map((r) => r.uri);
        assert.deepEqual(uris, ['app://own', ...catalog.entries.map((e) => e.uri)]);
        assert.equal(textOf((await client.readResource({ uri: 'app://own' })).contents[0]), 'own');
        assert.equal(textOf((await client.readResource({ uri: 'skill://git-workflow/SKILL.md' })).contents[0]), skillMd('git-workflow'));
        assert.equal(await errorCode(client.readResource({ uri: 'skill://git-workflow/nope.md' })), -32602);
      });
    } finally {
      await served.close();
    }
  });

  test('runWithSkillContext around handleRequest reaches the source', async () => {
    const contexts: SkillContext[] = [];
    const entry = buildSkillEntry('ctx', { 'SKILL.md': skillMd('ctx') });
    const source: SkillSource = {
      list: async (_p, ctx) => {
        contexts.push(ctx);
        return { skills: [entry] };
      },
      get: async () => entry,
      read: async (uri) => {
        throw new SkillNotFoundError('none', uri);
      },
    };
    const served = await serveOwn(
      () => {
        const mcp = new McpServer({ name: 'app', version: '1.0.0' });
        attach(mcp, source);
        return mcp;
      },
      (req) => ({ userId: `user-${req.headers['x-user']}` }),
    );
    try {
      await withClient(
        served,
        async ({ call }) => {
          await call('skills/list');
        },
        { 'x-user': '7' },
      );
      // Two listings: the one for the initialize answer's instructions (the client does not declare the extension), then skills/list.
      assert.equal(contexts.length, 2);
      for (const ctx of contexts) {
        assert.equal(ctx.userId, 'user-7');
        assert.equal(ctx.headers['x-user'], '7');
      }
    } finally {
      await served.close();
    }
  });

  test('attach refuses a connected server, a server that already serves resources, and a non-source', async () => {
    const catalog = await SkillCatalog.load(memoryStorage(demoTree()));
    const mcp = new McpServer({ name: 'app', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPServerTransport({ sessionIdGenerator: undefined }));
    assert.throws(() => attach(mcp, catalog), /before server\.connect/);
    await mcp.close();
    const low = new Server({ name: 'low', version: '1.0.0' }, { capabilities: {} });
    await low.connect(new StreamableHTTPServerTransport({ sessionIdGenerator: undefined }));
    assert.throws(() => attach(low, catalog), /before server\.connect/);
    await low.close();

    const owned = new Server({ name: 'low', version: '1.0.0' }, { capabilities: { resources: {} } });
    owned.setRequestHandler(ReadResourceRequestSchema, async () => ({ contents: [] }));
    assert.throws(() => attach(owned, catalog), /resources: "manual"/);
    assert.throws(() => attach(new McpServer({ name: 'a', version: '1' }), {} as never), TypeError);
    assert.throws(() => attach({} as never, catalog), TypeError);
  });
});

describe('invalid entries from a custom SkillSource are never sent', { timeout: 120_000 }, () => {
  const MARK = 'SECRET-MARKER-7f3a';
  const good = buildSkillEntry('good', { 'SKILL.md': skillMd('good'), 'x.md': 'x' });
  const other = buildSkillEntry('other', { 'SKILL.md': skillMd('other', `other ${MARK}`) });
  const sourceOf = (list: () => SkillEntry[], get: (uri: string) => SkillEntry): SkillSource => ({
    list: async () => ({ skills: list() }),
    get: async (uri) => get(uri),
    read: async (uri) => {
      throw new SkillNotFoundError('none', uri);
    },
  });
  const bad: [string, SkillSource, 'skills/list' | 'skills/get'][] = [
    [
      'name ≠ last segment (list)',
      sourceOf(
        () => [{ ...good, frontmatter: { name: 'bad', description: MARK } }],
        () => good,
      ),
      'skills/list',
    ],
    [
      'name ≠ last segment (get)',
      sourceOf(
        () => [good],
        () => ({ ...good, frontmatter: { name: 'bad', description: MARK } }),
      ),
      'skills/get',
    ],
    [
      'resource URI escaping with ..',
      sourceOf(
        () => [{ ...good, resources: [...(good.resources as never[]), { uri: `skill://good/../${MARK}/x`, digest: sha('x'), size: 1 }] }],
        () => good,
      ),
      'skills/list',
    ],
    [
      'resource URI escaping with %2e%2e (get)',
      sourceOf(
        () => [good],
        () => ({ ...good, resources: [...(good.resources as never[]), { uri: `skill://good/%2e%2e/${MARK}`, digest: sha('x'), size: 1 }] }),
      ),
      'skills/get',
    ],
    [
      'skills/get answering for another skill',
      sourceOf(
        () => [good],
        () => other,
      ),
      'skills/get',
    ],
    [
      'the same skill twice on one page',
      sourceOf(
        () => [good, { ...good, frontmatter: { ...good.frontmatter, description: MARK } }],
        () => good,
      ),
      'skills/list',
    ],
    [
      'a bad digest',
      sourceOf(
        () => [{ ...good, frontmatter: { ...good.frontmatter, note: MARK }, resources: [{ uri: good.uri, digest: 'sha256:XYZ', size: 1 }] }],
        () => good,
      ),
      'skills/list',
    ],
  ];
  for (const [what, source, method] of bad) {
    // skills/get of an invalid entry fails whatever the mode; on skills/list only under strict.
    test(`${what} → -32603 and a warning${method === 'skills/list' ? ' (strict)' : ''}`, async () => {
      const w = warnings();
      const served = await serveEndpoint({ source, attach: { onWarning: w.onWarning, strict: method === 'skills/list' } });
      try {
        await withClient(served, async ({ call }) => {
          const error = await rpcError(method === 'skills/list' ? call('skills/list') : call('skills/get', { uri: good.uri }));
          assert.equal(error.code, -32603);
        });
        // Under strict, the listing for the initialize answer's instructions fails on the same entry first: the
        // handshake still succeeds, with the app's instructions alone, and says so once.
        const expected = method === 'skills/list' ? ['invalid-entry', 'instructions-failed'] : ['invalid-entry'];
        assert.deepEqual(
          w.list.map((x) => x.code),
          expected,
          JSON.stringify(w.list),
        );
        assert.ok(!served.sent().includes(MARK), 'nothing of the bad entry reached the wire, the instructions included');
        assert.ok(!served.sent().includes('"frontmatter"'), 'no entry at all was sent');
      } finally {
        await served.close();
      }
    });
    if (method !== 'skills/list') continue;
    test(`${what} → dropped from the skills/list page with one warning, however often it is listed`, async () => {
      const w = warnings();
      // A copy of the source: what the strict test's source already told is not told again, whatever onWarning hears it.
      const served = await serveEndpoint({ source: { ...source }, attach: { onWarning: w.onWarning } });
      try {
        await withClient(served, async ({ call }) => {
          for (let i = 0; i < 3; i++) {
            const page = await call('skills/list');
            // The one copy of a skill that is valid stays (the first of two on a page), the bad one goes.
            assert.deepEqual(
              page.skills.map((s: SkillEntry) => s.uri),
              what.includes('twice') ? [good.uri] : [],
            );
          }
        });
        assert.equal(w.list.length, 1, JSON.stringify(w.list));
        assert.equal(w.list[0]!.code, 'invalid-entry');
        assert.equal(w.list[0]!.uri, good.uri);
        assert.match(w.list[0]!.message, /dropped from the page/);
        assert.ok(!served.sent().includes(MARK), 'nothing of the bad entry reached the wire');
      } finally {
        await served.close();
      }
    });
  }

  test('the warning goes to the source.warn when no onWarning is given', async () => {
    const received: SkillWarning[] = [];
    const source = {
      ...sourceOf(
        () => [{ ...good, frontmatter: { name: 'bad', description: 'd' } }],
        () => good,
      ),
      warn: (x: SkillWarning) => received.push(x),
    };
    const served = await serveEndpoint({ source });
    try {
      await withClient(served, async ({ call }) => assert.deepEqual((await call('skills/list')).skills, []));
      assert.equal(received.length, 1);
      assert.equal(received[0]!.code, 'invalid-entry');
    } finally {
      await served.close();
    }
  });
});

describe('files changed in storage after load are refused until reload', { timeout: 120_000 }, () => {
  test('memoryStorage.write without reload → -32603 and a warning about reload; after reload the new digest is served', async () => {
    const storage = memoryStorage(demoTree());
    const w = warnings();
    const catalog = await SkillCatalog.load(storage, { onWarning: w.onWarning });
    const served = await serveEndpoint({ source: catalog });
    const uri = 'skill://git-workflow/references/commit-messages.md';
    const fresh = '# Commit messages, rewritten NEW-BYTES-91c\n';
    try {
      await withClient(served, async ({ client, call }) => {
        storage.write('git-workflow/references/commit-messages.md', fresh);
        const error = await rpcError(client.readResource({ uri }));
        assert.equal(error.code, -32603);
        assert.match(error.message, /reload/);
        assert.equal(w.list.length, 1);
        assert.equal(w.list[0]!.code, 'changed');
        assert.equal(w.list[0]!.uri, uri);
        assert.match(w.list[0]!.message, /reload\(\)/);
        assert.ok(!served.sent().includes('NEW-BYTES-91c'), 'the changed bytes were not sent');

        const report = await catalog.reload();
        assert.deepEqual(report.changed, ['skill://git-workflow/SKILL.md']);
        const entry = (await call('skills/get', { uri: 'skill://git-workflow/SKILL.md' })).skill;
        const published = entry.resources.find((r: { uri: string }) => r.uri === uri);
        assert.deepEqual(published, { uri, digest: sha(fresh), size: Buffer.byteLength(fresh) });
        assert.equal(textOf((await client.readResource({ uri })).contents[0]), fresh);
      });
    } finally {
      await served.close();
    }
  });

  test('without the bytes cache, a file rewritten on disk under fsStorage is refused until reload, then served', async (t) => {
    const tmp = tempDir();
    t.after(tmp.remove);
    writeTree(tmp.dir, demoTree());
    const w = warnings();
    const catalog = await SkillCatalog.load(fsStorage(tmp.dir), { onWarning: w.onWarning, cacheBytes: 0 });
    const served = await serveEndpoint({ source: catalog, sessions: true });
    const uri = 'skill://pdf-processing/templates/invoice.md';
    const fresh = '# Invoice (same length?) no: longer DISK-BYTES-5e1\n';
    try {
      await withClient(served, async ({ client, call }) => {
        assert.equal(textOf((await client.readResource({ uri })).contents[0]), '# Invoice\n');
        writeFileSync(path.join(tmp.dir, 'pdf-processing', 'templates', 'invoice.md'), fresh);
        assert.equal(await errorCode(client.readResource({ uri })), -32603);
        assert.equal(w.list.at(-1)?.code, 'changed');
        assert.match(w.list.at(-1)!.message, /reload/);
        assert.ok(!served.sent().includes('DISK-BYTES-5e1'));
        await catalog.reload();
        const entry = (await call('skills/get', { uri: 'skill://pdf-processing/SKILL.md' })).skill;
        assert.equal(entry.resources.find((r: { uri: string }) => r.uri === uri).digest, sha(fresh));
        assert.equal(textOf((await client.readResource({ uri })).contents[0]), fresh);
      });
    } finally {
      await served.close();
    }
  });

  test('with the bytes cache (the default), a file read before it was rewritten on disk is still served as published; one not read before is refused', async (t) => {
    const tmp = tempDir();
    t.after(tmp.remove);
    writeTree(tmp.dir, demoTree());
    const w = warnings();
    const catalog = await SkillCatalog.load(fsStorage(tmp.dir), { onWarning: w.onWarning });
    const served = await serveEndpoint({ source: catalog });
    const hot = 'skill://pdf-processing/templates/invoice.md';
    const cold = 'skill://pdf-processing/scripts/fill_form.py';
    try {
      await withClient(served, async ({ client }) => {
        assert.equal(textOf((await client.readResource({ uri: hot })).contents[0]), '# Invoice\n');
        writeFileSync(path.join(tmp.dir, 'pdf-processing', 'templates', 'invoice.md'), 'HOT-DISK-BYTES-77a\n');
        writeFileSync(path.join(tmp.dir, 'pdf-processing', 'scripts', 'fill_form.py'), 'COLD-DISK-BYTES-77b\n');
        assert.equal(textOf((await client.readResource({ uri: hot })).contents[0]), '# Invoice\n', 'the verified bytes, as published');
        assert.equal(await errorCode(client.readResource({ uri: cold })), -32603);
        assert.equal(w.list.at(-1)?.code, 'changed');
        assert.ok(!served.sent().includes('DISK-BYTES-77'));
        await catalog.reload();
        assert.equal(textOf((await client.readResource({ uri: hot })).contents[0]), 'HOT-DISK-BYTES-77a\n');
        assert.equal(textOf((await client.readResource({ uri: cold })).contents[0]), 'COLD-DISK-BYTES-77b\n');
      });
    } finally {
      await served.close();
    }
  });

  test('same-size rewrites are caught too (the digest, not only the size, is checked)', async () => {
    const storage = memoryStorage(demoTree());
    const catalog = await SkillCatalog.load(storage, { onWarning: () => {} });
    const served = await serveEndpoint({ source: catalog });
    try {
      await withClient(served, async ({ client }) => {
        storage.write('pdf-processing/templates/invoice.md', '# INVOICE\n');
        assert.equal(await errorCode(client.readResource({ uri: 'skill://pdf-processing/templates/invoice.md' })), -32603);
      });
      assert.ok(!served.sent().includes('INVOICE'));
    } finally {
      await served.close();
    }
  });
});

describe('traversal through resources/read, skills/get and resources/directory/read', { timeout: 120_000 }, () => {
  const secrets = ['ROOT-SECRET-1d9', 'FOLDER-SECRET-4b2'];
  let tmp: { dir: string; remove: () => void } | undefined;
  after(() => tmp?.remove());

  test('no request returns bytes from outside the requested skill', async () => {
    tmp = tempDir();
    writeTree(tmp.dir, { ...demoTree(), 'secret.txt': secrets[0]!, 'notes/secret.txt': secrets[1]!, 'notes/readme.md': 'not a skill' });
    const catalog = await SkillCatalog.load(fsStorage(tmp.dir), { onWarning: () => {} });
    const published = new Map<string, string>();
    for (const e of catalog.entries) for (const r of e.resources as { uri: string }[]) published.set(r.uri, r.uri);
    const served = await serveEndpoint({ source: catalog });
    const reads = [
      'skill://git-workflow/../pdf-processing/SKILL.md',
      'skill://git-workflow/../secret.txt',
      'skill://git-workflow/../../secret.txt',
      'skill://git-workflow/references/../../secret.txt',
      'skill://git-workflow/references/../SKILL.md',
      'skill://git-workflow/%2e%2e/secret.txt',
      'skill://git-workflow/%2E%2E/%2E%2E/secret.txt',
      'skill://git-workflow/%2e%2e/notes/secret.txt',
      'skill://git-workflow/.%2e/pdf-processing/SKILL.md',
      'skill://git-workflow/..%2Fsecret.txt',
      'skill://git-workflow/..%2F..%2Fsecret.txt',
      'skill://git-workflow/references/..%2F..%2Fnotes%2Fsecret.txt',
      'skill://git-workflow/..%5Csecret.txt',
      'skill://git-workflow/..\\secret.txt',
      'skill://git-workflow/..\\..\\secret.txt',
      'skill://git-workflow/secret.txt%00',
      'skill://git-workflow/%00/../secret.txt',
      'skill://../secret.txt',
      'skill://%2e%2e/secret.txt',
      'skill://./secret.txt',
      'skill:///secret.txt',
      'skill://secret.txt',
      'skill://notes/secret.txt',
      'skill://notes/readme.md',
      'skill://git-workflow/SKILL.md?../../secret.txt',
      'skill://git-workflow/SKILL.md#../../secret.txt',
      'skill://git-workflow%2F..%2Fsecret.txt',
    ];
    try {
      await withClient(served, async ({ client, call }) => {
        for (const uri of reads) {
          let result: Awaited<ReturnType<typeof client.readResource>> | undefined;
          try {
            result = await client.readResource({ uri });
          } catch (error) {
            const code = (error as { code: number }).code;
            assert.ok(code === -32602 || code === -32603, `${uri}: ${code}`);
            continue;
          }
          // Only where URL normalisation resolved the path inside the same skill may content come back,
          // and then only the file the catalog publishes at that URI.
          const content = result.contents[0]!;
          assert.ok(published.has(content.uri), `${uri} was answered with unpublished ${content.uri}`);
          const requestedSkill = uri.slice('skill://'.length).split('/')[0];
          assert.ok(content.uri.startsWith(`skill://${requestedSkill}/`), `${uri} → ${content.uri}`);
          const file = await catalog.read(content.uri);
          assert.equal(textOf(content), Buffer.from(file.bytes).toString('utf8'));
        }
        for (const uri of [
          'skill://notes/secret.txt',
          'skill://git-workflow/../secret.txt',
          'skill://git-workflow/%2e%2e/notes/secret.txt',
          'skill://../secret.txt',
        ]) {
          assert.equal(await errorCode(call('skills/get', { uri })), -32602, uri);
        }
        for (const uri of [
          'skill://notes',
          'skill://git-workflow/..',
          'skill://git-workflow/%2e%2e',
          'skill://git-workflow/%2e%2e/notes',
          'skill://..',
          'skill://git-workflow/..%2Fnotes',
        ]) {
          assert.equal(await errorCode(call('resources/directory/read', { uri })), -32602, uri);
        }
      });
      const wire = served.sent();
      for (const s of secrets) assert.ok(!wire.includes(s), `${s} never reached the wire`);
      assert.ok(!wire.includes(Buffer.from(secrets[0]!).toString('base64')));
    } finally {
      await served.close();
    }
  });
});

describe('bad params get -32602, never -32603', { timeout: 120_000 }, () => {
  const cases: [string, unknown][] = [
    ['skills/list', { cursor: 5 }],
    ['skills/list', { cursor: null }],
    ['skills/list', { cursor: 'bogus' }],
    ['skills/get', { uri: 42 }],
    ['skills/get', {}],
    ['skills/get', undefined],
    ['skills/get', { uri: '' }],
    ['skills/get', { uri: ['skill://git-workflow/SKILL.md'] }],
    ['skills/get', { uri: `skill://${'a'.repeat(9000)}/SKILL.md` }],
    ['resources/directory/read', { uri: 42 }],
    ['resources/directory/read', {}],
    ['resources/directory/read', undefined],
    ['resources/directory/read', { uri: 'skill://git-workflow', cursor: 5 }],
    ['resources/directory/read', { uri: 'skill://git-workflow', cursor: 'bogus' }],
    ['resources/read', { uri: 42 }],
    ['resources/read', {}],
    ['resources/read', undefined],
    ['resources/read', { uri: '' }],
    ['resources/read', { uri: 'not a uri' }],
    ['resources/list', { cursor: 5 }],
  ];
  for (const sessions of [false, true]) {
    for (const server of ['McpServer', 'Server'] as const) {
      test(`every method (${sessions ? 'sessions' : 'stateless'}, ${server})`, async () => {
        const catalog = await SkillCatalog.load(memoryStorage(demoTree()));
        const served = await serveEndpoint({
          source: catalog,
          sessions,
          server: () =>
            server === 'McpServer' ? new McpServer({ name: 'app', version: '1.0.0' }) : new Server({ name: 'app', version: '1.0.0' }, { capabilities: {} }),
        });
        const wrong: string[] = [];
        try {
          await withClient(served, async ({ call }) => {
            for (const [method, params] of cases) {
              const code = await errorCode(call(method, params));
              if (code !== -32602) wrong.push(`${method} ${JSON.stringify(params)} → ${code}`);
            }
            // the server is still fine afterwards
            assert.equal((await call('skills/list')).skills.length, 3);
          });
        } finally {
          await served.close();
        }
        assert.deepEqual(wrong, []);
      });
    }
  }

  test('params that are not an object (an array, a string) are refused, never as an internal error', async () => {
    // The SDK's transport refuses such a message before any handler runs: HTTP 400 with a JSON-RPC error.
    const catalog = await SkillCatalog.load(memoryStorage(demoTree()));
    const served = await serveEndpoint({ source: catalog });
    try {
      for (const method of ['skills/list', 'skills/get', 'resources/directory/read', 'resources/read']) {
        for (const params of [[], ['skill://git-workflow/SKILL.md'], 'x']) {
          const res = await fetch(served.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
          });
          const text = await res.text();
          const match = /"code":(-?\d+)/.exec(text);
          assert.ok(match, `${method} ${JSON.stringify(params)}: ${res.status} ${text}`);
          assert.notEqual(Number(match[1]), -32603, `${method} ${JSON.stringify(params)}: ${text}`);
          assert.ok(!text.includes('"result"'), `${method} ${JSON.stringify(params)} was answered`);
        }
      }
    } finally {
      await served.close();
    }
  });
});

describe('list changes reach session clients', { timeout: 120_000 }, () => {
  test('reload() with a change sends notifications/resources/list_changed; an unchanged reload does not', async () => {
    const storage = memoryStorage(demoTree());
    const catalog = await SkillCatalog.load(storage);
    const served = await serveEndpoint({ source: catalog, sessions: true });
    try {
      await withClient(served, async ({ client, call }) => {
        let notified = 0;
        client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
          notified++;
        });
        await call('skills/list');
        await served.sseOpen; // the client opens its standalone SSE stream after initialize
        await catalog.reload();
        await sleep(150);
        assert.equal(notified, 0, 'nothing changed');
        storage.write('new-skill/SKILL.md', skillMd('new-skill'));
        await catalog.reload();
        for (let i = 0; i < 100 && notified === 0; i++) await sleep(20);
        assert.equal(notified, 1);
        assert.ok((await call('skills/list')).skills.some((s: SkillEntry) => s.uri === 'skill://new-skill/SKILL.md'));
      });
    } finally {
      await served.close();
    }
  });
});
