import { test } from 'node:test';
import assert from 'node:assert/strict';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SkillCatalog } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import Fastify from 'fastify';
import skillsPlugin, { type SkillsPluginOptions } from '@skillmount/fastify';
import { connectClient } from '../support/client.js';
import { checkSkillsEndpoint, EXAMPLES } from '../support/skills-suite.js';
import { listenFastify } from '../support/apps.js';
import { statelessTransport } from '../support/stateless-route.js';
import { recordingSource } from '../support/recording-source.js';

/** An app with its own stateless MCP route; the only skills-related line is `app.skills.attach(server)`. */
async function appWithOwnRoute(options: SkillsPluginOptions) {
  const app = Fastify();
  app.decorateRequest('auth', null);
  app.addHook('preHandler', async (request) => {
    const token = request.headers.authorization?.replace(/^Bearer /, '');
    if (token) (request as unknown as { auth: unknown }).auth = { token, clientId: 'app-client', scopes: [] };
  });
  await app.register(skillsPlugin, { ...options, path: false });
  app.post('/mcp', async (request, reply) => {
    const server = new McpServer({ name: 'own-route', version: '1.0.0' });
    server.registerTool('hello', { description: 'Says hello' }, async () => ({ content: [{ type: 'text', text: 'hello' }] }));
    app.skills.attach(server);
    const transport = await statelessTransport(server, reply.raw);
    reply.hijack();
    await app.skills.run(request, () => transport.handleRequest(request.raw, reply.raw, request.body));
  });
  const { url } = await listenFastify(app);
  return { app, url };
}

test('an existing MCP route adds skills with app.skills.attach(server) and path: false', async () => {
  const { app, url } = await appWithOwnRoute({ storage: fsStorage(EXAMPLES) });
  try {
    await checkSkillsEndpoint(url);
    const { client, close } = await connectClient(url);
    try {
      assert.deepEqual((await client.callTool({ name: 'hello', arguments: {} })).content, [{ type: 'text', text: 'hello' }]);
    } finally {
      await close();
    }
    // path: false mounts nothing: only the app's own POST route answers at /mcp.
    assert.equal((await fetch(url, { headers: { accept: 'text/event-stream' } })).status, 404);
  } finally {
    await app.close();
  }
});

test('app.skills.run applies the context option and request.auth in the app’s own route', async () => {
  const catalog = await SkillCatalog.load(fsStorage(EXAMPLES));
  const { source, seen } = recordingSource(catalog);
  const { app, url } = await appWithOwnRoute({ source, context: async (request) => ({ region: request.headers['x-region'] ?? 'none' }) });
  try {
    const { call, close } = await connectClient(url, { authorization: 'Bearer secret', 'x-region': 'eu' });
    try {
      const page = await call('skills/list');
      assert.equal(page.skills.length, 3);
      await call('skills/get', { uri: page.skills[0].uri });
    } finally {
      await close();
    }
    // skills/list and skills/get, after the initialize's listing for the instructions (instructions: 'auto'), all in the context.
    assert.equal(seen.length, 3);
    for (const ctx of seen) {
      assert.equal(ctx.region, 'eu');
      assert.equal(ctx.headers['x-region'], 'eu');
      assert.deepEqual(ctx.auth, { token: 'secret', clientId: 'app-client', scopes: [] });
    }
  } finally {
    await app.close();
  }
});
