import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SkillCatalog } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import { connectClient } from '../support/client.js';
import { EXAMPLES } from '../support/skills-suite.js';
import { startApp } from './app.js';
import { recordingSource } from '../support/recording-source.js';

const authFor = (token: string) => ({ token, clientId: `client-${token}`, scopes: ['skills:read'] });

test('every SkillSource call sees the app context, the headers and request.auth', async () => {
  const catalog = await SkillCatalog.load(fsStorage(EXAMPLES));
  const { source, seen } = recordingSource(catalog);
  const { app, url } = await startApp(
    {
      source,
      context: (request) => {
        const tenant = request.headers['x-tenant'];
        if (typeof tenant !== 'string') throw Object.assign(new Error('x-tenant header required'), { statusCode: 401 });
        return { tenant, user: `user-of-${tenant}` };
      },
    },
    (app) => {
      app.decorateRequest('auth', null);
      app.addHook('onRequest', async (request) => {
        const token = request.headers.authorization?.replace(/^Bearer /, '');
        // On the Fastify request only: the plugin carries it to the Node request the SDK reads.
        if (token) (request as unknown as { auth: unknown }).auth = authFor(token);
      });
    },
  );
  try {
    assert.equal(app.skills.catalog, undefined, 'a custom source is not a catalog');
    assert.deepEqual(app.skills.entries, []);
    await assert.rejects(app.skills.reload(), /@skillmount\/fastify: app\.skills\.reload\(\) needs a catalog/);

    const acme = await connectClient(url, { authorization: 'Bearer t-acme', 'x-tenant': 'acme' });
    const globex = await connectClient(url, { authorization: 'Bearer t-globex', 'x-tenant': 'globex' });
    try {
      // Interleaved, so a context leaking from one request into another would show.
      await Promise.all([
        acme.call('skills/list'),
        globex.call('skills/get', { uri: 'skill://git-workflow/SKILL.md' }),
        acme.client.readResource({ uri: 'skill://git-workflow/SKILL.md' }),
        globex.call('skills/list'),
      ]);
    } finally {
      await acme.close();
      await globex.close();
    }
    assert.equal(seen.length, 4);
    for (const ctx of seen) {
      const tenant = ctx.tenant as string;
      assert.ok(tenant === 'acme' || tenant === 'globex');
      assert.equal(ctx.user, `user-of-${tenant}`, 'field from context(request)');
      assert.equal(ctx.headers['x-tenant'], tenant, 'request headers');
      assert.deepEqual(ctx.auth, authFor(`t-${tenant}`), 'request.auth from the hook');
    }
    assert.equal(seen.filter((ctx) => ctx.tenant === 'acme').length, 2);

    // An error thrown by the context function goes through Fastify's error handling.
    const refused = await fetch(url, {
      method: 'POST',
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'skills/list', params: {} }),
    });
    assert.equal(refused.status, 401);
    assert.match(((await refused.json()) as any).message, /x-tenant header required/);
    assert.equal(seen.length, 4, 'the source was never called for the refused request');
  } finally {
    await app.close();
  }
});
