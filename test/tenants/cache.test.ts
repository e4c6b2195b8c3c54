import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { StorageError, tenantCatalogs, type SkillWarning } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import { SKILLS_OF, TREES, counting, rawClient, serveExpress, serveFastify, sleep, tenantFolders, waitFor, type CountingStorage } from './helpers.js';

/** Every storage the tenant source created, by tenant, in order. */
function storageLog() {
  const made = new Map<string, CountingStorage[]>();
  return {
    made,
    add(key: string, storage: CountingStorage) {
      made.set(key, [...(made.get(key) ?? []), storage]);
      return storage;
    },
    of: (key: string) => made.get(key) ?? [],
  };
}

const list = async (url: string, tenant: string, id = 1) => {
  const client = await rawClient(url, { 'x-tenant': tenant }, false);
  return client.call('skills/list', {}, id);
};
const uris = (answer: Awaited<ReturnType<typeof list>>) => answer.message.result?.skills.map((s: { uri: string }) => s.uri);

test('50 concurrent first requests for a tenant load its catalog once', async (t) => {
  const root = await tenantFolders(t);
  const log = storageLog();
  let waiting = 0;
  const tenants = tenantCatalogs({
    key: (ctx) => {
      // Requests carry headers; a server subscribing to list changes asks with none.
      if (Object.keys(ctx.headers).length > 0) waiting++;
      return ctx.tenant as string | undefined;
    },
    storage: async (key) => {
      // Hold the first load until every request has arrived, so all 50 provably wait on it.
      await waitFor(() => waiting >= 50, '50 requests waiting for the load');
      return log.add(key, counting(fsStorage(path.join(root, key))));
    },
  });
  t.after(() => tenants.close());
  const served = await serveFastify(tenants, { via: 'header' });
  t.after(() => served.close());

  const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => list(served.url, 'a', i)));
  for (const answer of answers) assert.deepEqual(uris(answer), SKILLS_OF.a);
  assert.equal(log.of('a').length, 1, 'one storage created');
  assert.equal(log.of('a')[0]!.roots, 1, 'one listing of the tree');

  // Again with two tenants at once after dropping a: one more load of a, one of b.
  await tenants.evict('a');
  waiting = 0;
  const mixed = await Promise.all(Array.from({ length: 50 }, (_, i) => list(served.url, i % 2 ? 'a' : 'b', i)));
  for (const [i, answer] of mixed.entries()) assert.deepEqual(uris(answer), SKILLS_OF[i % 2 ? 'a' : 'b']);
  assert.deepEqual([log.of('a').length, log.of('b').length], [2, 1]);
  assert.deepEqual([log.of('a')[1]!.roots, log.of('b')[0]!.roots], [1, 1]);
});

test('at most max catalogs: the least recently used is evicted, closed, and loaded again when asked for', async (t) => {
  const root = await tenantFolders(t, { a: TREES.a, b: TREES.b, c: TREES.a });
  const log = storageLog();
  const tenants = tenantCatalogs({
    key: (ctx) => ctx.tenant as string | undefined,
    storage: (key) => log.add(key, counting(fsStorage(path.join(root, key)))),
    max: 2,
    watch: true,
  });
  t.after(() => tenants.close());
  const served = await serveExpress(tenants, { via: 'header' });
  t.after(() => served.close());

  for (const tenant of ['a', 'b', 'c']) assert.ok(uris(await list(served.url, tenant)).length > 0);
  assert.deepEqual(tenants.loaded, ['b', 'c']);
  const [a1] = log.of('a');
  await waitFor(() => a1!.closed === 1, "a's storage closed");
  assert.equal(a1!.watched, 1);
  assert.equal(a1!.unwatched, 1, "a's catalog was closed: it stopped watching its storage");
  for (const key of ['b', 'c']) {
    const [storage] = log.of(key);
    assert.deepEqual([storage!.watched, storage!.unwatched, storage!.closed], [1, 0, 0], `${key} still loaded and watched`);
  }

  await list(served.url, 'b'); // now c is the least recently used
  assert.deepEqual(tenants.loaded, ['c', 'b']);
  assert.deepEqual(uris(await list(served.url, 'a')), SKILLS_OF.a, 'a evicted, then served again');
  assert.deepEqual(tenants.loaded, ['b', 'a']);
  assert.equal(log.of('a').length, 2, 'a was loaded a second time');
  await waitFor(() => log.of('c')[0]!.closed === 1, "c's storage closed");
  assert.equal(log.of('b').length, 1, 'b was never evicted');
});

