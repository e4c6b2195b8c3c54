/**
 * On an app's own MCP route the adapter's `context` option applies only inside `run(req, fn)`.
 * Left out, a per-tenant source sees no tenant and serves nothing: that is reported once, with a
 * stable code and the call to write, instead of passing silently.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import express from 'express';
import Fastify from 'fastify';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { tenantCatalogs, type SkillWarning } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import skillsPlugin from '@skillmount/fastify';
import { skillsMiddleware } from '@skillmount/express';
import { connectClient } from '../support/client.js';
import { SKILLS_OF, tenantFolders } from './helpers.js';
import { listenExpress, listenFastify } from '../support/apps.js';
import { statelessTransport } from '../support/stateless-route.js';

type App = { url: string; close(): Promise<void> };

const context = (request: { headers: Record<string, string | string[] | undefined> }) => ({ tenant: request.headers['x-tenant'] });

async function fastifyApp(root: string, wrap: boolean, onWarning: (w: SkillWarning) => void): Promise<App> {
  const source = tenantCatalogs({ key: (ctx) => ctx.tenant as string | undefined, storage: (key) => fsStorage(path.join(root, key)) });
  const app = Fastify();
  await app.register(skillsPlugin, { source, context, path: false, onWarning });
  app.post('/mcp', async (request, reply) => {
    const server = new McpServer({ name: 'own-fastify-route', version: '1.0.0' });
    app.skills.attach(server);
    const transport = await statelessTransport(server, reply.raw);
    reply.hijack();
    const handle = () => transport.handleRequest(request.raw, reply.raw, request.body);
    await (wrap ? app.skills.run(request, handle) : handle());
  });
  const http = await listenFastify(app);
  return {
    url: http.url,
    close: async () => {
      await http.close();
      await source.close();
    },
  };
}

async function expressApp(root: string, wrap: boolean, onWarning: (w: SkillWarning) => void): Promise<App> {
  const source = tenantCatalogs({ key: (ctx) => ctx.tenant as string | undefined, storage: (key) => fsStorage(path.join(root, key)) });
  const skills = skillsMiddleware({ source, context, onWarning });
  const app = express();
  app.post('/mcp', express.json(), async (req, res) => {
    const server = new McpServer({ name: 'own-express-route', version: '1.0.0' });
    skills.attach(server);
    const transport = await statelessTransport(server, res);
    const handle = () => transport.handleRequest(req, res, req.body);
    await (wrap ? skills.run(req, handle) : handle());
  });
  const http = await listenExpress(app);
  return {
    url: http.url,
    close: async () => {
      await skills.close();
      await http.close();
      await source.close();
    },
  };
}

const APPS = { fastify: fastifyApp, express: expressApp };

for (const [name, start] of Object.entries(APPS)) {
  test(`${name}: an own route without run(req, …) is reported once as context-not-applied`, async (t) => {
    const root = await tenantFolders(t);
    const warnings: SkillWarning[] = [];
    const app = await start(root, false, (w) => warnings.push(w));
    t.after(() => app.close());

    for (let i = 0; i < 3; i++) {
      const { call, close } = await connectClient(app.url, { 'x-tenant': 'a' });
      try {
        // The gap itself: without the context, tenant A's request is served as no tenant.
        assert.deepEqual((await call('skills/list')).skills, []);
      } finally {
        await close();
      }
    }
    const reported = warnings.filter((w) => w.code === 'context-not-applied');
    assert.equal(reported.length, 1, `reported once, not per request: ${JSON.stringify(warnings)}`);
    assert.match(
      reported[0]!.message,
      name === 'fastify' ? /app\.skills\.run\(request, \(\) => transport\.handleRequest/ : /skills\.run\(req, \(\) => transport\.handleRequest/,
    );
    assert.match(reported[0]!.message, new RegExp(`^@skillmount/${name}: `));
  });

  test(`${name}: an own route that wraps the call in run(req, …) serves the tenant and reports nothing`, async (t) => {
    const root = await tenantFolders(t);
    const warnings: SkillWarning[] = [];
    const app = await start(root, true, (w) => warnings.push(w));
    t.after(() => app.close());

    const { call, close } = await connectClient(app.url, { 'x-tenant': 'a' });
    try {
      assert.deepEqual(
        (await call('skills/list')).skills.map((s: { uri: string }) => s.uri),
        SKILLS_OF.a,
      );
    } finally {
      await close();
    }
    assert.deepEqual(
      warnings.filter((w) => w.code === 'context-not-applied'),
      [],
    );
  });
}
