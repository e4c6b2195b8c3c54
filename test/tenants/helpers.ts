/**
 * Shared pieces for the per-tenant tests: two tenants' skill trees, the Fastify and Express apps
 * that serve a tenant source (tenant from a header, or from `request.auth` set by an auth hook),
 * a raw JSON-RPC client that keeps the exact response bytes, and the isolation check itself.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import Fastify from 'fastify';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { SkillFiles, SkillSource } from '@skillmount/core';
import skillsPlugin from '@skillmount/fastify';
import { skillsMiddleware } from '@skillmount/express';
import { listenExpress, listenFastify } from '../support/apps.js';
import { skillMd } from '../support/skill-md.js';
import { writeTree } from '../support/trees.js';
import { statelessTransport } from '../support/stateless-route.js';

export { skillMd } from '../support/skill-md.js';
export { sleep, waitFor } from '../support/wait.js';
export { writeTree } from '../support/trees.js';

/** Tenants a and b: `greet` in both (different files), and one skill each of their own. */
export const TREES: Record<'a' | 'b', Record<string, string>> = {
  a: {
    'greet/SKILL.md': skillMd('greet', { description: 'Greets the way tenant A likes.', body: 'Say hello, A style.\n' }),
    'greet/a-phrases.md': 'Hello from A\n',
    'alpha-notes/SKILL.md': skillMd('alpha-notes', 'Notes only tenant A has.'),
    'alpha-notes/references/guide.md': 'A guide for A\n',
  },
  b: {
    'greet/SKILL.md': skillMd('greet', { description: 'Greets the way tenant B likes.', body: 'Say hello, B style.\n' }),
    'greet/b-phrases.md': 'Hello from B, confidential\n',
    'beta-secrets/SKILL.md': skillMd('beta-secrets', 'Secrets only tenant B has.'),
    'beta-secrets/files/secret.md': 'the secret of B\n',
    'beta-secrets/files/deep/more.md': 'more of B\n',
  },
};

export const SKILLS_OF = {
  a: ['skill://alpha-notes/SKILL.md', 'skill://greet/SKILL.md'],
  b: ['skill://beta-secrets/SKILL.md', 'skill://greet/SKILL.md'],
};

/** B's exact URIs, each with a URI of the same shape that exists in no tenant. */
export const PROBES: { method: string; uri: string; nowhere: string }[] = [
  { method: 'skills/get', uri: 'skill://beta-secrets/SKILL.md', nowhere: 'skill://gamma-nowhere/SKILL.md' },
  { method: 'resources/read', uri: 'skill://beta-secrets/SKILL.md', nowhere: 'skill://gamma-nowhere/SKILL.md' },
  { method: 'resources/read', uri: 'skill://beta-secrets/files/secret.md', nowhere: 'skill://gamma-nowhere/files/secret.md' },
  { method: 'resources/read', uri: 'skill://greet/b-phrases.md', nowhere: 'skill://greet/z-phrases.md' },
  { method: 'resources/directory/read', uri: 'skill://beta-secrets', nowhere: 'skill://gamma-nowhere' },
  { method: 'resources/directory/read', uri: 'skill://beta-secrets/files', nowhere: 'skill://gamma-nowhere/files' },
  { method: 'resources/directory/read', uri: 'skill://beta-secrets/files/deep', nowhere: 'skill://gamma-nowhere/files/deep' },
];

/** Keys that are not one plain segment: served as no tenant. (Header values cannot carry control characters.) */
export const REFUSED_KEYS = ['..', '.', 'a/b', 'a\\b', 'x'.repeat(129)];

/** How the app learns the tenant: an `x-tenant` header, or `request.auth` set by an auth hook from a bearer token. */
export type Via = 'header' | 'auth';

export function tenantHeaders(via: Via, tenant: string | undefined): Record<string, string> {
  if (tenant === undefined) return {};
  return via === 'header' ? { 'x-tenant': tenant } : { authorization: `Bearer token-${tenant}` };
}

/** The SDK's AuthInfo an auth hook derives from a bearer token. */
const authFromToken = (header: string | undefined) => {
  const token = header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : undefined;
  return token ? { token, clientId: `client-${token}`, scopes: ['skills:read'], extra: { tenant: token.slice('token-'.length) } } : undefined;
};

type AnyRequest = { headers: Record<string, string | string[] | undefined>; auth?: { extra?: Record<string, unknown> } };
const contextFor = (via: Via) => (request: AnyRequest) => ({
  tenant: via === 'header' ? request.headers['x-tenant'] : request.auth?.extra?.tenant,
});

export interface Served {
  url: string;
  close(): Promise<void>;
}

export interface ServeOptions {
  via: Via;
  sessions?: boolean;
  /** Serve on the app's own MCP route (stateless) with `attach` and `run` instead of the adapter's endpoint. */
  existingRoute?: boolean;
  /** Called for every HTTP request the app receives, before the adapter. */
  onRequest?(method: string, headers: Record<string, string | string[] | undefined>): void;
}

