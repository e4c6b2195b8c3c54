/**
 * The plugin's endpoint beside an app route at the same path: an error that says what to do
 * (path: false, and mount on the existing route), whichever of the two is added first.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { memoryStorage } from '@skillmount/core';
import skillsPlugin from '@skillmount/fastify';
import Fastify from 'fastify';

const storage = () => memoryStorage({ 'demo/SKILL.md': '---\nname: demo\ndescription: A demo skill.\n---\nBody.\n' });
const ADVICE = /^@skillmount\/fastify: a route already exists at .*register the plugin with path: false and mount the skills on your route/;

test("the app's POST /mcp first, then the plugin at its default path: the plugin's error, Fastify's as its cause", async () => {
  const app = Fastify();
  app.post('/mcp', async () => ({}));
  try {
    await assert.rejects(
      (async () => {
        await app.register(skillsPlugin, { storage: storage() });
        await app.ready();
      })(),
      (error: Error) => {
        assert.match(error.message, ADVICE);
        assert.match(error.message, /at \/mcp,/);
        assert.equal((error.cause as { code?: string })?.code, 'FST_ERR_DUPLICATED_ROUTE');
        return true;
      },
    );
  } finally {
    await app.close().catch(() => undefined);
  }
});

test('under a prefix, the error names the prefix too', async () => {
  const app = Fastify();
  const start = async () => {
    await app.register(
      async (api) => {
        api.get('/mcp', async () => ({}));
        await api.register(skillsPlugin, { storage: storage() });
      },
      { prefix: '/api' },
    );
    await app.ready();
  };
  await assert.rejects(start(), (error: Error) => /^@skillmount\/fastify: a route already exists at \/mcp \(under the prefix \/api\),/.test(error.message));
  await app.close().catch(() => undefined);
});

test("the plugin first, then the app's own POST /mcp: the app's call throws the plugin's error", async () => {
  const app = Fastify();
  try {
    await app.register(skillsPlugin, { storage: storage() });
    assert.throws(
      () => app.post('/mcp', async () => ({})),
      (error: Error) => {
        assert.match(error.message, ADVICE);
        assert.match(error.message, /at POST \/mcp,/);
        return true;
      },
    );
    // Other paths and methods the endpoint does not take stay the app's.
    app.post('/other', async () => ({}));
    app.put('/mcp', async () => ({}));
    await app.ready();
  } finally {
    await app.close();
  }
});

test('with path: false the app keeps its own /mcp route on every method', async () => {
  const app = Fastify();
  try {
    await app.register(skillsPlugin, { storage: storage(), path: false });
    app.route({ method: ['GET', 'POST', 'DELETE'], url: '/mcp', handler: async () => ({ own: true }) });
    await app.ready();
    assert.deepEqual((await app.inject({ method: 'DELETE', url: '/mcp' })).json(), { own: true });
  } finally {
    await app.close();
  }
});
