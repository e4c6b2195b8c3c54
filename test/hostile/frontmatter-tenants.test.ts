/**
 * One tenant's hostile SKILL.md files (key floods, 3000-level nesting, a 15 MiB scalar, from real
 * files) do not stall another tenant: over a real listening server, the other tenant's request is
 * answered while the hostile catalog loads, and every hostile skill is skipped with its reason.
 * Before SKILL.md parsing was bounded, a 60 000-key SKILL.md held the other request 24-69 s.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { tenantCatalogs, type SkillFiles, type SkillWarning } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import { HOSTILE_SKILL_MDS } from '../support/hostile-skillmd.js';
import { ADAPTERS, TREES, rawClient, skillMd, tenantFolders } from '../tenants/helpers.js';

// Far above what the bounded parse takes on a loaded machine, far below what the unbounded one took.
const ANSWER_WITHIN_MS = 10_000;

test('a tenant with hostile SKILL.md files does not stall another tenant, and each hostile skill is skipped with its reason', async (t) => {
  const cases = Object.entries(HOSTILE_SKILL_MDS).map(([key, hostile], i) => ({ key, hostile, name: `evil-${i}` }));
  const evil: Record<string, string> = { 'fine/SKILL.md': skillMd('fine', 'The one valid skill of the hostile tenant.') };
  for (const { hostile, name } of cases) evil[`${name}/SKILL.md`] = hostile.text(name);
  const root = await tenantFolders(t, { good: TREES.a, evil });

  // Tell the test when the hostile tenant's load has begun reading SKILL.md files.
  let readingHostile!: () => void;
  const hostileRead = new Promise<void>((resolve) => (readingHostile = resolve));
  const watched = (storage: SkillFiles): SkillFiles => ({
    list: (dir) => storage.list(dir),
    read: (file) => {
      if (file.startsWith('evil-')) readingHostile();
      return storage.read(file);
    },
  });
  const warnings: SkillWarning[] = [];
  const tenants = tenantCatalogs({
    key: (ctx) => ctx.tenant as string | undefined,
    storage: (key) => (key === 'evil' ? watched(fsStorage(path.join(root, key))) : fsStorage(path.join(root, key))),
    onWarning: (w) => warnings.push(w),
  });
  const served = await ADAPTERS.fastify(tenants, { via: 'header' });
  t.after(async () => {
    await served.close();
    await tenants.close();
  });
  const evilClient = await rawClient(served.url, { 'x-tenant': 'evil' }, false);
  const goodClient = await rawClient(served.url, { 'x-tenant': 'good' }, false);

  const evilList = evilClient.call('skills/list');
  await hostileRead;
  const started = performance.now();
  const goodList = await goodClient.call('skills/list');
  const goodMs = performance.now() - started;
  const evilAnswer = await evilList;

  assert.deepEqual(
    goodList.message.result.skills.map((s: { uri: string }) => s.uri),
    ['skill://alpha-notes/SKILL.md', 'skill://greet/SKILL.md'],
  );
  assert.ok(goodMs < ANSWER_WITHIN_MS, `the other tenant was answered after ${Math.round(goodMs)} ms`);
  assert.deepEqual(
    evilAnswer.message.result.skills.map((s: { uri: string }) => s.uri),
    ['skill://fine/SKILL.md'],
    'only the valid skill of the hostile tenant',
  );
  for (const { hostile, name } of cases) {
    const warning = warnings.find((w) => w.path === `${name}/SKILL.md`);
    assert.ok(warning, `${hostile.label}: a warning for ${name}/SKILL.md (${warnings.map((w) => w.path).join(', ')})`);
    assert.match(warning.message, /^tenant evil: skill skipped: /);
    assert.match(warning.message, hostile.refusal, hostile.label);
  }
  // A refused skill is not served at all: its SKILL.md cannot be read.
  const read = await evilClient.call('resources/read', { uri: `skill://${cases[0]!.name}/SKILL.md` });
  assert.equal(read.message.error?.code, -32602);
});
