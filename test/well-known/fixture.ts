/** Servers with /.well-known/agent-skills on, for the surface, tenant and hostile tests: the endpoint alone, Fastify, Express. */
import { createHash } from 'node:crypto';
import express from 'express';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import Fastify from 'fastify';
import { createSkillsEndpoint, createWellKnownHandler, type SkillSource, type SkillVisibility, type SkillWarning } from '@skillmount/core';
import skillsPlugin from '@skillmount/fastify';
import { skillsMiddleware } from '@skillmount/express';
import { listenExpress, listenFastify, listenHttp } from '../support/apps.js';

export const PREFIX = '/.well-known/agent-skills/';

export interface WellKnownServer {
  /** The origin, `http://127.0.0.1:<port>`. */
  origin: string;
  close(): Promise<void>;
}

export interface ServeOptions {
  context?: (request: { headers: Record<string, string | string[] | undefined> }) => Record<string, unknown>;
  visible?: SkillVisibility;
  onWarning?: (warning: SkillWarning) => void;
  /** The app's server factory. */
  server?: () => McpServer | Server | Promise<McpServer | Server>;
}

export type Kind = 'endpoint' | 'fastify' | 'express' | 'handler';
export const KINDS: Kind[] = ['endpoint', 'fastify', 'express'];
/** KINDS and `createWellKnownHandler` on a plain node:http server (no `server` factory there). */
export const WITH_HANDLER: Kind[] = [...KINDS, 'handler'];

/** `source` served with `wellKnown: true` by the endpoint itself, the Fastify plugin or the Express router (at the root through `wellKnown`). */
export async function serveWellKnown(kind: Kind, source: SkillSource, options: ServeOptions = {}): Promise<WellKnownServer> {
  const onWarning = options.onWarning ?? (() => undefined);
  if (kind === 'handler') {
    if (options.server) throw new Error('createWellKnownHandler takes no server factory');
    const handle = createWellKnownHandler({ source, onWarning, ...(options.visible ? { visible: options.visible } : {}) });
    const http = await listenHttp(async (req, res) => {
      if (!(await handle(req, res, options.context?.(req) ?? {}))) res.writeHead(404).end();
    }, '');
    return { origin: http.url, close: http.close };
  }
  if (kind === 'endpoint') {
    const endpoint = createSkillsEndpoint({
      source,
      wellKnown: true,
      ...(options.server ? { server: options.server } : {}),
      attach: { onWarning, ...(options.visible ? { visible: options.visible } : {}) },
    });
    const http = await listenHttp((req, res) => endpoint.handle(req, res, undefined, options.context?.(req) ?? {}), '');
    return { origin: http.url, close: http.close };
  }
  const shared = {
    source,
    wellKnown: true,
    onWarning,
    ...(options.visible ? { visible: options.visible } : {}),
    ...(options.context ? { context: options.context as never } : {}),
    ...(options.server ? { server: options.server } : {}),
  };
  if (kind === 'fastify') {
    const app = Fastify();
    await app.register(skillsPlugin, shared);
    const http = await listenFastify(app, '');
    return { origin: http.url, close: http.close };
  }
  const app = express();
  const skills = skillsMiddleware(shared);
  app.use(skills.wellKnown);
  app.use('/mcp', skills);
  const http = await listenExpress(app, '');
  return {
    origin: http.url,
    async close() {
      await skills.close();
      await http.close();
    },
  };
}

export interface Fetched {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

export async function get(url: string, init: RequestInit = {}): Promise<Fetched> {
  const response = await fetch(url, init);
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

export interface IndexEntry {
  name: string;
  description: string;
  type: 'skill-md' | 'archive';
  url: string;
  digest: string;
  /** The skill's `metadata.version`, as shown (text policy); absent when it has none. */
  version?: string;
}

export async function index(origin: string, headers: Record<string, string> = {}): Promise<{ $schema: string; skills: IndexEntry[] }> {
  const answer = await get(`${origin}${PREFIX}index.json`, { headers });
  if (answer.status !== 200) throw new Error(`index.json answered ${answer.status}: ${answer.bytes.toString('utf8')}`);
  return JSON.parse(answer.bytes.toString('utf8'));
}

export const sha256 = (bytes: Uint8Array) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
