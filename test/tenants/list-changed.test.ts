import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { tenantCatalogs, type SkillWarning } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import { connectClient } from '../support/client.js';
import { listen, modern } from '../modern/support.js';
import { ADAPTERS, skillMd, sleep, tenantFolders, tenantHeaders, waitFor, writeTree, type Via } from './helpers.js';

/** A session client of one tenant that counts the list_changed notifications it receives. */
async function listener(url: string, via: Via, tenant: string) {
  const connected = await connectClient(url, tenantHeaders(via, tenant));
  const heard = { count: 0 };
  connected.client.setNotificationHandler(ResourceListChangedNotificationSchema, async () => {
    heard.count++;
  });
  return { ...connected, heard };
}

/** Sessions open their event stream (GET) just after connecting; count them per tenant header. */
function streamCounter(via: Via) {
  const opened = new Map<string, number>();
  return {
    opened,
    onRequest(method: string, headers: Record<string, string | string[] | undefined>) {
      if (method !== 'GET') return;
      const tenant = String(via === 'header' ? headers['x-tenant'] : headers.authorization?.toString().slice('Bearer token-'.length));
      opened.set(tenant, (opened.get(tenant) ?? 0) + 1);
    },
  };
}

for (const [adapter, via] of [
  ['fastify', 'auth'],
  ['express', 'header'],
] as const) {
  test(`${adapter} sessions: a change in one tenant's storage reaches that tenant's sessions only`, async (t) => {
    const root = await tenantFolders(t);
    // Checked before the test ends: its folders are removed first at teardown, which watchers may still report.
    const warnings: SkillWarning[] = [];
    const tenants = tenantCatalogs({
      key: (ctx) => ctx.tenant as string | undefined,
      storage: (key) => fsStorage(path.join(root, key), { debounceMs: 20 }),
      watch: true,
      onWarning: (w) => warnings.push(w),
    });
    t.after(() => tenants.close());
    const streams = streamCounter(via);
    const served = await ADAPTERS[adapter](tenants, { via, sessions: true, onRequest: streams.onRequest });
    t.after(() => served.close());

    const a1 = await listener(served.url, via, 'a');
    const a2 = await listener(served.url, via, 'a');
    const b = await listener(served.url, via, 'b');
    const none = await listener(served.url, via, '..');
    t.after(() => Promise.all([a1, a2, b, none].map((c) => c.close())).then(() => undefined));
    // Load both tenants (which starts watching their folders) and let every event stream open.
    for (const client of [a1, a2, b, none]) await client.call('skills/list');
    await waitFor(
      () => streams.opened.get('a') === 2 && streams.opened.get('b') === 1 && streams.opened.get('..') === 1,
      'every session to open its event stream',
    );
    await sleep(100);

    await writeTree(path.join(root, 'a'), { 'news/SKILL.md': skillMd('news', 'Only tenant A gets this.') });
    await waitFor(() => a1.heard.count > 0 && a2.heard.count > 0, "both of A's sessions to hear of A's change");
    await sleep(400);
    assert.equal(b.heard.count, 0, "B's session hears nothing of A's change");
    assert.equal(none.heard.count, 0, 'a session without a tenant hears nothing');
    assert.ok((await a1.call('skills/list')).skills.some((s: { uri: string }) => s.uri === 'skill://news/SKILL.md'));
    assert.ok(!(await b.call('skills/list')).skills.some((s: { uri: string }) => s.uri === 'skill://news/SKILL.md'));

    const aHeard = a1.heard.count + a2.heard.count;
    await writeTree(path.join(root, 'b'), { 'greet/SKILL.md': skillMd('greet', 'B changed its greeting.') });
    await waitFor(() => b.heard.count > 0, "B's session to hear of B's change");
    await sleep(400);
    assert.equal(a1.heard.count + a2.heard.count, aHeard, "A's sessions hear nothing of B's change");
    assert.equal(none.heard.count, 0);
    assert.deepEqual([...new Set(warnings.map((w) => w.code))], ['tenant-key-refused'], warnings.map((w) => w.message).join('\n'));
  });
}

