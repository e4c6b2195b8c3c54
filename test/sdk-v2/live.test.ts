/**
 * What changes per request, on SDK v2 apps serving skillmount sources through `sdkV2Skills` (live
 * reloads are in live-storages.test.ts): two tenants from the app's auth (`tenantCatalogs` keyed on
 * `ctx.auth`) never see each other's skills; the `visible` rule reads an app field from `context`;
 * a source receives the request's auth, headers and signal and the app's fields in its `SkillContext`.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ProtocolError } from '@modelcontextprotocol/client';
import { SkillsClient as V2SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { SkillCatalog, tenantCatalogs, type SkillContext, type SkillSource } from '@skillmount/core';
import { notifyListChanges } from '@skillmount/core/sdk-v2';
import { fsStorage } from '@skillmount/storage-fs';
import { numberedSkills, tempDir, writeTree } from '../support/trees.js';
import { calls, connect, MODERN } from './live-reload.js';
import { FRAMEWORKS, serveSdkV2, type SdkV2App } from './support.js';

const MODES = [{ version: '2025-11-25', options: {} }, MODERN];

/** The JSON-RPC error code a call fails with; fails the test when it succeeds. */
async function codeOf(call: Promise<unknown>): Promise<number> {
  const error = await call.then(
    () => assert.fail('the call succeeded'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ProtocolError, `a ProtocolError, got ${String(error)}`);
  return error.code;
}

for (const framework of FRAMEWORKS) {
  describe(`an SDK v2 app on @modelcontextprotocol/${framework}: two tenants from the app's auth`, () => {
    const root = tempDir('skillmount-sdk-v2-tenants-');
    const tenants = tenantCatalogs({
      key: (ctx) => (ctx.auth?.extra as { org?: string } | undefined)?.org,
      storage: (org) => fsStorage(path.join(root.dir, org)),
      onWarning: () => undefined,
    });
    let app: SdkV2App;
    before(async () => {
      writeTree(root.dir, {
        ...prefixed('acme', numberedSkills(2)),
        'globex/only-globex/SKILL.md': '---\nname: only-globex\ndescription: Globex only.\n---\n',
      });
      app = await serveSdkV2(framework, tenants, { auth: true });
    });
    after(async () => {
      await app?.close();
      await tenants.close();
      root.remove();
    });

    for (const mode of MODES) {
      test(`each tenant lists, gets and reads only its own skills (${mode.version})`, async () => {
        const acme = await connect(app.url, mode.options, { authorization: 'Bearer acme' });
        const globex = await connect(app.url, mode.options, { authorization: 'Bearer globex' });
        const nobody = await connect(app.url, mode.options);
        try {
          assert.equal(acme.getNegotiatedProtocolVersion(), mode.version);
          const [a, g, n] = [new V2SkillsClient(acme), new V2SkillsClient(globex), new V2SkillsClient(nobody)];
          assert.deepEqual(
            (await a.list()).skills.map((s) => s.uri),
            ['skill://skill-0/SKILL.md', 'skill://skill-1/SKILL.md'],
          );
          assert.deepEqual(
            (await g.list()).skills.map((s) => s.uri),
            ['skill://only-globex/SKILL.md'],
          );
          assert.deepEqual((await n.list()).skills, [], 'a request without a tenant sees no skills');
          const own = (await g.get('skill://only-globex/SKILL.md')).skill;
          assert.equal((await g.read(own)).verified, true);
          // Knowing the URI does not help: the other tenant's skill answers as one that does not exist.
          assert.equal(await codeOf(a.get('skill://only-globex/SKILL.md')), -32602);
          assert.equal(await codeOf(acme.readResource({ uri: 'skill://only-globex/SKILL.md' })), -32602);
          assert.equal(await codeOf(globex.readResource({ uri: 'skill://skill-0/SKILL.md' })), -32602);
        } finally {
          await Promise.all([acme.close(), globex.close(), nobody.close()]);
        }
      });
    }

    test("a tenant's reload reaches a listening client when the app names that tenant to notifyListChanges", async () => {
      const acmeContext: SkillContext = { headers: {}, auth: { token: 'acme', clientId: 'client-acme', scopes: [], extra: { org: 'acme' } } };
      const stop = notifyListChanges(tenants, app.handler.notify, acmeContext);
      const client = await connect(app.url, MODERN.options, { authorization: 'Bearer acme' });
      try {
        const changes = calls(15_000);
        client.setNotificationHandler('notifications/resources/list_changed', changes.heard);
        const subscription = await client.listen({ resourcesListChanged: true });
        const skills = new V2SkillsClient(client);
        assert.equal((await skills.list()).skills.length, 2, 'acme is loaded');
        writeTree(root.dir, { 'acme/skill-0/refs/more.md': 'More for acme.\n' });
        const report = await tenants.reload('acme');
        assert.deepEqual(report?.changed, ['skill://skill-0/SKILL.md']);
        await changes.next();
        const { skill } = await skills.get('skill://skill-0/SKILL.md');
        assert.equal((await skills.read(skill, 'refs/more.md')).verified, true);
        await subscription.close();
      } finally {
        stop();
        await client.close();
      }
    });
  });
}

describe('an SDK v2 app with a visible rule on a field from its context option', () => {
  const folder = tempDir('skillmount-sdk-v2-visible-');
  let app: SdkV2App;
  before(async () => {
    writeTree(folder.dir, numberedSkills(2));
    const catalog = await SkillCatalog.load(fsStorage(folder.dir), { onWarning: () => undefined });
    app = await serveSdkV2('express', catalog, {
      context: (ctx) => ({ plan: ctx.http?.req?.headers.get('x-plan') ?? 'free' }),
      visible: (entry, ctx: SkillContext) => ctx.plan === 'pro' || entry.frontmatter.name !== 'skill-1',
    });
  });
  after(async () => {
    await app?.close();
    folder.remove();
  });

  for (const mode of MODES) {
    test(`a hidden skill answers as a missing one; the app field shows it (${mode.version})`, async () => {
      const free = await connect(app.url, mode.options);
      const pro = await connect(app.url, mode.options, { 'x-plan': 'pro' });
      try {
        const [f, p] = [new V2SkillsClient(free), new V2SkillsClient(pro)];
        assert.deepEqual(
          (await f.list()).skills.map((s) => s.uri),
          ['skill://skill-0/SKILL.md'],
        );
        assert.equal(await codeOf(f.get('skill://skill-1/SKILL.md')), -32602);
        assert.equal(await codeOf(free.readResource({ uri: 'skill://skill-1/refs/notes.md' })), -32602);
        const shown = (await p.get('skill://skill-1/SKILL.md')).skill;
        assert.equal((await p.read(shown, 'refs/notes.md')).verified, true);
      } finally {
        await Promise.all([free.close(), pro.close()]);
      }
    });
  }
});

function prefixed(prefix: string, files: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(files).map(([rel, text]) => [`${prefix}/${rel}`, text]));
}

