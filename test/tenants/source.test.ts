import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import {
  MAX_TENANT_KEY_LENGTH,
  SkillCatalog,
  SkillNotFoundError,
  SkillProtocolError,
  buildSkillEntry,
  memoryStorage,
  sha256Digest,
  tenantCatalogs,
  tenantKeyProblem,
  type SkillEntry,
  type SkillWarning,
  type TenantCatalogsOptions,
  OptionError,
  type OptionErrorCode,
  generateSigningKey,
  keyFileSigner,
  SIGNATURE_FILE,
  signSkill,
} from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import { SKILLS_OF, TREES, rawClient, serveExpress, serveFastify, skillMd, tenantFolders, writeTree } from './helpers.js';

const call = async (url: string, tenant: string | undefined, method: string, params: unknown = {}) => {
  const client = await rawClient(url, tenant === undefined ? {} : { 'x-tenant': tenant }, false);
  return client.call(method, params);
};
const listed = async (url: string, tenant: string) => (await call(url, tenant, 'skills/list')).message.result.skills.map((s: { uri: string }) => s.uri);

test('reload(key) reloads one tenant, reload() every loaded one; a failed reload keeps the old catalog', async (t) => {
  const root = await tenantFolders(t);
  const warnings: SkillWarning[] = [];
  const tenants = tenantCatalogs({
    key: (ctx) => ctx.tenant as string | undefined,
    storage: (key) => fsStorage(path.join(root, key)),
    onWarning: (w) => warnings.push(w),
  });
  t.after(() => tenants.close());
  const served = await serveExpress(tenants, { via: 'header' });
  t.after(() => served.close());
  assert.deepEqual(await listed(served.url, 'a'), SKILLS_OF.a);
  assert.deepEqual(await listed(served.url, 'b'), SKILLS_OF.b);

  await writeTree(path.join(root, 'a'), { 'added-later/SKILL.md': skillMd('added-later', 'Appears after a reload.') });
  assert.deepEqual(await listed(served.url, 'a'), SKILLS_OF.a, 'not before the reload');
  const report = await tenants.reload('a');
  assert.deepEqual(report, { added: ['skill://added-later/SKILL.md'], removed: [], changed: [], listChanged: true });
  assert.deepEqual(await listed(served.url, 'a'), ['skill://added-later/SKILL.md', ...SKILLS_OF.a]);
  assert.deepEqual(await listed(served.url, 'b'), SKILLS_OF.b);
  assert.equal(await tenants.reload('not-loaded'), undefined, 'a tenant not in memory has nothing to reload');
  assert.deepEqual(tenants.loaded, ['a', 'b']);

  const all = await tenants.reload();
  assert.deepEqual([...all.keys()].sort(), ['a', 'b']);
  for (const one of all.values()) assert.equal(one.listChanged, false);

  // b's folder disappears: reloading b fails, a still reloads, b keeps serving what it had.
  await rm(path.join(root, 'b'), { recursive: true });
  await assert.rejects(tenants.reload(), (error: AggregateError) => {
    assert.ok(error instanceof AggregateError);
    assert.match(error.message, /reloading 1 of 2 tenants failed \(b\)/);
    assert.equal(error.errors.length, 1);
    return true;
  });
  await assert.rejects(tenants.reload('b'));
  assert.deepEqual(await listed(served.url, 'b'), SKILLS_OF.b, 'the old catalog of b still serves');
  const read = await call(served.url, 'b', 'resources/read', { uri: 'skill://greet/SKILL.md' });
  assert.equal(read.message.error?.code, -32603, 'its files are gone from storage: a read fails cleanly');
  assert.deepEqual(await listed(served.url, 'a'), ['skill://added-later/SKILL.md', ...SKILLS_OF.a]);
});

/** A tenant's skills built by the app from its own records (no storage). */
function builtSource(tenant: string, closed: string[]) {
  const files = { 'SKILL.md': skillMd('greet', `Greets for ${tenant}.`), [`${tenant}-only.md`]: `only for ${tenant}\n` };
  const entry: SkillEntry = buildSkillEntry('greet', files);
  return {
    async list() {
      return { skills: [entry] };
    },
    async get(uri: string) {
      if (uri !== entry.uri) throw new SkillNotFoundError(`No skill is served at ${uri}`, uri);
      return entry;
    },
    async read(uri: string) {
      const file = uri.startsWith('skill://greet/') ? files[uri.slice('skill://greet/'.length)] : undefined;
      if (file === undefined) throw new SkillNotFoundError(`Resource ${uri} not found`, uri);
      const bytes = new TextEncoder().encode(file);
      return { uri, bytes, published: { size: bytes.length, digest: sha256Digest(bytes) } };
    },
    close() {
      closed.push(tenant);
    },
  };
}

