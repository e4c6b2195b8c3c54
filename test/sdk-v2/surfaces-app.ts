/**
 * An SDK v2 app serving skillmount's surfaces for hosts without the Skills extension, on Express,
 * Fastify or Hono: the surfaces tests and the installer test serve from it.
 */
import type { AddressInfo } from 'node:net';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { SkillsExtension } from '@modelcontextprotocol/server/ext/skills';
import { createMcpExpressApp } from '@modelcontextprotocol/express';
import { createMcpFastifyApp } from '@modelcontextprotocol/fastify';
import { createMcpHonoApp } from '@modelcontextprotocol/hono';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { serve, type HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Hono } from 'hono';
import { createWellKnownHandler, SkillCatalog, type SkillSource, type SkillVisibility, type WellKnownHandler } from '@skillmount/core';
import { sdkV2Skills, skillsInstructions } from '@skillmount/core/sdk-v2';
import { fsStorage } from '@skillmount/storage-fs';
import { listenExpress, listenFastify, type Listening } from '../support/apps.js';
import { skillMd } from '../support/skill-md.js';
import { tempTree } from '../support/trees.js';
import { TREE } from '../well-known/tree.js';

export const APP_TEXT = 'Tools for Acme invoices.';
/** A skill the `visible` rule hides from every request. */
export const HIDDEN = { 'secret/SKILL.md': skillMd('secret', 'Hidden by visible().'), 'secret/notes.md': 'classified\n' };
export const visible: SkillVisibility = (entry) => entry.frontmatter.name !== 'secret';

export type Framework = 'express' | 'fastify' | 'hono';

export interface SurfacesApp extends Listening {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
}

/**
 * An SDK v2 app as its author writes it: `createMcpHandler` with the SDK v2's `SkillsExtension`
 * and, per request, the instructions from `skillsInstructions`; the well-known handler mounted
 * before the MCP route on the framework's own app. Only 127.0.0.1 passes its Host check.
 */
export async function serveApp(framework: Framework, source: SkillSource): Promise<SurfacesApp> {
  const skills = new SkillsExtension(sdkV2Skills(source, { visible }));
  const instructions = skillsInstructions(source, { visible });
  const handler = createMcpHandler(async (ctx) => {
    const mcp = new McpServer({ name: 'sdk-v2-app', version: '1.0.0' }, { instructions: await instructions(ctx, APP_TEXT) });
    skills.attach(mcp);
    return mcp;
  });
  const wellKnown = createWellKnownHandler({ source, visible, allowedHosts: ['127.0.0.1'] });
  const listening = await mount(framework, handler, wellKnown);
  const origin = new URL(listening.url).origin;
  return {
    origin,
    url: listening.url,
    async close() {
      await handler.close();
      await listening.close();
    },
  };
}

async function mount(framework: Framework, handler: ReturnType<typeof createMcpHandler>, wellKnown: WellKnownHandler): Promise<Listening> {
  const node = toNodeHandler(handler);
  if (framework === 'express') {
    const app = createMcpExpressApp();
    app.use((req, res, next) => void wellKnown(req, res).then((answered) => answered || next(), next));
    app.all('/mcp', (req, res) => node(req, res, req.body));
    return listenExpress(app);
  }
  if (framework === 'fastify') {
    const app = createMcpFastifyApp();
    app.route({
      method: ['GET', 'HEAD'],
      url: '/.well-known/agent-skills/*',
      exposeHeadRoute: false,
      handler: async (request, reply) => {
        reply.hijack();
        await wellKnown(request.raw, reply.raw);
      },
    });
    app.all('/mcp', async (request, reply) => {
      reply.hijack();
      await node(request.raw, reply.raw, request.body);
    });
    return listenFastify(app);
  }
  // The app's types as @hono/node-server and createMcpHonoApp's body parser fill them.
  const app = createMcpHonoApp() as unknown as Hono<{ Bindings: HttpBindings; Variables: { parsedBody?: unknown } }>;
  app.use('/.well-known/agent-skills/*', async (c, next) => {
    const { incoming, outgoing } = c.env;
    if (await wellKnown(incoming, outgoing)) return RESPONSE_ALREADY_SENT;
    await next();
  });
  app.all('/mcp', (c) => handler.fetch(c.req.raw, { parsedBody: c.get('parsedBody') }));
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        (server as unknown as { closeAllConnections(): void }).closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The well-known tests' tree and a skill `visible` hides, loaded into a catalog closed after the test. */
export async function loadCatalog(t: { after(fn: () => void): void }) {
  const root = tempTree(t, { ...TREE, ...HIDDEN });
  const catalog = await SkillCatalog.load(fsStorage(root), { onWarning: () => undefined });
  t.after(() => catalog.close());
  return { root, catalog };
}