describe('the SkillContext a skillmount source receives behind the SDK v2', () => {
  const folder = tempDir('skillmount-sdk-v2-context-');
  const seen: SkillContext[] = [];
  let app: SdkV2App;
  before(async () => {
    writeTree(folder.dir, numberedSkills(1));
    const catalog = await SkillCatalog.load(fsStorage(folder.dir), { onWarning: () => undefined });
    const recording: SkillSource = {
      list: async (params, ctx) => {
        seen.push(ctx);
        return catalog.list(params);
      },
      get: (uri) => catalog.get(uri),
      read: (uri) => catalog.read(uri),
    };
    app = await serveSdkV2('fastify', recording, { auth: true, context: (ctx) => ({ method: ctx.mcpReq.method, tenant: 'from-the-app' }) });
  });
  after(async () => {
    await app?.close();
    folder.remove();
  });

  for (const mode of MODES) {
    test(`auth, lower-case headers, the signal and the app's fields (${mode.version})`, async () => {
      const client = await connect(app.url, mode.options, { authorization: 'Bearer acme', 'X-Request-Tag': 'tag-1' });
      try {
        seen.length = 0;
        await new V2SkillsClient(client).list();
        assert.equal(seen.length, 1);
        const [ctx] = seen as [SkillContext];
        assert.equal(ctx.auth?.clientId, 'client-acme');
        assert.deepEqual(ctx.auth?.extra, { org: 'acme' });
        assert.equal(ctx.headers['x-request-tag'], 'tag-1');
        assert.equal(ctx.headers.authorization, 'Bearer acme');
        assert.ok(ctx.signal instanceof AbortSignal);
        assert.equal(ctx.method, 'skills/list');
        assert.equal(ctx.tenant, 'from-the-app');
      } finally {
        await client.close();
      }
    });
  }
});
