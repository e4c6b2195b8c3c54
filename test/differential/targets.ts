/**
 * The servers a differential run compares: skillmount behind an adapter (its fast paths on), and
 * references that answer the same catalog through the SDK only.
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { METHOD_DIRECTORY_READ, METHOD_SKILLS_GET, METHOD_SKILLS_LIST, SkillCatalog, VERSION, attach, memoryStorage } from '@skillmount/core';
import { statelessTransport } from '../support/stateless-route.ts';
import { serve, type Framework } from '../hostile/servers.ts';
import { send } from '../hostile/raw-http.ts';

/** One server under comparison. Requests to it carry `sessionId` when it has one. */
export interface Target {
  name: string;
  url: string;
  sessionId?: string;
  close(): Promise<void>;
}

/**
 * The catalog every target serves: skills with nested folders, a binary file, file names that need
 * percent-encoding, an organisational prefix, and files beside the skills that are none of theirs.
 * A page size of 2 makes every listing page, so cursors are exercised.
 */
export const FILES: Readonly<Record<string, string | Uint8Array>> = {
  'alpha/SKILL.md': '---\nname: alpha\ndescription: The alpha test skill.\n---\n\nSee [the guide](refs/guide.md).\n',
  'alpha/refs/guide.md': 'The guide.\n',
  'beta/SKILL.md': '---\nname: beta\ndescription: The beta test skill.\n---\n\nBeta.\n',
  'beta/data/secret-beta.txt': 'Beta data.\n',
  'gamma/SKILL.md': '---\nname: gamma\ndescription: Files with odd names.\nmetadata:\n  owner: tests\n---\n\nGamma.\n',
  'gamma/assets/logo.bin': new Uint8Array([0, 1, 2, 0xfe, 0xff, 0x80]),
  'gamma/docs/a b.md': 'A space.\n',
  'gamma/docs/café.md': 'An accent.\n',
  'gamma/docs/deep/inner.md': 'Deep.\n',
  'gamma/docs/deep/more.md': 'More.\n',
  'gamma/docs/deep/last.md': 'Last.\n',
  'acme/billing/refunds/SKILL.md': '---\nname: refunds\ndescription: A skill under a prefix.\n---\n\nRefunds.\n',
  'secret.txt': 'not a skill file\n',
  'notes/private.md': 'not a skill file either\n',
};

export async function loadCatalog(): Promise<SkillCatalog> {
  return SkillCatalog.load(memoryStorage(FILES), { pageSize: 2, onWarning: () => {} });
}

/** The identity of skillmount's own default server, so `initialize` and `_meta` serverInfo agree across targets. */
const IDENTITY = { name: 'skillmount', version: VERSION };

async function listen(handler: http.RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Open a 2025-11-25 session on `url` and return its id. */
async function openSession(url: string): Promise<string> {
  const init = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'differential', version: '0.0.0' } };
  const answer = await send(url, { body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: init }) });
  const id = answer.kind === 'response' ? answer.headers['mcp-session-id'] : undefined;
  if (typeof id !== 'string') throw new Error(`no session opened on ${url}: ${JSON.stringify(answer).slice(0, 300)}`);
  return id;
}

/**
 * What an app writes with the SDK v1 alone: `attach` on an McpServer and the SDK's transport.
 * Stateless, a server and transport per POST; with sessions, one per session (the test opens one).
 */
export async function sdkReference(catalog: SkillCatalog, sessions: boolean): Promise<Target> {
  const newServer = () => {
    const server = new McpServer(IDENTITY);
    attach(server, catalog, { onWarning: () => {} });
    return server;
  };
  const open = new Map<string, StreamableHTTPServerTransport>();
  const served = await listen(async (req, res) => {
    if (!sessions) {
      const transport = await statelessTransport(newServer(), res);
      return transport.handleRequest(req, res);
    }
    const id = req.headers['mcp-session-id'];
    const known = typeof id === 'string' ? open.get(id) : undefined;
    if (known) return known.handleRequest(req, res);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: randomUUID, onsessioninitialized: (sid) => void open.set(sid, transport) });
    await newServer().connect(transport);
    return transport.handleRequest(req, res);
  });
  const sessionId = sessions ? await openSession(served.url) : undefined;
  return {
    name: `SDK v1 ${sessions ? 'sessions' : 'stateless'}`,
    url: served.url,
    ...(sessionId ? { sessionId } : {}),
    async close() {
      await Promise.all([...open.values()].map((t) => t.close()));
      await served.close();
    },
  };
}

/** The methods the pass-through app owns on 2026-07-28: every method the modern path answers from the source. */
const OWNED = [METHOD_SKILLS_LIST, METHOD_SKILLS_GET, METHOD_DIRECTORY_READ, 'resources/read'];

type RawHandler = (request: unknown, extra: unknown) => Promise<unknown>;

/**
 * An app server whose skills handlers are its own: the ones `attach` installed, each put back
 * under a new function. The endpoint then sees handlers that are not attach's (`answersAsAttached`
 * is false) and sends every skills request through the SDK server, while what answers is the
 * same code. The handler table is reached as seams.ts reaches it (`_requestHandlers`).
 */
function passThroughApp(catalog: SkillCatalog, counted: () => void): () => McpServer {
  return () => {
    const server = new McpServer(IDENTITY);
    attach(server, catalog, { onWarning: () => {} });
    const table = (server.server as unknown as { _requestHandlers: Map<string, RawHandler> })._requestHandlers;
    for (const method of OWNED) {
      const attached = table.get(method);
      if (!attached) throw new Error(`attach installed no ${method} handler: the pass-through app cannot own it`);
      table.set(method, (request, extra) => {
        counted();
        return attached(request, extra);
      });
    }
    return server;
  };
}

/** skillmount behind `framework`, with its fast paths (no app server, so nothing is app-owned). */
export async function skillmount(framework: Framework, catalog: SkillCatalog, sessions: boolean): Promise<Target> {
  const served = await serve(framework, { catalog, sessions, onWarning: () => {} });
  const sessionId = sessions ? await openSession(served.url) : undefined;
  return { name: `${framework} ${sessions ? 'sessions' : 'stateless'}`, url: served.url, ...(sessionId ? { sessionId } : {}), close: served.close };
}

/**
 * skillmount behind `framework` with an app that owns every skills method: 2026-07-28 requests go
 * through the SDK server. `answeredByApp()` counts the requests the app's handlers answered.
 */
export async function passThroughReference(framework: Framework, catalog: SkillCatalog): Promise<Target & { answeredByApp(): number }> {
  let answered = 0;
  const server = passThroughApp(catalog, () => answered++);
  const served = await serve(framework, { catalog, server, onWarning: () => {} });
  return { name: `${framework} app-owned`, url: served.url, close: served.close, answeredByApp: () => answered };
}
