import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SkillCatalog, memoryStorage, StorageError } from '@skillmount/core';
import {
  isHiddenPath,
  isPlainPath,
  isPlainSegment,
  isSkillFile,
  isSkillMdPath,
  mapLimit,
  plainPathProblem,
  skillFolderOf,
  skillFoldersHolding,
  skillFoldersIn,
  storageError,
  toStorageError,
  type SkillFiles,
} from '@skillmount/core/storage-kit';

describe('storage kit: path rules', () => {
  test('plain segments and paths', () => {
    for (const bad of ['', '.', '..', 'a/b', 'a\\b', 'a\0b']) assert.equal(isPlainSegment(bad), false, JSON.stringify(bad));
    for (const good of ['a', '.git', '...', 'with space', 'ü', 'a..b']) assert.equal(isPlainSegment(good), true, good);
    assert.equal(isPlainPath('a/b/SKILL.md'), true);
    for (const bad of ['', '/a', 'a/', 'a//b', 'a/./b', 'a/../b', '..', 'a\\b', 'a\0', 1, null]) assert.equal(isPlainPath(bad), false, JSON.stringify(bad));
    assert.equal(isPlainPath('', { root: true }), true);
    assert.equal(plainPathProblem('a/../b'), '".." segment');
    assert.equal(plainPathProblem('a//b'), 'empty path segment');
    assert.equal(plainPathProblem('a\\b'), 'a backslash');
    assert.equal(plainPathProblem(''), 'the root "" is not a file');
    assert.match(plainPathProblem(7)!, /must be a string, not number/);
  });
});

describe('storage kit: skill folders', () => {
  const listing = [
    'SKILL.md',
    'a/SKILL.md',
    'a/ref.md',
    'a/.hidden.md',
    'a/.cache/x.md',
    'a/b/SKILL.md',
    'a/b/c/deep.md',
    '.x/SKILL.md',
    '.x/f.md',
    'p/.q/SKILL.md',
    'p/.q/f.md',
    'loose/readme.md',
  ].map((path) => ({ path, kind: 'file' as const }));

  test('SKILL.md and hidden predicates', () => {
    assert.equal(isSkillMdPath('SKILL.md'), true);
    assert.equal(isSkillMdPath('a/SKILL.md'), true);
    for (const not of ['a/skill.md', 'a/XSKILL.md', 'a/SKILL.md/b', 'SKILL.mdx']) assert.equal(isSkillMdPath(not), false, not);
    assert.equal(isHiddenPath(''), false);
    assert.equal(isHiddenPath('a/.b/c'), true);
    assert.equal(isHiddenPath('a/b.c'), false);
  });

  test('skill folders: not the root, not hidden; nested skills share files', () => {
    assert.equal(skillFolderOf('SKILL.md'), undefined);
    assert.equal(skillFolderOf('.x/SKILL.md'), undefined);
    assert.equal(skillFolderOf('a/ref.md'), undefined);
    assert.equal(skillFolderOf('a/b/SKILL.md'), 'a/b');
    const folders = skillFoldersIn([...listing, { path: 'dir/SKILL.md', kind: 'directory' as const }]);
    assert.deepEqual([...folders].sort(), ['a', 'a/b']);
    assert.deepEqual(skillFoldersHolding('a/b/c/deep.md', folders), ['a/b', 'a']);
    assert.deepEqual(skillFoldersHolding('a/b', folders), ['a']);
    const read = listing.filter((f) => isSkillFile(f.path, folders)).map((f) => f.path);
    assert.deepEqual(read, ['a/SKILL.md', 'a/ref.md', 'a/b/SKILL.md', 'a/b/c/deep.md']);
  });

  test('a catalog serves exactly the files the kit says it reads', async () => {
    const record = Object.fromEntries(
      listing.map((f) => [f.path, f.path.endsWith('SKILL.md') ? `---\nname: ${f.path.split('/').at(-2) ?? 'root'}\ndescription: d\n---\n` : 'x']),
    );
    record['p/.q/SKILL.md'] = '---\nname: q\ndescription: d\n---\n';
    const catalog = await SkillCatalog.load(memoryStorage(record), { onWarning: () => {} });
    const served = new Set(catalog.entries.flatMap((e) => (e.resources as { uri: string }[]).map((r) => r.uri.slice('skill://'.length))));
    const folders = skillFoldersIn(listing);
    assert.deepEqual(
      [...served].sort(),
      listing
        .filter((f) => isSkillFile(f.path, folders))
        .map((f) => f.path)
        .sort(),
    );
  });
});

describe('storage kit: mapLimit', () => {
  test('keeps order, bounds calls in flight, and stops at the first failure once the rest settle', async () => {
    let inFlight = 0;
    let most = 0;
    const out = await mapLimit([5, 1, 4, 2, 3], 2, async (n, i) => {
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, n));
      inFlight--;
      return n * 10 + i;
    });
    assert.deepEqual(out, [50, 11, 42, 23, 34]);
    assert.equal(most, 2);
    const started: number[] = [];
    let settled = 0;
    await assert.rejects(
      mapLimit([1, 2, 3, 4, 5, 6], 2, async (n) => {
        started.push(n);
        await new Promise((r) => setTimeout(r, n === 1 ? 1 : 20));
        settled++;
        if (n === 1) throw new Error('one');
      }),
      /one/,
    );
    assert.deepEqual(started, [1, 2], 'nothing starts after the failure');
    assert.equal(settled, 2, 'the call in flight settled first');
    assert.deepEqual(await mapLimit([], 4, async () => 1), []);
  });
});

describe('storage kit: errors', () => {
  test('storageError names the action, path, place and reason, and keeps cause and code', () => {
    const cause = new Error('ENOENT');
    const error = storageError({ action: 'cannot read', path: 'a/b.md', where: '(/srv/a/b.md)', reason: 'no such file', cause, code: 'gone' });
    assert.ok(error instanceof StorageError);
    assert.equal(error.message, 'cannot read "a/b.md" (/srv/a/b.md): no such file');
    assert.equal(error.path, 'a/b.md');
    assert.equal(error.cause, cause);
    assert.equal(error.code, 'gone');
    const bare = storageError({ action: 'cannot list', path: '', reason: 'no such folder' });
    assert.equal(bare.message, 'cannot list "(root)": no such folder');
    assert.equal('cause' in bare, false);
    assert.equal(bare.code, undefined);
  });

  test('toStorageError keeps a StorageError and wraps anything else', () => {
    const own = new StorageError('x', 'p');
    assert.equal(toStorageError(own, 'cannot read', 'p'), own);
    const wrapped = toStorageError(new TypeError('boom'), 'cannot list', 'dir');
    assert.equal(wrapped.message, 'cannot list "dir": boom');
    assert.equal(toStorageError('text', 'cannot read', 'f').message, 'cannot read "f": text');
  });

  test('a catalog wraps what a hand-written storage throws in a StorageError naming the path', async () => {
    const storage: SkillFiles = {
      async list(dir) {
        if (dir === '') return [{ name: 's', kind: 'directory' }];
        return [{ name: 'SKILL.md', kind: 'file' }];
      },
      async read() {
        throw new Error('disk on fire');
      },
    };
    await assert.rejects(
      SkillCatalog.load(storage),
      (error: StorageError) => error instanceof StorageError && error.message === 'cannot read "s/SKILL.md": disk on fire' && error.path === 's/SKILL.md',
    );
  });
});
