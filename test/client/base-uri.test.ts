/**
 * A catalog served under another scheme and authority (`baseUri: 'github://acme/skills/'`), over
 * real HTTP: our SkillsClient verifies it end to end on 2025-11-25, the 2026-07-28 wire serves the
 * same URIs, resources/list and the resource template are under the base, tenants take it too,
 * and the Fastify plugin passes the option through.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { SkillCatalog, memoryStorage, tenantCatalogs } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import { SkillsClient, type SkillEntry } from '@skillmount/core/client';
import { EXAMPLES } from '../support/skills-suite.js';
import { connectClient, errorCode } from '../support/client.js';
import { startApp } from '../fastify/app.js';
import { modern } from '../modern/support.js';
import { listedFiles } from '../support/listed-files.js';
import { connectV1, serveOurs, type Served } from './support/servers.js';

const BASE = 'github://acme/skills/';
const REFUNDS = `${BASE}acme/billing/refunds/SKILL.md`;

/** Every file of every listed skill read and verified, and every folder listed. */
async function readEverything(skills: SkillsClient, listed: readonly SkillEntry[]): Promise<number> {
  let files = 0;
  for (const entry of listed) {
    assert.ok(entry.uri.startsWith(BASE), entry.uri);
    const got = await skills.get(entry.uri);
    assert.deepEqual(got.skill, entry);
    for (const resource of entry.resources as { uri: string }[]) {
      const file = await skills.read(entry, resource.uri);
      assert.equal(file.verified, true, resource.uri);
      files++;
    }
  }
  return files;
}

describe('a catalog under baseUri github://acme/skills/ (SkillsClient over our endpoint)', () => {
  let served: Served & { catalog: SkillCatalog };
  let client: Client;
  let skills: SkillsClient;
  let listed: SkillEntry[];

  before(async () => {
    const catalog = await SkillCatalog.load(fsStorage(EXAMPLES), { baseUri: BASE, pageSize: 1, onWarning: () => {} });
    served = { ...(await serveOurs(catalog)), catalog };
    client = await connectV1(served.url);
    skills = new SkillsClient(client);
    listed = (await skills.list()).skills;
  });
  after(async () => {
    await client.close();
    await served.close();
  });

  test('the catalog says where it serves; every URI is under the base, in canonical form', () => {
    assert.equal(served.catalog.baseUri, BASE);
    assert.deepEqual(
      listed.map((s) => s.uri),
      [REFUNDS, `${BASE}git-workflow/SKILL.md`, `${BASE}pdf-processing/SKILL.md`],
    );
    for (const entry of listed) for (const r of entry.resources as { uri: string }[]) assert.equal(new URL(r.uri).href, r.uri);
  });

  test('list, get and resources/read of every file, verified by the client', async () => {
    assert.ok((await readEverything(skills, listed)) > 5);
    const relative = await skills.read(listed[0]!, 'templates/regional/eu.md');
    assert.equal(relative.uri, `${BASE}acme/billing/refunds/templates/regional/eu.md`);
    assert.equal(relative.verified, true);
  });

  test('resources/directory/read lists folders under the base', async () => {
    assert.equal(skills.directoryRead, true);
    const { resources } = await skills.readDirectory(`${BASE}acme/billing/refunds`);
    assert.ok(resources.length > 0);
    for (const r of resources) assert.ok(r.uri.startsWith(`${BASE}acme/billing/refunds/`), r.uri);
  });

  test('resources/list and the resource template are under the base', async () => {
    const { resources } = await client.listResources();
    assert.deepEqual(resources.map((r) => r.uri).sort(), listed.map((s) => s.uri).sort());
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.ok(
      resourceTemplates.some((t) => t.uriTemplate === `${BASE}{+path}`),
      JSON.stringify(resourceTemplates),
    );
  });

  test('another spelling finds the same skill; skill:// and other repositories are not served', async () => {
    assert.equal((await skills.get('GITHUB://acme/skills/git%2Dworkflow/SKILL.md')).skill.uri, `${BASE}git-workflow/SKILL.md`);
    const raw = (uri: string) => client.request({ method: 'skills/get', params: { uri } } as never, ResultSchema);
    assert.equal(await errorCode(raw('skill://git-workflow/SKILL.md')), -32602);
    assert.equal(await errorCode(raw('github://acme/other/git-workflow/SKILL.md')), -32602);
    assert.equal(await errorCode(raw('github://acme/skills/../skills/git-workflow/SKILL.md')), -32602);
    await assert.rejects(client.readResource({ uri: 'skill://git-workflow/SKILL.md' }));
  });

  test('the 2026-07-28 wire serves the same URIs: skills/list, resources/read, resources/directory/read', async () => {
    const list = await modern(served.url, 'skills/list');
    assert.equal(list.status, 200, list.text);
    assert.ok(list.message.result.skills[0].uri.startsWith(BASE));
    const read = await modern(served.url, 'resources/read', { uri: `${BASE}git-workflow/SKILL.md` });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.message.result.contents[0].uri, `${BASE}git-workflow/SKILL.md`);
    const dir = await modern(served.url, 'resources/directory/read', { uri: `${BASE}acme/billing/refunds` });
    assert.equal(dir.status, 200, dir.text);
    assert.ok(dir.message.result.resources.length > 0);
    const outside = await modern(served.url, 'resources/read', { uri: `${BASE}nothing/SKILL.md` });
    assert.ok(outside.message.error, outside.text);
  });
});