export async function serveFastify(source: SkillSource, options: ServeOptions): Promise<Served> {
  const app = Fastify();
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    options.onRequest?.(request.method, request.headers);
    if (options.via === 'auth') (request as unknown as AnyRequest).auth = authFromToken(request.headers.authorization);
  });
  const context = contextFor(options.via) as never;
  if (!options.existingRoute) {
    await app.register(skillsPlugin, { source, context, sessions: options.sessions === true });
  } else {
    await app.register(skillsPlugin, { source, context, path: false });
    app.post('/mcp', async (request, reply) => {
      if (await app.skills.handleModern(request, reply)) return;
      const server = new McpServer({ name: 'existing-fastify-app', version: '1.0.0' });
      app.skills.attach(server);
      const transport = await statelessTransport(server, reply.raw);
      reply.hijack();
      await app.skills.run(request, () => transport.handleRequest(request.raw, reply.raw, request.body));
    });
  }
  return listenFastify(app);
}

export async function serveExpress(source: SkillSource, options: ServeOptions): Promise<Served> {
  const app = express();
  app.use((req, _res, next) => {
    options.onRequest?.(req.method, req.headers);
    if (options.via === 'auth') (req as unknown as AnyRequest).auth = authFromToken(req.headers.authorization);
    next();
  });
  const context = contextFor(options.via) as never;
  const skills = skillsMiddleware({ source, context, sessions: !options.existingRoute && options.sessions === true });
  if (!options.existingRoute) {
    app.use('/mcp', skills);
  } else {
    app.post('/mcp', express.json(), async (req, res) => {
      if (await skills.handleModern(req, res)) return;
      const server = new McpServer({ name: 'existing-express-app', version: '1.0.0' });
      skills.attach(server);
      const transport = await statelessTransport(server, res);
      await skills.run(req, () => transport.handleRequest(req, res, req.body));
    });
  }
  const http = await listenExpress(app);
  return {
    url: http.url,
    async close() {
      await skills.close();
      await http.close();
    },
  };
}

export const ADAPTERS = { fastify: serveFastify, express: serveExpress } as const;

// ---------------------------------------------------------------------------
// Raw JSON-RPC over HTTP

export interface RawAnswer {
  status: number;
  /** The exact response body (an SSE stream or JSON). */
  raw: string;
  /** The JSON-RPC message in it. */
  message: { id?: unknown; result?: any; error?: { code: number; message: string; data?: unknown } };
}

export interface RawClient {
  call(method: string, params?: unknown, id?: number): Promise<RawAnswer>;
  close(): Promise<void>;
}

const PROTOCOL = '2025-11-25';
const MODERN = '2026-07-28';

/**
 * A JSON-RPC client over plain fetch: stateless (no initialize needed), a full MCP session, or
 * (`modern`) protocol 2026-07-28 requests with their `_meta` envelope and headers.
 */
export async function rawClient(url: string, headers: Record<string, string>, sessions: boolean, modern = false): Promise<RawClient> {
  let sessionId: string | undefined;
  const send = async (body: { jsonrpc: '2.0'; id?: number; method: string; params?: any }) => {
    const era: Record<string, string> = modern
      ? {
          'mcp-protocol-version': MODERN,
          'mcp-method': body.method,
          ...(typeof body.params?.uri === 'string' && body.method === 'resources/read' ? { 'mcp-name': body.params.uri } : {}),
        }
      : { 'mcp-protocol-version': PROTOCOL };
    if (modern) {
      body.params = { ...body.params, _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} } };
    }
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...era,
        ...headers,
        ...(sessionId ? { 'mcp-session-id': sessionId } : {}),
      },
      body: JSON.stringify(body),
    });
    return { res, raw: await res.text() };
  };
  if (sessions) {
    const { res, raw } = await send({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    });
    sessionId = res.headers.get('mcp-session-id') ?? undefined;
    assert.ok(sessionId, `a session was opened (${res.status} ${raw})`);
    await send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }
  return {
    async call(method, params = {}, id = 7) {
      const { res, raw } = await send({ jsonrpc: '2.0', id, method, params });
      return { status: res.status, raw, message: parseMessage(raw) };
    },
    async close() {
      if (!sessionId) return;
      await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': sessionId, 'mcp-protocol-version': PROTOCOL, ...headers } }).then((r) => r.text());
    },
  };
}

function parseMessage(raw: string): RawAnswer['message'] {
  const data = raw.split('\n').find((line) => line.startsWith('data: '));
  return JSON.parse(data ? data.slice('data: '.length) : raw);
}

// ---------------------------------------------------------------------------
// The isolation check

/**
 * Tenants a and b served at `url`: each lists, gets and reads only its own skills; every one of
 * B's exact URIs asked for by A, by a request without a tenant, or with a refused key, gets the
 * very bytes a URI that exists nowhere gets. `modern` asks on protocol 2026-07-28.
 */