test('load: a source per tenant that the app builds itself, cached the same way', async (t) => {
  const loads: string[] = [];
  const closed: string[] = [];
  const tenants = tenantCatalogs({
    key: (ctx) => ctx.tenant as string | undefined,
    load: async (key) => {
      loads.push(key);
      if (key === 'catalog') return SkillCatalog.load(memoryStorage(Object.fromEntries(Object.entries(TREES.a))));
      return builtSource(key, closed);
    },
    max: 2,
  });
  t.after(() => tenants.close());
  const served = await serveFastify(tenants, { via: 'header' });
  t.after(() => served.close());

  const get = await call(served.url, 'a', 'skills/get', { uri: 'skill://greet/SKILL.md' });
  assert.equal(get.message.result.skill.frontmatter.description, 'Greets for a.');
  const own = await call(served.url, 'a', 'resources/read', { uri: 'skill://greet/a-only.md' });
  assert.equal(own.message.result.contents[0].text, 'only for a\n');
  const theirs = await call(served.url, 'a', 'resources/read', { uri: 'skill://greet/b-only.md' });
  const nowhere = await call(served.url, 'a', 'resources/read', { uri: 'skill://greet/z-only.md' });
  assert.equal(theirs.raw, nowhere.raw.replaceAll('z-only', 'b-only'));
  assert.equal(theirs.raw, (await call(served.url, undefined, 'resources/read', { uri: 'skill://greet/b-only.md' })).raw);
  // A source without readDirectory answers like a catalog without that folder.
  const dir = await call(served.url, 'a', 'resources/directory/read', { uri: 'skill://greet' });
  assert.deepEqual(dir.message.error, { code: -32602, message: 'No directory is served at skill://greet', data: { uri: 'skill://greet' } });
  assert.deepEqual(loads, ['a']);

  // Without a reload() of its own, the source is built again and swapped in; the old one is closed.
  assert.deepEqual(await tenants.reload('a'), { added: [], removed: [], changed: [], listChanged: true });
  assert.deepEqual(loads, ['a', 'a']);
  assert.deepEqual(closed, ['a']);

  // A catalog returned by load reloads itself.
  assert.deepEqual(await listed(served.url, 'catalog'), SKILLS_OF.a);
  assert.deepEqual(await tenants.reload('catalog'), { added: [], removed: [], changed: [], listChanged: false });
  // max 2: loading b evicts a (least recently used), which is closed.
  await listed(served.url, 'b');
  assert.deepEqual(tenants.loaded, ['catalog', 'b']);
  assert.deepEqual(closed, ['a', 'a']);
  assert.deepEqual(loads, ['a', 'a', 'catalog', 'b']);
});

test('the key function: a throw is -32603 and reported; a SkillProtocolError it throws reaches the client as is', async (t) => {
  const warnings: SkillWarning[] = [];
  const tenants = tenantCatalogs({
    key: (ctx) => {
      if (ctx.tenant === 'boom') throw new Error('directory service at 10.0.0.7 unreachable');
      if (ctx.tenant === 'anonymous') throw new SkillProtocolError(-32600, 'Sign in to see skills');
      return ctx.tenant as string | undefined;
    },
    load: async (key) => builtSource(key, []),
    onWarning: (w) => warnings.push(w),
  });
  t.after(() => tenants.close());
  const served = await serveExpress(tenants, { via: 'header' });
  t.after(() => served.close());

  const boom = await call(served.url, 'boom', 'skills/list');
  assert.deepEqual(boom.message.error, { code: -32603, message: 'Could not tell which tenant this request belongs to; try again later' });
  assert.ok(!boom.raw.includes('10.0.0.7'));
  const failed = warnings.filter((w) => w.code === 'tenant-key-failed');
  assert.equal(failed.length, 1, 'reported once for the request (not again for the server subscribing to changes)');
  assert.match(failed[0]!.message, /10\.0\.0\.7/);
  const anonymous = await call(served.url, 'anonymous', 'skills/get', { uri: 'skill://greet/SKILL.md' });
  assert.deepEqual(anonymous.message.error, { code: -32600, message: 'Sign in to see skills' });
  assert.deepEqual(await listed(served.url, 'a'), ['skill://greet/SKILL.md']);
});

test('after close(), requests get -32603 and nothing is loaded', async (t) => {
  const loads: string[] = [];
  const tenants = tenantCatalogs({
    key: (ctx) => ctx.tenant as string | undefined,
    load: async (key) => {
      loads.push(key);
      return builtSource(key, []);
    },
  });
  const served = await serveFastify(tenants, { via: 'header' });
  t.after(() => served.close());
  assert.deepEqual(await listed(served.url, 'a'), ['skill://greet/SKILL.md']);
  await tenants.close();
  assert.deepEqual(tenants.loaded, []);
  const after = await call(served.url, 'a', 'skills/list');
  assert.deepEqual(after.message.error, { code: -32603, message: 'The skills service is shutting down; try again later' });
  assert.deepEqual(loads, ['a']);
});