test('a tenant evicted while its sessions stay is told of changes made meanwhile when it loads again, and only then', async (t) => {
  const root = await tenantFolders(t);
  const tenants = tenantCatalogs({ key: (ctx) => ctx.tenant as string | undefined, storage: (key) => fsStorage(path.join(root, key)) });
  t.after(() => tenants.close());
  const streams = streamCounter('header');
  const served = await ADAPTERS.express(tenants, { via: 'header', sessions: true, onRequest: streams.onRequest });
  t.after(() => served.close());
  const a = await listener(served.url, 'header', 'a');
  const b = await listener(served.url, 'header', 'b');
  t.after(() => Promise.all([a, b].map((c) => c.close())).then(() => undefined));
  await a.call('skills/list');
  await b.call('skills/list');
  await waitFor(() => streams.opened.get('a') === 1 && streams.opened.get('b') === 1, 'event streams');
  await sleep(100);

  // Unchanged while out of memory: loading it again tells nobody.
  await tenants.evict('a');
  await a.call('skills/list');
  await sleep(300);
  assert.equal(a.heard.count, 0);

  // Changed while out of memory (no watch): the next load tells A's session.
  await tenants.evict('a');
  await writeTree(path.join(root, 'a'), { 'later/SKILL.md': skillMd('later', 'Written while evicted.') });
  await b.call('skills/list');
  await a.call('skills/get', { uri: 'skill://greet/SKILL.md' });
  await waitFor(() => a.heard.count === 1, "A's session to hear that its list changed");
  await sleep(300);
  assert.equal(b.heard.count, 0);

  // An explicit reload of b reaches b only.
  await writeTree(path.join(root, 'b'), { 'fresh/SKILL.md': skillMd('fresh', 'New for B.') });
  assert.equal((await tenants.reload('b'))?.listChanged, true);
  await waitFor(() => b.heard.count === 1, "B's session to hear of its reload");
  await sleep(300);
  assert.equal(a.heard.count, 1);
});

for (const [adapter, via] of [
  ['fastify', 'header'],
  ['express', 'auth'],
] as const) {
  test(`${adapter}, protocol 2026-07-28: subscriptions/listen hears only its own tenant's changes`, async (t) => {
    const root = await tenantFolders(t);
    const tenants = tenantCatalogs({
      key: (ctx) => ctx.tenant as string | undefined,
      storage: (key) => fsStorage(path.join(root, key), { debounceMs: 20 }),
      watch: true,
      onWarning: () => undefined,
    });
    t.after(() => tenants.close());
    const served = await ADAPTERS[adapter](tenants, { via });
    t.after(() => served.close());
    const a = await listen(served.url, { resourcesListChanged: true }, tenantHeaders(via, 'a'));
    const b = await listen(served.url, { resourcesListChanged: true }, tenantHeaders(via, 'b'));
    const none = await listen(served.url, { resourcesListChanged: true });
    t.after(() => {
      for (const s of [a, b, none]) s.close();
    });
    for (const stream of [a, b, none]) assert.equal((await stream.frame(1)).method, 'notifications/subscriptions/acknowledged');
    // A listing loads the tenant (and starts watching its folder), as a client does before it listens for changes.
    for (const tenant of ['a', 'b']) assert.equal((await modern(served.url, 'skills/list', {}, { headers: tenantHeaders(via, tenant) })).status, 200);
    await sleep(100);

    await writeTree(path.join(root, 'a'), { 'news/SKILL.md': skillMd('news', 'Only tenant A gets this.') });
    const heard = await a.frame(2);
    assert.equal(heard.method, 'notifications/resources/list_changed');
    await sleep(400);
    assert.equal(b.frames.length, 1, "B's stream hears nothing of A's change");
    assert.equal(none.frames.length, 1, 'a stream without a tenant hears nothing');

    await writeTree(path.join(root, 'b'), { 'greet/SKILL.md': skillMd('greet', 'B changed its greeting.') });
    assert.equal((await b.frame(2)).method, 'notifications/resources/list_changed');
    await sleep(400);
    assert.equal(a.frames.length, 2, "A's stream hears nothing of B's change");
  });
}