export async function checkIsolation(url: string, via: Via, sessions: boolean, modern = false): Promise<{ probes: number }> {
  const a = await rawClient(url, tenantHeaders(via, 'a'), sessions, modern);
  const b = await rawClient(url, tenantHeaders(via, 'b'), sessions, modern);
  const none = await rawClient(url, {}, sessions, modern);
  const refused = await Promise.all(REFUSED_KEYS.map((key) => rawClient(url, tenantHeaders(via, key), sessions, modern)));
  let probes = 0;
  try {
    const uris = async (client: RawClient) => (await client.call('skills/list')).message.result.skills.map((s: { uri: string }) => s.uri);
    assert.deepEqual(await uris(a), SKILLS_OF.a, "A lists only A's skills");
    assert.deepEqual(await uris(b), SKILLS_OF.b, "B lists only B's skills");
    assert.deepEqual(await uris(none), [], 'no tenant: nothing listed');
    for (const client of refused) assert.deepEqual(await uris(client), [], 'refused key: nothing listed');

    const skillResources = async (client: RawClient) =>
      (await client.call('resources/list')).message.result.resources.map((r: { uri: string }) => r.uri).filter((u: string) => u.startsWith('skill://'));
    assert.deepEqual((await skillResources(a)).sort(), SKILLS_OF.a, "resources/list shows A only A's SKILL.md files");
    assert.deepEqual(await skillResources(none), []);

    // Same URI in both tenants: each gets its own.
    const greetA = await a.call('skills/get', { uri: 'skill://greet/SKILL.md' });
    assert.equal(greetA.message.result.skill.frontmatter.description, 'Greets the way tenant A likes.');
    assert.equal(greetA.message.result.cacheScope, 'private', 'per-tenant results are not for shared caches');
    const readA = await a.call('resources/read', { uri: 'skill://greet/SKILL.md' });
    assert.equal(readA.message.result.contents[0].text, TREES.a['greet/SKILL.md']);
    const readB = await b.call('resources/read', { uri: 'skill://greet/SKILL.md' });
    assert.equal(readB.message.result.contents[0].text, TREES.b['greet/SKILL.md']);
    const dirA = await a.call('resources/directory/read', { uri: 'skill://greet' });
    assert.deepEqual(dirA.message.result.resources.map((r: { uri: string }) => r.uri).sort(), ['skill://greet/SKILL.md', 'skill://greet/a-phrases.md']);

    for (const probe of PROBES) {
      const params = { uri: probe.uri };
      const fromB = await b.call(probe.method, params);
      assert.ok(fromB.message.result, `${probe.method} ${probe.uri} exists for B`);
      const fromA = await a.call(probe.method, params);
      assert.equal(fromA.message.error?.code, -32602, `${probe.method} ${probe.uri} from A: ${fromA.raw}`);
      assert.deepEqual(fromA.message.error?.data, { uri: probe.uri });
      const nowhere = await a.call(probe.method, { uri: probe.nowhere });
      assert.equal(fromA.status, nowhere.status);
      assert.equal(
        fromA.raw,
        nowhere.raw.split(probe.nowhere).join(probe.uri),
        `${probe.method} ${probe.uri}: A's answer is byte for byte the answer for a URI that exists nowhere`,
      );
      assert.deepEqual(fromA.message.error, JSON.parse(JSON.stringify(nowhere.message.error).split(probe.nowhere).join(probe.uri)));
      // Every refused key was shown to list nothing above; two kinds of no-tenant answer each probe.
      for (const other of [none, refused[0]!]) {
        const answer = await other.call(probe.method, params);
        assert.equal(answer.status, fromA.status);
        assert.equal(answer.raw, fromA.raw, `${probe.method} ${probe.uri}: same bytes without a tenant as from A`);
      }
      probes++;
    }
  } finally {
    await Promise.all([a, b, none, ...refused].map((client) => client.close()));
  }
  return { probes };
}

// ---------------------------------------------------------------------------

/** A storage whose calls are counted: `roots` is how many times a load listed the whole tree. */
export interface CountingStorage extends SkillFiles {
  roots: number;
  closed: number;
  /** Watches started and stopped. */
  watched: number;
  unwatched: number;
}

export function counting(storage: SkillFiles): CountingStorage {
  const counted: CountingStorage = {
    roots: 0,
    closed: 0,
    watched: 0,
    unwatched: 0,
    list(dir) {
      if (dir === '') counted.roots++;
      return storage.list(dir);
    },
    read: (path) => storage.read(path),
    async close() {
      counted.closed++;
      await storage.close?.();
    },
  };
  if (storage.listAll) {
    counted.listAll = (options) => {
      counted.roots++;
      return storage.listAll!(options);
    };
  }
  if (storage.watch) {
    counted.watch = (onChange) => {
      const stop = storage.watch!(onChange);
      counted.watched++;
      return () => {
        counted.unwatched++;
        stop();
      };
    };
  }
  return counted;
}

/** Write `trees` (tenant → relative path → content) as a folder per tenant under a new temporary root, deleted after the test. */
export async function tenantFolders(t: { after(fn: () => Promise<void>): void }, trees: Record<string, Record<string, string>> = TREES): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'skillmount-tenants-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  for (const [tenant, files] of Object.entries(trees)) writeTree(path.join(root, tenant), files);
  return root;
}