test('a tenant idle for idleMs is evicted and freed; a tenant in use stays', async (t) => {
  const root = await tenantFolders(t);
  const log = storageLog();
  const tenants = tenantCatalogs({
    key: (ctx) => ctx.tenant as string | undefined,
    storage: (key) => log.add(key, counting(fsStorage(path.join(root, key)))),
    idleMs: 1000,
  });
  t.after(() => tenants.close());
  const served = await serveFastify(tenants, { via: 'header' });
  t.after(() => served.close());

  await list(served.url, 'a');
  // b is asked for every 50 ms until a, asked no more, has left memory (within about 1.5 × idleMs).
  // idleMs is long beside a request, so b stays in use however loaded the machine.
  let waiting = true;
  const aLeft = waitFor(() => !tenants.loaded.includes('a'), 'a to leave memory once idle', 15_000).finally(() => (waiting = false));
  aLeft.catch(() => {}); // awaited below, after the loop
  while (waiting) {
    assert.deepEqual(uris(await list(served.url, 'b')), SKILLS_OF.b);
    await sleep(50);
  }
  await aLeft;
  assert.deepEqual(tenants.loaded, ['b'], 'a left memory, b stayed');
  await waitFor(() => log.of('a')[0]!.closed === 1, "a's storage closed");
  assert.equal(log.of('b').length, 1, 'b was loaded once');
  await waitFor(() => tenants.loaded.length === 0, 'b to leave memory once idle', 15_000);
  await waitFor(() => log.of('b')[0]!.closed === 1, "b's storage closed");
});

test('an evicted tenant is freed only after its requests in flight finish', async (t) => {
  const root = await tenantFolders(t);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let reading = false;
  const log = storageLog();
  const tenants = tenantCatalogs({
    key: (ctx) => ctx.tenant as string | undefined,
    storage: (key) => {
      const storage = log.add(key, counting(fsStorage(path.join(root, key))));
      const read = storage.read;
      storage.read = async (file) => {
        if (file.endsWith('guide.md')) {
          reading = true;
          await gate;
        }
        return read(file);
      };
      return storage;
    },
  });
  t.after(() => tenants.close());
  const served = await serveExpress(tenants, { via: 'header' });
  t.after(() => served.close());

  const client = await rawClient(served.url, { 'x-tenant': 'a' }, false);
  const slow = client.call('resources/read', { uri: 'skill://alpha-notes/references/guide.md' });
  await waitFor(() => reading, 'the read to reach storage');
  await tenants.evict('a');
  assert.deepEqual(tenants.loaded, []);
  await sleep(50);
  assert.equal(log.of('a')[0]!.closed, 0, 'not closed under a running read');
  release();
  const answer = await slow;
  assert.equal(answer.message.result.contents[0].text, TREES.a['alpha-notes/references/guide.md']);
  await waitFor(() => log.of('a')[0]!.closed === 1, "a's storage closed once the read finished");
});

test("a failing load answers that tenant's requests with -32603, leaves others alone, and is retried", async (t) => {
  const root = await tenantFolders(t);
  const log = storageLog();
  const warnings: SkillWarning[] = [];
  let failures = 1;
  let askedForB = 0;
  const tenants = tenantCatalogs({
    key: (ctx) => {
      if (ctx.tenant === 'b') askedForB++;
      return ctx.tenant as string | undefined;
    },
    storage: async (key) => {
      const storage = counting(fsStorage(path.join(root, key)));
      if (key === 'b' && failures-- > 0) {
        const down = async (): Promise<never> => {
          storage.roots++;
          // Fails only once the other requests of b have joined this load, however slow the machine.
          await waitFor(() => askedForB >= 3, 'the three requests of b arrived');
          await sleep(20);
          throw new StorageError('cannot list /srv/private/tenants/b: connection reset', '/srv/private/tenants/b');
        };
        storage.list = down;
        if (storage.listAll) storage.listAll = down;
      }
      return log.add(key, storage);
    },
    onWarning: (w) => warnings.push(w),
  });
  t.after(() => tenants.close());
  const served = await serveFastify(tenants, { via: 'header' });
  t.after(() => served.close());

  const answers = await Promise.all([list(served.url, 'b', 1), list(served.url, 'a', 2), list(served.url, 'b', 3), list(served.url, 'b', 4)]);
  assert.deepEqual(uris(answers[1]!), SKILLS_OF.a, 'a is served while b fails');
  for (const answer of [answers[0]!, answers[2]!, answers[3]!]) {
    assert.deepEqual(answer.message.error, { code: -32603, message: "This tenant's skills could not be loaded; try again later" });
    assert.ok(!answer.raw.includes('/srv') && !answer.raw.includes('connection reset'), 'no storage path or cause reaches the client');
  }
  const [failed] = log.of('b');
  assert.equal(failed!.roots, 1, 'the three requests of b shared one load');
  assert.equal(failed!.closed, 1, 'the storage of the failed load was closed');
  const reported = warnings.filter((w) => w.code === 'tenant-load-failed');
  assert.equal(reported.length, 1);
  assert.equal(reported[0]!.path, '/srv/private/tenants/b');
  assert.match(reported[0]!.message, /tenant b: .*connection reset/);
  assert.deepEqual(tenants.loaded, ['a'], 'the failed load is not kept');

  assert.deepEqual(uris(await list(served.url, 'b')), SKILLS_OF.b, 'the next request loads b again, and it works');
  assert.equal(log.of('b').length, 2);
  assert.deepEqual(tenants.loaded, ['a', 'b']);
});
