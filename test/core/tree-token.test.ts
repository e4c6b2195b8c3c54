import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SkillCatalog, StorageError, memoryStorage, type SkillFiles } from '@skillmount/core';
import { skillMd } from '../support/skill-md.js';

/** A memory storage whose tree token the test sets, counting what a catalog asks of it. */
function tokened(files: Record<string, string>) {
  const inner = memoryStorage(files);
  const calls = { treeToken: 0, list: 0, read: 0 };
  let token: string | undefined = 'one';
  let failure: Error | undefined;
  let onList: (() => void) | undefined;
  const storage: SkillFiles = {
    async treeToken() {
      calls.treeToken++;
      if (failure) throw failure;
      return token;
    },
    async list(dir) {
      calls.list++;
      onList?.();
      return inner.list(dir);
    },
    async read(path, options) {
      calls.read++;
      return inner.read(path, options);
    },
  };
  return {
    storage,
    inner,
    calls,
    setToken: (next: string | undefined) => (token = next),
    fail: (error: Error | undefined) => (failure = error),
    whileListing: (hook: (() => void) | undefined) => (onList = hook),
  };
}

const tree = () => ({ 'a/SKILL.md': skillMd('a'), 'a/notes.md': 'notes\n' });

describe('treeToken(): a reload that lists nothing when the storage says nothing changed', () => {
  test('the same token: no listing, no read, the same entries', async () => {
    const s = tokened(tree());
    const catalog = await SkillCatalog.load(s.storage);
    const before = catalog.entries;
    const lists = s.calls.list;
    const report = await catalog.reload();
    assert.equal(s.calls.list, lists, 'a reload with an unchanged token must not list');
    assert.equal(catalog.bodiesRead, 0);
    assert.equal(catalog.entries, before);
    assert.deepEqual(report, { added: [], removed: [], changed: [], listChanged: false });
  });

  test('the same token hides a change: the storage vouched for it, so the catalog trusts it (a wrong token is the storage bug)', async () => {
    const s = tokened(tree());
    const catalog = await SkillCatalog.load(s.storage);
    s.inner.write('b/SKILL.md', skillMd('b'));
    await catalog.reload();
    assert.deepEqual(
      catalog.entries.map((e) => e.uri),
      ['skill://a/SKILL.md'],
    );
  });

  test('a new token: the reload lists and serves the change', async () => {
    const s = tokened(tree());
    const catalog = await SkillCatalog.load(s.storage);
    s.inner.write('b/SKILL.md', skillMd('b'));
    s.setToken('two');
    const report = await catalog.reload();
    assert.deepEqual(report.added, ['skill://b/SKILL.md']);
    // And the new token is kept: the next reload lists nothing.
    const lists = s.calls.list;
    await catalog.reload();
    assert.equal(s.calls.list, lists);
  });

  test('a token that changes while nothing else does: one listing, then none', async () => {
    const s = tokened(tree());
    const catalog = await SkillCatalog.load(s.storage);
    const before = catalog.entries;
    s.setToken('two');
    await catalog.reload();
    assert.equal(catalog.entries, before, 'an unchanged listing keeps the previous entries');
    const lists = s.calls.list;
    await catalog.reload();
    assert.equal(s.calls.list, lists, 'the token seen with the unchanged listing is kept');
  });

  test('the token is read before listing: a write during the listing shows in the next reload', async () => {
    const s = tokened(tree());
    const catalog = await SkillCatalog.load(s.storage);
    s.setToken('two');
    s.whileListing(() => {
      // A writer lands between the token read and the listing's end, and bumps the token.
      s.whileListing(undefined);
      s.inner.write('c/SKILL.md', skillMd('c'));
      s.setToken('three');
    });
    await catalog.reload();
    await catalog.reload();
    assert.ok(catalog.entries.some((e) => e.uri === 'skill://c/SKILL.md'));
  });

  test('undefined (the storage cannot tell): every reload lists', async () => {
    const s = tokened(tree());
    s.setToken(undefined);
    const catalog = await SkillCatalog.load(s.storage);
    const lists = s.calls.list;
    await catalog.reload();
    assert.ok(s.calls.list > lists);
  });

  test('a token that is not a non-empty string is ignored, not trusted', async () => {
    const s = tokened(tree());
    s.setToken('');
    const catalog = await SkillCatalog.load(s.storage);
    s.inner.write('b/SKILL.md', skillMd('b'));
    await catalog.reload();
    assert.ok(catalog.entries.some((e) => e.uri === 'skill://b/SKILL.md'));
  });

  test('a failing treeToken fails the reload, names it, and the old catalog keeps serving', async () => {
    const s = tokened(tree());
    const catalog = await SkillCatalog.load(s.storage);
    s.fail(new Error('connection reset'));
    await assert.rejects(catalog.reload(), (e: unknown) => e instanceof StorageError && /treeToken/.test(e.message) && /connection reset/.test(e.message));
    assert.equal(catalog.entries.length, 1);
    s.fail(undefined);
  });

  test('a treeToken that hangs is cut off by timeoutMs', async () => {
    const s = tokened(tree());
    const catalog = await SkillCatalog.load(s.storage, { timeoutMs: 100 });
    s.storage.treeToken = () => new Promise(() => {});
    await assert.rejects(catalog.reload(), (e: unknown) => e instanceof StorageError && /treeToken/.test(e.message) && /100 ms/.test(e.message));
  });

  test('memoryStorage bumps its token on every write and removal', async () => {
    const storage = memoryStorage(tree());
    const first = await storage.treeToken!();
    storage.write('a/other.md', 'x');
    const second = await storage.treeToken!();
    storage.remove('a/other.md');
    const third = await storage.treeToken!();
    assert.equal(new Set([first, second, third]).size, 3);
  });
});
