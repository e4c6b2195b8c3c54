import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import express from 'express';
import { tenantCatalogs, type SkillContext, type SkillWarning } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import { skillsMiddleware } from '@skillmount/express';
import { EXAMPLES, checkSkillsEndpoint } from '../support/skills-suite.js';
import { ADAPTERS, REFUSED_KEYS, checkIsolation, tenantFolders, type Via } from './helpers.js';

test('folder per tenant: isolation on Fastify and Express, stateless, with sessions and on an existing route, on both protocol eras', async (t) => {
  const root = await tenantFolders(t);
  const warnings: SkillWarning[] = [];
  const tenants = tenantCatalogs({
    key: (ctx) => ctx.tenant as string | undefined,
    storage: (key) => fsStorage(path.join(root, key)),
    onWarning: (w) => warnings.push(w),
  });
  t.after(() => tenants.close());

  let combinations = 0;
  let probes = 0;
  for (const adapter of ['fastify', 'express'] as const) {
    for (const via of ['header', 'auth'] as Via[]) {
      for (const mode of ['stateless', 'sessions', 'existing route', '2026-07-28', '2026-07-28 on an existing route'] as const) {
        const modern = mode.startsWith('2026-07-28');
        const existingRoute = mode.endsWith('existing route');
        // The modern path is served beside sessions: it must not need them.
        const served = await ADAPTERS[adapter](tenants, { via, sessions: mode === 'sessions' || mode === '2026-07-28', existingRoute });
        try {
          probes += (await checkIsolation(served.url, via, mode === 'sessions', modern)).probes;
          combinations++;
        } catch (error) {
          throw new Error(`${adapter}, tenant from ${via}, ${mode}: ${(error as Error).message}`, { cause: error });
        } finally {
          await served.close();
        }
      }
    }
  }
  assert.equal(combinations, 20);
  assert.ok(probes >= 20 * 7);
  assert.deepEqual(tenants.loaded.slice().sort(), ['a', 'b'], 'only real tenants were ever loaded');

  // Each refused key was reported once, however many requests carried it.
  const refusals = warnings.filter((w) => w.code === 'tenant-key-refused');
  assert.equal(refusals.length, REFUSED_KEYS.length, refusals.map((w) => w.message).join('\n'));
  assert.ok(refusals.some((w) => w.message.includes('"a/b"') && w.message.includes('contains "/"')));
  assert.deepEqual(
    warnings.filter((w) => w.code !== 'tenant-key-refused'),
    [],
  );
});

test('the key function may read the SDK auth or the headers itself', async (t) => {
  const root = await tenantFolders(t);
  const keys: Record<Via, (ctx: SkillContext) => string | undefined> = {
    auth: (ctx) => ctx.auth?.extra?.tenant as string | undefined,
    header: (ctx) => ctx.headers['x-tenant'] as string | undefined,
  };
  for (const via of ['auth', 'header'] as Via[]) {
    const tenants = tenantCatalogs({ key: keys[via], storage: (key) => fsStorage(path.join(root, key)), onWarning: () => undefined });
    const adapter = via === 'auth' ? 'fastify' : 'express';
    {
      const served = await ADAPTERS[adapter](tenants, { via });
      try {
        await checkIsolation(served.url, via, false);
      } finally {
        await served.close();
      }
    }
    await tenants.close();
  }
});

test('a tenant catalog passes the whole endpoint check', async (t) => {
  const tenants = tenantCatalogs({
    key: (ctx) => ctx.tenant as string | undefined,
    storage: (key) => fsStorage(key === 'examples' ? EXAMPLES : path.join(EXAMPLES, '..', 'missing', key)),
    catalog: { pageSize: 2 },
  });
  const skills = skillsMiddleware({ source: tenants, context: () => ({ tenant: 'examples' }) });
  const app = express();
  app.use('/mcp', skills);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  t.after(async () => {
    await skills.close();
    await tenants.close();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  });
  const { port } = server.address() as { port: number };
  await checkSkillsEndpoint(`http://127.0.0.1:${port}/mcp`, { pageSize: 2 });
});
