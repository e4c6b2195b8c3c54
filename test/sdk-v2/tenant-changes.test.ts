/**
 * A tenant's list change reaches that tenant's listening clients and not another's, on the SDK v2
 * path: per-tenant catalogs (`tenantCatalogs` keyed on the app's auth, watched folders) served
 * with one SDK v2 handler per tenant (`sdkV2TenantHandler`), each tenant with a client listening
 * on `subscriptions/listen` (2026-07-28). A file written into tenant acme's folder reaches acme's
 * listener as `notifications/resources/list_changed`, with its digest served to acme; globex's
 * listener hears nothing, and globex's listing does not change. A tenant's handler is kept while
 * its listener is open, and a new one is made once it has gone.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SkillsClient as V2SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { tenantCatalogs, type SkillContext } from '@skillmount/core';
import { notifyListChanges, sdkV2TenantHandler } from '@skillmount/core/sdk-v2';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { fsStorage } from '@skillmount/storage-fs';
import { numberedSkills, tempDir, writeTree } from '../support/trees.js';
import { FRAMEWORKS, serveSdkV2, serveSdkV2Tenants, type SdkV2TenantsApp } from './support.js';

const sha256 = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;
/** How long the other tenant's listener is given to hear a change it must not hear, after the right one heard it. */
const SILENCE_MS = 3_000;

