/**
 * Apps that keep their own MCP route add 2026-07-28 with one call: Fastify with `path: false`
 * (`app.skills.handleModern`), an Express router that is never mounted (`skills.handleModern`),
 * and a raw `node:http` handler (`endpoint.handleModern`). Modern requests are answered through
 * skillmount; legacy ones still reach the app's own code.
 */
import assert from 'node:assert/strict';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import express from 'express';
import Fastify from 'fastify';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { SkillCatalog, attach, createSkillsEndpoint } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import skillsPlugin from '@skillmount/fastify';
import { skillsMiddleware } from '@skillmount/express';
import { connectClient } from '../support/client.js';
import { EXAMPLES } from '../support/skills-suite.js';
import { keepIdleConnections, listenExpress, listenFastify } from '../support/apps.js';
import { appServer } from './support.js';
import { statelessTransport } from '../support/stateless-route.js';

/** The app's own legacy handling: a stateless SDK v1 transport per request, counting what it answered. */
function legacyRoute(attachSkills: (server: ReturnType<typeof appServer>) => void, answered: { count: number }) {
  return async (req: IncomingMessage, res: ServerResponse, body: unknown) => {
    answered.count++;
    const server = appServer();
    attachSkills(server);
    const transport = await statelessTransport(server, res);
    await transport.handleRequest(req, res, body);
  };
}

interface OwnRouteApp {
  url: string;
  legacy: { count: number };
  close(): Promise<void>;
}

const APPS: Record<string, () => Promise<OwnRouteApp>> = {
  'Fastify, path: false': async () => {
    const legacy = { count: 0 };
    const app = Fastify();
    await app.register(skillsPlugin, { storage: fsStorage(EXAMPLES), server: appServer, path: false });
    const own = legacyRoute((s) => app.skills.attach(s), legacy);
    app.post('/mcp', async (request, reply) => {
      if (await app.skills.handleModern(request, reply)) return;
      reply.hijack();
      await own(request.raw, reply.raw, request.body);
    });
    return { ...(await listenFastify(app)), legacy };
  },
  'Express, router not mounted': async () => {
    const legacy = { count: 0 };
    const app = express();
    app.use(express.json());
    const skills = skillsMiddleware({ storage: fsStorage(EXAMPLES), server: appServer });
    const own = legacyRoute((s) => skills.attach(s), legacy);
    app.post('/mcp', async (req, res) => {
      if (await skills.handleModern(req, res)) return;
      await own(req, res, req.body);
    });
    const served = await listenExpress(app);
    return {
      url: served.url,
      legacy,
      close: async () => {
        await skills.close();
        await served.close();
      },
    };
  },
  'node:http handler': async () => {
    const legacy = { count: 0 };
    const catalog = await SkillCatalog.load(fsStorage(EXAMPLES));
    const endpoint = createSkillsEndpoint({ source: catalog, server: appServer });
    const own = legacyRoute((s) => attach(s, catalog), legacy);
    const server = http.createServer((req, res) => {
      void (async () => {
        // No body parsed yet: the MCP-Protocol-Version header decides, and only a modern request's body is read here.
        if (await endpoint.handleModern(req, res, undefined)) return;
        await own(req, res, undefined);
      })();
    });
    await new Promise<void>((resolve) => keepIdleConnections(server).listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
      legacy,
      close: async () => {
        await endpoint.close();
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
        catalog.close();
      },
    };
  },
};

for (const [label, start] of Object.entries(APPS)) {
  describe(`own MCP route: ${label}`, () => {
    let app: OwnRouteApp;
    before(async () => {
      app = await start();
    });
    after(() => app?.close());

    test('a 2026-07-28 client gets skills and the app tools through skillmount, not the app route', async () => {
      const before = app.legacy.count;
      const client = new Client({ name: 'own-route-tests', version: '0.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } as never } });
      await client.connect(new StreamableHTTPClientTransport(new URL(app.url)));
      try {
        assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
        const skills = new SkillsClient(client);
        const listing = await skills.list();
        assert.equal(listing.skills.length, 3);
        for (const skill of listing.skills) await skills.read(skill);
        const sum = await client.callTool({ name: 'add', arguments: { a: 20, b: 22 } });
        assert.deepEqual(sum.content, [{ type: 'text', text: '42' }]);
      } finally {
        await client.close();
      }
      assert.equal(app.legacy.count, before, 'no modern request reached the app route');
    });

    test('a 2025-11-25 client is answered by the app route, as before', async () => {
      const before = app.legacy.count;
      const { client, call, close } = await connectClient(app.url);
      try {
        assert.equal((await call('skills/list', {})).skills.length, 3);
        assert.deepEqual((await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).content, [{ type: 'text', text: '3' }]);
      } finally {
        await close();
      }
      assert.ok(app.legacy.count > before, 'legacy requests reached the app route');
    });
  });
}
