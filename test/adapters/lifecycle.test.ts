/**
 * Start and shutdown behind each adapter: what closing closes (a storage given as `storage` is the
 * adapter's; a catalog or source passed in stays the app's), open event streams ending, and a
 * catalog that cannot be built at start.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import express from 'express';
import Fastify from 'fastify';
import { CatalogError, memoryStorage, SkillCatalog, type SkillFiles, type SkillWarning } from '@skillmount/core';
import { skillsMiddleware } from '@skillmount/express';
import skillsPlugin from '@skillmount/fastify';
import { listenExpressSkills } from '../support/apps.js';
import { connectClient } from '../support/client.js';
import { skillMd } from '../support/skill-md.js';
import { sleep, within } from '../support/wait.js';
import { ADAPTERS, startAdapter } from './support.js';

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});
const JSON_RPC = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

/** A memory storage that counts its watchers and records its close. */
function instrumentedStorage() {
  const inner = memoryStorage({ 'greet/SKILL.md': skillMd('greet') });
  const state = { watching: 0, closed: false };
  const storage: SkillFiles = {
    list: (dir) => inner.list(dir),
    read: (path) => inner.read(path),
    watch: (onChange) => {
      state.watching++;
      const stop = inner.watch!(onChange);
      return () => {
        state.watching--;
        stop();
      };
    },
    close: async () => {
      state.closed = true;
    },
  };
  return { storage, state };
}

for (const kind of ADAPTERS) {
  test(`${kind}: closing stops watching and closes the catalog it loaded and the storage given as \`storage\``, async (t) => {
    const { storage, state } = instrumentedStorage();
    const started = await startAdapter(kind, { storage, watch: true });
    t.after(() => started.close());
    assert.equal(state.watching, 1);
    await started.closeAdapter();
    await started.closeAdapter();
    assert.equal(state.watching, 0);
    assert.equal(state.closed, true, "the storage given as `storage` is the adapter's: closed with it");
    const after = await fetch(started.url, { method: 'POST', headers: JSON_RPC, body: INITIALIZE }).then(
      async (res) => ({ status: res.status, body: (await res.json()) as any }),
      (error: Error) => error,
    );
    if (kind === 'fastify') {
      // app.close() closes the app's HTTP server with the plugin: nothing listens any more.
      assert.ok(after instanceof Error, 'the connection is refused');
    } else {
      // router.close() closes the router, not the app's HTTP server, which keeps serving its other routes:
      // the router answers that it is closed.
      assert.ok(!(after instanceof Error));
      assert.equal(after.status, 503);
      assert.deepEqual(after.body, { jsonrpc: '2.0', error: { code: -32000, message: 'Service unavailable: this skills endpoint is closed' }, id: null });
    }
  });

  test(`${kind}: a catalog or source passed in is served as it is, and left open by closing`, async (t) => {
    const storage = memoryStorage({ 'greet/SKILL.md': skillMd('greet') });
    const catalog = await SkillCatalog.load(storage);
    const fromCatalog = await startAdapter(kind, { catalog, watch: true });
    t.after(() => fromCatalog.close());
    assert.equal(fromCatalog.skills.catalog, catalog);
    assert.equal(fromCatalog.skills.entries, catalog.entries);
    const fromSource = await startAdapter(kind, { source: catalog });
    t.after(() => fromSource.close());
    // A SkillCatalog given as `source` is a catalog all the same.
    assert.equal(fromSource.skills.catalog, catalog);
    assert.equal(fromSource.skills.entries, catalog.entries);
    for (const started of [fromCatalog, fromSource]) {
      const { call, close } = await connectClient(started.url);
      try {
        assert.equal((await call('skills/list')).skills.length, 1);
      } finally {
        await close();
      }
    }
    await fromCatalog.closeAdapter();
    await fromSource.closeAdapter();
    // No longer watched by the adapter...
    storage.write('wave/SKILL.md', skillMd('wave'));
    await sleep(50);
    assert.equal(catalog.entries.length, 1, 'not watched any more');
    // ...but still open: it reloads (through either adapter too) and serves.
    assert.deepEqual((await fromSource.skills.reload()).added, ['skill://wave/SKILL.md']);
    assert.equal((await catalog.list()).skills.length, 2);
  });

  test(`${kind}: closing ends the event streams of open sessions`, async (t) => {
    const started = await startAdapter(kind, { storage: memoryStorage({ 'greet/SKILL.md': skillMd('greet') }), sessions: true });
    t.after(() => started.close());
    const init = await fetch(started.url, { method: 'POST', headers: JSON_RPC, body: INITIALIZE });
    assert.equal(init.status, 200);
    const session = init.headers.get('mcp-session-id')!;
    assert.ok(session);
    await init.text();
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    const initialized = await fetch(started.url, {
      method: 'POST',
      headers: { ...JSON_RPC, ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    assert.equal(initialized.status, 202);
    const stream = await fetch(started.url, { headers: { accept: 'text/event-stream', ...headers } });
    assert.equal(stream.status, 200);
    const ended = stream.text().then(
      () => 'ended',
      () => 'ended',
    );
    await started.closeAdapter();
    assert.equal(await within(ended, 5000, 'the session event stream to end once the adapter closed'), 'ended');
  });
}

test('pinned difference: under strict, a storage whose catalog cannot be built', async (t) => {
  const broken = () => memoryStorage({ 'bad/SKILL.md': skillMd('not-bad') });
  const isCatalogError = (error: unknown) => {
    assert.ok(error instanceof CatalogError, String(error));
    assert.match(error.message, /bad/);
    return true;
  };
  // Fastify: a plugin loads while the app starts (registration is awaited), so the app does not start.
  const app = Fastify();
  app.register(skillsPlugin, { storage: broken(), strict: true });
  await assert.rejects(async () => {
    await app.ready();
  }, isCatalogError);
  await app.close().catch(() => undefined);

  // Express: a middleware is created synchronously, so the catalog loads in the background: `ready`
  // rejects with the load error, onWarning hears of it, and requests get -32603 until reload() loads.
  const warnings: SkillWarning[] = [];
  const skills = skillsMiddleware({ storage: broken(), strict: true, onWarning: (w) => warnings.push(w) });
  await assert.rejects(skills.ready, isCatalogError);
  const http = await listenExpressSkills(express(), skills);
  t.after(() => http.close());
  const res = await fetch(http.url, { method: 'POST', headers: JSON_RPC, body: INITIALIZE });
  assert.equal(res.status, 500);
  assert.deepEqual(await res.json(), { jsonrpc: '2.0', error: { code: -32603, message: 'skills catalog failed to load' }, id: null });
  assert.deepEqual(
    warnings.map((w) => w.code),
    ['load-failed'],
  );
});