test('options are checked when the resolver is created', () => {
  const storage = () => memoryStorage();
  const key = () => 'a';
  const bad: [unknown, RegExp, OptionErrorCode][] = [
    [{ storage }, /^OptionError: skillmount: tenantCatalogs\(\): option "key" must be a function/, 'missing-option'],
    [{ storage, key: 'tenant' }, /option "key" must be a function/, 'invalid-type'],
    [{ key }, /option "storage" or "load" is required/, 'missing-option'],
    [{ key, storage, load: async () => builtSource('a', []) }, /option "load" cannot be combined with "storage"/, 'conflicting-options'],
    [{ key, storage, max: 0 }, /option "max" must be a positive integer .* got 0/, 'invalid-value'],
    [{ key, storage, idleMs: -1 }, /option "idleMs" must be a positive integer \(milliseconds\) or Infinity, got -1/, 'invalid-value'],
    [{ key, storage, catalog: { pageSize: 0 } }, /option "catalog.pageSize" must be a positive integer or Infinity, got 0/, 'invalid-value'],
    [{ key, storage, catalog: { pageSize: '2' } }, /option "catalog.pageSize" must be a positive integer or Infinity/, 'invalid-type'],
    [{ key, storage, catalog: { trust: { keys: [], requireSignature: true } } }, /option "catalog.trust.keys" is empty, so requireSignature/, 'invalid-value'],
    [{ key, storage, watch: 'yes' }, /option "watch" must be a boolean/, 'invalid-type'],
    [{ key, load: async () => builtSource('a', []), watch: true }, /option "watch" applies only with "storage"/, 'conflicting-options'],
    [{ key, load: async () => builtSource('a', []), catalog: {} }, /option "catalog" applies only with "storage"/, 'conflicting-options'],
    [{ key, storage: './skills' }, /option "storage" must be a function key => SkillFiles/, 'invalid-type'],
  ];
  for (const [options, message, code] of bad) {
    assert.throws(
      () => tenantCatalogs(options as TenantCatalogsOptions),
      (error: unknown) =>
        error instanceof OptionError &&
        error.code === code &&
        (code === 'invalid-value' ? error instanceof RangeError : error instanceof TypeError) &&
        message.test(String(error)),
      `${String(message)} (${code})`,
    );
  }
});

test("each tenant's catalog checks signatures with the catalog option trust", async (t) => {
  const { privateKey, publicKey } = await generateSigningKey();
  const signed = skillMd('signed', 'Signed by the vendor.');
  const signature = await signSkill(
    { path: 'signed', files: [{ path: 'SKILL.md', bytes: new TextEncoder().encode(signed) }] },
    await keyFileSigner(privateKey),
  );
  const warnings: SkillWarning[] = [];
  const tenants = tenantCatalogs({
    key: (ctx) => ctx.tenant as string | undefined,
    storage: () => memoryStorage({ 'signed/SKILL.md': signed, [`signed/${SIGNATURE_FILE}`]: signature, 'plain/SKILL.md': skillMd('plain', 'Not signed.') }),
    catalog: { trust: { keys: [{ name: 'vendor.pub', publicKey }], requireSignature: true } },
    onWarning: (w) => warnings.push(w),
  });
  t.after(() => tenants.close());
  assert.deepEqual(
    (await tenants.list({}, { headers: {}, tenant: 'a' })).skills.map((s) => s.uri),
    ['skill://signed/SKILL.md'],
  );
  assert.deepEqual(
    warnings.map((w) => `${w.code} ${w.uri}`),
    ['signature-missing skill://plain/SKILL.md'],
  );
});

test('tenant keys must be one plain segment', () => {
  for (const good of ['a', 'acme-corp', 'Org_42', 'é', '.hidden', 'x'.repeat(MAX_TENANT_KEY_LENGTH)]) assert.equal(tenantKeyProblem(good), undefined, good);
  const bad: [unknown, RegExp][] = [
    ['', /empty/],
    ['.', /not a name/],
    ['..', /not a name/],
    ['a/b', /"\/"/],
    ['/a', /"\/"/],
    ['a\\b', /backslash/],
    ['a\0b', /NUL/],
    ['a\nb', /control character/],
    ['a\x7fb', /control character/],
    ['a\u0085b', /control character/],
    ['a\ud800b', /surrogate/],
    ['x'.repeat(MAX_TENANT_KEY_LENGTH + 1), /longer than 128/],
    [42, /must be a string, got number/],
  ];
  for (const [key, message] of bad) assert.match(tenantKeyProblem(key) ?? '', message, JSON.stringify(key));
});
