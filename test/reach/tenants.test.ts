/**
 * The read and search tools and the prompts on per-tenant catalogs with a visible() rule: each
 * tenant sees its own skills as prompts, finds them in its own search index and reads only its own files, a skill hidden from a user answers as a
 * missing one, and another tenant's skill likewise, behind both adapters and on both eras.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from '@modelcontextprotocol/client';
import { memoryStorage, tenantCatalogs, type SkillContext, type SkillEntry } from '@skillmount/core';
import { ADAPTERS, startAdapter, type StartedAdapter } from '../adapters/support.js';
import { connectClient } from '../support/client.js';
import { TREES } from '../tenants/helpers.js';

/** Tenant b's `beta-secrets` is for its admins only. */
const adminsOnly = (entry: SkillEntry, ctx: SkillContext) => ctx.user === 'admin' || entry.frontmatter.name !== 'beta-secrets';
const SECRET = 'skill://beta-secrets/files/secret.md';

/** What one client does with the surfaces: list prompts, get one, call the tool. */
interface Surfaces {
  prompts(): Promise<string[]>;
  prompt(name: string): Promise<{ text?: string; error?: string }>;
  read(args: Record<string, string>): Promise<{ text: string; isError: boolean }>;
  /** search_skills: the URIs found, best first. */
  search(query: string): Promise<string[]>;
  close(): Promise<void>;
}

async function legacy(url: string, headers: Record<string, string>): Promise<Surfaces> {
  const { client, call, close } = await connectClient(url, headers);
  return {
    prompts: async () => (await client.listPrompts()).prompts.map((p) => p.name).sort(),
    prompt: (name) =>
      call('prompts/get', { name }).then(
        (r) => ({ text: r.messages[0].content.resource.text }),
        (e) => ({ error: `${e.code} ${e.message}` }),
      ),
    read: async (args) => {
      const r = (await client.callTool({ name: 'read_skill', arguments: args })) as any;
      return { text: r.content[0].text, isError: r.isError === true };
    },
    search: async (query) => ((await client.callTool({ name: 'search_skills', arguments: { query } })).structuredContent as any).skills.map((s: any) => s.uri),
    close,
  };
}

async function modern(url: string, headers: Record<string, string>): Promise<Surfaces> {
  const client = new V2Client({ name: 'reach-tenants', version: '0.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } as never } });
  await client.connect(new V2Transport(new URL(url), { requestInit: { headers } }));
  return {
    prompts: async () => (await client.listPrompts()).prompts.map((p) => p.name).sort(),
    prompt: (name) =>
      client.getPrompt({ name }).then(
        (r) => ({ text: (r.messages[0]!.content as any).resource.text }),
        (e) => ({ error: `${e.code} ${e.message}` }),
      ),
    read: async (args) => {
      const r = (await client.callTool({ name: 'read_skill', arguments: args })) as any;
      return { text: r.content[0].text, isError: r.isError === true };
    },
    search: async (query) => ((await client.callTool({ name: 'search_skills', arguments: { query } })).structuredContent as any).skills.map((s: any) => s.uri),
    close: () => client.close(),
  };
}

for (const kind of ADAPTERS) {
  describe(`${kind}: tools, search and prompts per tenant, with visible()`, () => {
    let app: StartedAdapter;
    before(async () => {
      const source = tenantCatalogs({
        key: (ctx) => ctx.tenant as string | undefined,
        storage: (key) => memoryStorage(TREES[key as 'a' | 'b'] ?? {}),
        catalog: { search: true },
      });
      const context = (req: { headers: Record<string, unknown> }) => ({ tenant: req.headers['x-tenant'], user: req.headers['x-user'] });
      app = await startAdapter(kind, {
        source,
        context,
        visible: adminsOnly as never,
        tools: true,
        prompts: true,
        search: true,
        sessions: true,
        onWarning: () => undefined,
      });
    });
    after(() => app?.close());

    for (const [era, connect] of [
      ['2025-11-25', legacy],
      ['2026-07-28', modern],
    ] as const) {
      test(`${era}: each tenant's prompts and files; hidden and foreign skills answer as missing`, { timeout: 60_000 }, async () => {
        const as = (tenant: string, user: string) => connect(app.url, { 'x-tenant': tenant, 'x-user': user });
        const [aAdmin, bAnn, bAdmin] = await Promise.all([as('a', 'admin'), as('b', 'ann'), as('b', 'admin')]);
        try {
          assert.deepEqual(await aAdmin.prompts(), ['alpha-notes', 'greet']);
          assert.deepEqual(await bAnn.prompts(), ['greet']);
          assert.deepEqual(await bAdmin.prompts(), ['beta-secrets', 'greet']);
          assert.match((await aAdmin.prompt('greet')).text!, /A style/);
          assert.match((await bAnn.prompt('greet')).text!, /B style/);

          // prompts/get and read_skill: hidden (b, ann) and foreign (a, admin) answer as a skill that exists nowhere.
          for (const client of [aAdmin, bAnn]) {
            const missing = await client.prompt('no-such-skill');
            assert.equal((await client.prompt('beta-secrets')).error, missing.error!.replace('no-such-skill', 'beta-secrets'));
            const missingFile = await client.read({ uri: 'skill://no-such-skill/files/secret.md' });
            const secret = await client.read({ uri: SECRET });
            assert.equal(secret.isError, true);
            assert.equal(secret.text, missingFile.text.replace('no-such-skill', 'beta-secrets'));
            const byName = await client.read({ name: 'beta-secrets' });
            assert.equal(byName.text, (await client.read({ name: 'no-such-skill' })).text.replace('no-such-skill', 'beta-secrets'));
          }
          // search_skills: each tenant's own index, and the rule within it.
          assert.deepEqual(await aAdmin.search('notes'), ['skill://alpha-notes/SKILL.md']);
          assert.deepEqual(await aAdmin.search('secrets'), []);
          assert.deepEqual(await bAnn.search('secrets'), []);
          assert.deepEqual(await bAdmin.search('secrets'), ['skill://beta-secrets/SKILL.md']);
          assert.deepEqual(await bAnn.search('notes'), []);
          assert.deepEqual(await bAdmin.read({ uri: SECRET }), { text: 'the secret of B\n', isError: false });
          assert.deepEqual(await aAdmin.read({ uri: 'skill://greet/a-phrases.md' }), { text: 'Hello from A\n', isError: false });
          assert.equal((await aAdmin.read({ uri: 'skill://greet/b-phrases.md' })).isError, true);
        } finally {
          await Promise.all([aAdmin.close(), bAnn.close(), bAdmin.close()]);
        }
      });
    }
  });
}
