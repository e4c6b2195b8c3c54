/**
 * One rule for a tenant with no storage behind it: a folder that does not exist (the storage
 * reports its root `not-found`) is an empty catalog, as an empty S3 prefix or PostgreSQL namespace
 * already is. A storage that fails for another reason still gets -32603, with the cause logged.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { StorageError, tenantCatalogs, type SkillWarning } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import { SKILLS_OF, counting, rawClient, serveExpress, tenantFolders } from './helpers.js';

test('fsStorage reports a missing root as a StorageError with code "not-found" and path ""', async (t) => {
  const root = await tenantFolders(t);
  const missing = fsStorage(path.join(root, 'nobody'));
  for (const call of [() => missing.list(''), () => missing.listAll()]) {
    await assert.rejects(call(), (error: unknown) => {
      assert.ok(error instanceof StorageError);
      assert.equal(error.code, 'not-found');
      assert.equal(error.path, '');
      return true;
    });
  }
  // A root that is a file is not "missing": no such code.
  await writeFile(path.join(root, 'a-file'), 'not a folder\n');
  await assert.rejects(fsStorage(path.join(root, 'a-file')).listAll(), (error: unknown) => {
    assert.ok(error instanceof StorageError);
    assert.notEqual(error.code, 'not-found');
    return true;
  });
});

test('a tenant whose folder does not exist sees an empty catalog, is not kept, and nothing is reported; another failure gets -32603', async (t) => {
  const root = await tenantFolders(t);
  await writeFile(path.join(root, 'broken'), 'a file where the tenant folder should be\n');
  const warnings: SkillWarning[] = [];
  const storages: ReturnType<typeof counting>[] = [];
  const tenants = tenantCatalogs({
    key: (ctx) => ctx.tenant as string | undefined,
    storage: (key) => {
      const storage = counting(fsStorage(path.join(root, key)));
      storages.push(storage);
      return storage;
    },
    onWarning: (w) => warnings.push(w),
  });
  t.after(() => tenants.close());
  const served = await serveExpress(tenants, { via: 'header' });
  t.after(() => served.close());

  const nobody = await rawClient(served.url, { 'x-tenant': 'nobody' }, false);
  const listed = await nobody.call('skills/list');
  assert.equal(listed.status, 200);
  assert.deepEqual(listed.message.result?.skills, [], `an empty list, not an error: ${listed.raw}`);
  const read = await nobody.call('resources/read', { uri: 'skill://greet/SKILL.md' });
  assert.equal(read.message.error?.code, -32602, 'every URI is unknown to it');
  assert.deepEqual<SkillWarning[]>(warnings, [], 'a tenant with no folder is not a problem to report');
  assert.deepEqual(tenants.loaded, [], 'nor kept in memory');
  assert.ok(storages.length >= 2 && storages.every((s) => s.closed === 1), 'each of its storages was closed');

  const a = await rawClient(served.url, { 'x-tenant': 'a' }, false);
  assert.deepEqual(
    (await a.call('skills/list')).message.result.skills.map((s: { uri: string }) => s.uri),
    SKILLS_OF.a,
  );

  const broken = await rawClient(served.url, { 'x-tenant': 'broken' }, false);
  const failed = await broken.call('skills/list');
  assert.deepEqual(failed.message.error, { code: -32603, message: "This tenant's skills could not be loaded; try again later" });
  const reported = warnings.filter((w) => w.code === 'tenant-load-failed');
  assert.equal(reported.length, 1);
  assert.match(reported[0]!.message, /^tenant broken: .*cannot list "\(root\)" .*: not a folder$/);
});