/** A 2026-07-28 SDK v2 client of one tenant, listening for resource list changes; `heard` counts them. */
async function listener(url: string, org: string) {
  const client = new Client({ name: `sdk-v2-host-${org}`, version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${org}` } } }));
  let heard = 0;
  client.setNotificationHandler('notifications/resources/list_changed', () => {
    heard++;
  });
  const subscription = await client.listen({ resourcesListChanged: true });
  assert.equal(subscription.honoredFilter.resourcesListChanged, true);
  return {
    client,
    skills: new V2SkillsClient(client),
    heard: () => heard,
    async close() {
      await subscription.close();
      await client.close();
    },
  };
}

async function until(done: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`${what} within ${ms} ms`);
    await sleep(50);
  }
}

for (const framework of FRAMEWORKS) {
  describe(`an SDK v2 app on @modelcontextprotocol/${framework}: one handler per tenant (sdkV2TenantHandler)`, () => {
    const root = tempDir('skillmount-sdk-v2-tenant-changes-');
    const tenants = tenantCatalogs({
      key: (ctx) => (ctx.auth?.extra as { org?: string } | undefined)?.org,
      storage: (org) => fsStorage(path.join(root.dir, org), { debounceMs: 50 }),
      watch: true,
      onWarning: () => undefined,
    });
    let app: SdkV2TenantsApp;
    before(async () => {
      writeTree(root.dir, {
        ...Object.fromEntries(Object.entries(numberedSkills(2)).map(([rel, text]) => [`acme/${rel}`, text])),
        'globex/only-globex/SKILL.md': '---\nname: only-globex\ndescription: Globex only.\n---\n',
      });
      app = await serveSdkV2Tenants(framework, tenants);
    });
    after(async () => {
      await app?.close();
      await tenants.close();
      root.remove();
    });

    test("a file written into acme's watched folder reaches acme's listener with its digest, and not globex's", async () => {
      const acme = await listener(app.url, 'acme');
      const globex = await listener(app.url, 'globex');
      try {
        const globexBefore = await globex.skills.list();
        assert.deepEqual(
          globexBefore.skills.map((s) => s.uri),
          ['skill://only-globex/SKILL.md'],
        );
        assert.equal((await acme.skills.list()).skills.length, 2, "acme's catalog is loaded and watched");
        const made = app.created.length;
        assert.ok(app.created.includes('acme') && app.created.includes('globex'), `handlers made for: ${app.created.join(', ')}`);

        const added = '# Added for acme\n';
        writeTree(root.dir, { 'acme/skill-0/refs/added.md': added });
        await until(() => acme.heard() > 0, 15_000, "no notifications/resources/list_changed on acme's listener");
        const { skill } = await acme.skills.get('skill://skill-0/SKILL.md');
        const listed = (skill.resources as { uri: string; digest: string; size: number }[]).find((r) => r.uri === 'skill://skill-0/refs/added.md');
        assert.deepEqual(listed, { uri: 'skill://skill-0/refs/added.md', digest: sha256(added), size: Buffer.byteLength(added) });
        assert.equal(Buffer.from((await acme.skills.read(skill, 'refs/added.md')).bytes).toString('utf8'), added);

        await sleep(SILENCE_MS);
        assert.equal(globex.heard(), 0, "globex's listener heard acme's change");
        assert.deepEqual(await globex.skills.list(), globexBefore, "globex's listing is unchanged");

        // The other way round: globex's change is told to globex only.
        const heardByAcme = acme.heard();
        writeTree(root.dir, { 'globex/second/SKILL.md': '---\nname: second\ndescription: Globex too.\n---\n' });
        await until(() => globex.heard() > 0, 15_000, "no notifications/resources/list_changed on globex's listener");
        assert.deepEqual(
          (await globex.skills.list()).skills.map((s) => s.uri),
          ['skill://only-globex/SKILL.md', 'skill://second/SKILL.md'],
        );
        await sleep(SILENCE_MS);
        assert.equal(acme.heard(), heardByAcme, "acme's listener heard globex's change");
        assert.equal(app.created.length, made, "while a tenant's listener is open, its requests go to the same handler");
      } finally {
        await Promise.all([acme.close(), globex.close()]);
      }
    });

    test('a client of a tenant that connects later hears the changes made after it listens', async () => {
      // Every earlier client has closed, so their handlers were let go and this listener opens on a new one.
      const made = app.created.length;
      const acme = await listener(app.url, 'acme');
      try {
        assert.ok(app.created.slice(made).includes('acme'), `handlers made since: ${app.created.slice(made).join(', ')}`);
        writeTree(root.dir, { 'acme/skill-1/refs/later.md': 'Later.\n' });
        await until(() => acme.heard() > 0, 15_000, "no notifications/resources/list_changed on acme's new listener");
        const { skill } = await acme.skills.get('skill://skill-1/SKILL.md');
        assert.equal((await acme.skills.read(skill, 'refs/later.md')).verified, true);
      } finally {
        await acme.close();
      }
    });

    test('a request without a tenant is served by a handler of its own, and sees no skills', async () => {
      const client = new Client({ name: 'sdk-v2-host', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
      await client.connect(new StreamableHTTPClientTransport(new URL(app.url)));
      try {
        assert.deepEqual((await new V2SkillsClient(client).list()).skills, []);
        assert.ok(app.created.includes(undefined));
      } finally {
        await client.close();
      }
    });
  });
}

describe('sdkV2TenantHandler refuses what it cannot serve with', () => {
  const tenants = tenantCatalogs({ key: (ctx) => ctx.tenant as string | undefined, load: async () => ({}) as never, onWarning: () => undefined });
  after(() => tenants.close());
  const request = () => new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });

  test('a create that is not a function, at once', () => {
    assert.throws(() => sdkV2TenantHandler(tenants, 'createMcpHandler' as never), {
      name: 'TypeError',
      message: /sdkV2TenantHandler\(tenants, create\) needs create, a function key => createMcpHandler\(\.\.\.\), got string/,
    });
  });

  test('a create that returns no handler, at the first request', async () => {
    const handler = sdkV2TenantHandler(tenants, () => ({ fetch: async () => new Response(null) }) as never);
    await assert.rejects(handler.fetch(request()), { name: 'TypeError', message: /create\(undefined\) must return createMcpHandler\(\.\.\.\), got object/ });
  });

  test('a request after close()', async () => {
    const handler = sdkV2TenantHandler(tenants, () => createMcpHandler(() => new McpServer({ name: 'app', version: '1.0.0' })));
    await handler.close();
    await assert.rejects(handler.fetch(request()), { message: /this sdkV2TenantHandler was closed; make a new one to serve again/ });
  });
});

describe('an SDK v2 app with one handler for every tenant: what sdkV2TenantHandler avoids', () => {
  const root = tempDir('skillmount-sdk-v2-shared-bus-');
  const tenants = tenantCatalogs({
    key: (ctx) => (ctx.auth?.extra as { org?: string } | undefined)?.org,
    storage: (org) => fsStorage(path.join(root.dir, org)),
    onWarning: () => undefined,
  });
  after(async () => {
    await tenants.close();
    root.remove();
  });

  test("a change named for acme is heard by globex's listener too: the handler's listen bus is shared", async () => {
    writeTree(root.dir, {
      'acme/one/SKILL.md': '---\nname: one\ndescription: Acme.\n---\n',
      'globex/two/SKILL.md': '---\nname: two\ndescription: Globex.\n---\n',
    });
    const app = await serveSdkV2('express', tenants, { auth: true });
    const acmeContext: SkillContext = { headers: {}, auth: { token: 'acme', clientId: 'client-acme', scopes: [], extra: { org: 'acme' } } };
    const stop = notifyListChanges(tenants, app.handler.notify, acmeContext);
    const acme = await listener(app.url, 'acme');
    const globex = await listener(app.url, 'globex');
    try {
      assert.equal((await acme.skills.list()).skills.length, 1);
      writeTree(root.dir, { 'acme/one/refs/more.md': 'More.\n' });
      await tenants.reload('acme');
      await until(() => acme.heard() > 0 && globex.heard() > 0, 15_000, 'both listeners did not hear the change');
    } finally {
      stop();
      await Promise.all([acme.close(), globex.close()]);
      await app.close();
    }
  });
});