test('a base with a prefix, and the default base, keep their URIs', async () => {
  const files = { 'hello/SKILL.md': '---\nname: hello\ndescription: Says hello.\n---\nHi.\n', 'hello/notes/a b.md': 'x' };
  const prefixed = await SkillCatalog.load(memoryStorage(files), { baseUri: 'https://example.com/skills', prefix: 'team', onWarning: () => {} });
  assert.equal(prefixed.baseUri, 'https://example.com/skills/');
  assert.deepEqual(
    listedFiles(prefixed.entries[0]!)
      .map((r) => r.uri)
      .sort(),
    ['https://example.com/skills/team/hello/SKILL.md', 'https://example.com/skills/team/hello/notes/a%20b.md'],
  );
  assert.equal(
    (await prefixed.readDirectory('https://example.com/skills/team/hello/notes')).resources[0]!.uri,
    'https://example.com/skills/team/hello/notes/a%20b.md',
  );
  const bare = await SkillCatalog.load(memoryStorage(files), { baseUri: 'skill://', onWarning: () => {} });
  assert.equal(bare.baseUri, 'skill://');
  assert.equal(bare.entries[0]!.uri, 'skill://hello/SKILL.md');
  const scheme = await SkillCatalog.load(memoryStorage(files), { baseUri: 'x-skills://', onWarning: () => {} });
  assert.equal(scheme.entries[0]!.uri, 'x-skills://hello/SKILL.md');
  assert.equal((await scheme.get('X-Skills://hello/SKILL.md')).uri, 'x-skills://hello/SKILL.md');
});

test('tenants: every tenant catalog serves under catalog.baseUri, verified by the client', async () => {
  const tenants = tenantCatalogs({
    key: () => 'alpha',
    storage: () => fsStorage(EXAMPLES),
    catalog: { baseUri: BASE, onWarning: () => {} },
  });
  assert.equal(tenants.baseUri, BASE);
  const served = await serveOurs(tenants);
  const client = await connectV1(served.url);
  try {
    const skills = new SkillsClient(client);
    const listed = (await skills.list()).skills;
    assert.equal(listed.length, 3);
    assert.ok((await readEverything(skills, listed)) > 5);
  } finally {
    await client.close();
    await served.close();
    await tenants.close();
  }
});

test('Fastify: the plugin option baseUri serves under it, and a bad one fails registration naming the option', async () => {
  const { app, url } = await startApp({ storage: fsStorage(EXAMPLES), baseUri: BASE, onWarning: () => {} });
  const { client, close } = await connectClient(url);
  try {
    const skills = new SkillsClient(client);
    const listed = (await skills.list()).skills;
    assert.ok(listed.some((s) => s.uri === REFUNDS));
    assert.ok((await readEverything(skills, listed)) > 5);
  } finally {
    await close();
    await app.close();
  }
  await assert.rejects(startApp({ storage: fsStorage(EXAMPLES), baseUri: 'github://acme/skills?ref=main' }), /option "baseUri".*query or fragment/);
});

test('attach refuses a custom source whose baseUri is not a base URI', async () => {
  const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
  const { attach } = await import('@skillmount/core');
  const source = { baseUri: 'not a uri', list: async () => ({ skills: [] }), get: async () => undefined, read: async () => undefined };
  assert.throws(() => attach(new McpServer({ name: 's', version: '1' }), source), /baseUri "not a uri" is not a base URI/);
});
