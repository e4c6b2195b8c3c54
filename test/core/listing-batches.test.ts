/**
 * Storages that list in batches (`listAllBatches`): a first load builds its tree as the batches
 * arrive and must come out exactly as from the same items given whole by `listAll`; a reload
 * compares listings whole.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SkillCatalog, StorageError, memoryStorage, sha256Digest, type ListAllOptions, type SkillFileListing, type SkillFiles } from '@skillmount/core';
import { demoTree, warnings } from './helpers.js';
import { skillMd } from '../support/skill-md.js';

const encode = (text: string) => new TextEncoder().encode(text);

/**
 * A storage over a record of files: its listing (SKILL.md bytes along, tokens honoured as `known`)
 * as `listAll`, as `listAllBatches` of `per` items, or both; `extra` adds listing items.
 */
function batchedStorage(files: Record<string, string>, shape: { whole?: boolean; batches?: boolean; per?: number; extra?: SkillFileListing[] }) {
  const state = { files, reads: [] as string[], calls: [] as string[], known: [] as (ListAllOptions | undefined)[] };
  const listing = (options?: ListAllOptions): SkillFileListing[] => [
    ...Object.entries(state.files).map(([path, text]): SkillFileListing => {
      const token = `${text.length}:${sha256Digest(encode(text)).slice(7, 15)}`;
      if (options?.known?.(path) === token) return { path, kind: 'file', token };
      return path.endsWith('SKILL.md') ? { path, kind: 'file', token, content: encode(text) } : { path, kind: 'file', token };
    }),
    ...(shape.extra ?? []),
  ];
  const storage: SkillFiles = {
    list: (dir) => memoryStorage(state.files).list(dir),
    async read(path) {
      state.reads.push(path);
      return memoryStorage(state.files).read(path);
    },
  };
  if (shape.whole)
    storage.listAll = async (options) => {
      state.calls.push('listAll');
      state.known.push(options);
      return listing(options);
    };
  if (shape.batches)
    storage.listAllBatches = async function* (options) {
      state.calls.push('listAllBatches');
      state.known.push(options);
      const all = listing(options);
      for (let i = 0; i < all.length; i += shape.per ?? 2) {
        await new Promise((resolve) => setImmediate(resolve));
        yield all.slice(i, i + (shape.per ?? 2));
      }
    };
  return { storage, state };
}

const ODD: SkillFileListing[] = [
  { path: 'git-workflow/../pdf-processing/x.md', kind: 'file' },
  { path: 'git-workflow//x.md', kind: 'file' },
  { path: '/etc/passwd', kind: 'file' },
  { path: 'git-workflow/link', kind: 'unsupported' },
  { path: 'git-workflow/SKILL.md', kind: 'file' }, // repeated: the first one listed counts
  { path: 'pdf-processing/scripts', kind: 'directory' },
  { path: 'pdf-processing/empty', kind: 'directory' },
];

describe('listAllBatches(): a listing in batches', () => {
  test('a first load takes it over listAll and builds the same catalog, warnings and reads as from listAll', async () => {
    for (const extra of [[], ODD]) {
      const batched = batchedStorage(demoTree(), { whole: true, batches: true, extra });
      const whole = batchedStorage(demoTree(), { whole: true, extra });
      const [wb, ww] = [warnings(), warnings()];
      const a = await SkillCatalog.load(batched.storage, { onWarning: wb.onWarning });
      const b = await SkillCatalog.load(whole.storage, { onWarning: ww.onWarning });
      assert.deepEqual(batched.state.calls, ['listAllBatches']);
      assert.equal(batched.state.known[0], undefined, 'a first load knows no tokens');
      assert.deepEqual(a.entries, b.entries);
      assert.deepEqual(wb.list, ww.list);
      assert.deepEqual(batched.state.reads.sort(), whole.state.reads.sort(), 'the SKILL.md bytes in the batches are used, not read');
      assert.equal(a.bodiesRead, b.bodiesRead);
      assert.deepEqual(await a.readDirectory('skill://pdf-processing'), await b.readDirectory('skill://pdf-processing'));
    }
  });

  test('a reload after a batched load compares the listing whole: nothing changed keeps every entry, a change is found', async () => {
    // Not the repeated path: a listing that repeats one never matches, batched or not.
    const extra = ODD.filter((item) => item.path !== 'git-workflow/SKILL.md');
    const { storage, state } = batchedStorage(demoTree(), { whole: true, batches: true, extra });
    const catalog = await SkillCatalog.load(storage, { onWarning: () => {} });
    const before = catalog.entries;
    state.reads.length = 0;
    const same = await catalog.reload();
    assert.deepEqual(state.calls, ['listAllBatches', 'listAll']);
    assert.equal(typeof state.known[1]?.known, 'function', 'the reload passes the tokens it holds');
    assert.equal(same.listChanged, false);
    assert.equal(catalog.bodiesRead, 0);
    assert.deepEqual(state.reads, []);
    assert.equal(catalog.entries, before, 'the listing matched: the snapshot is kept whole');

    state.files = { ...state.files, 'pdf-processing/SKILL.md': skillMd('pdf-processing', 'A new description.') };
    const changed = await catalog.reload();
    assert.deepEqual(changed.changed, ['skill://pdf-processing/SKILL.md']);
    assert.equal(catalog.entries.find((e) => e.uri === 'skill://pdf-processing/SKILL.md')!.frontmatter.description, 'A new description.');
  });

  test('a storage with batches only: a reload collects them, with the tokens it holds', async () => {
    const { storage, state } = batchedStorage(demoTree(), { batches: true, per: 3 });
    const catalog = await SkillCatalog.load(storage);
    assert.equal((await catalog.reload()).listChanged, false);
    assert.deepEqual(state.calls, ['listAllBatches', 'listAllBatches']);
    assert.equal(typeof state.known[1]?.known, 'function');
    assert.equal(catalog.bodiesRead, 0);
    state.files = { ...state.files, 'new-skill/SKILL.md': skillMd('new-skill') };
    assert.equal((await catalog.reload()).listChanged, true);
    assert.ok(catalog.entries.some((e) => e.uri === 'skill://new-skill/SKILL.md'));
  });

  test('a listing that fails after some batches fails the load whole with a StorageError, and stops being iterated', async () => {
    for (const failure of [new StorageError('cannot list "x": bucket unreachable', 'x'), new Error('bucket unreachable')]) {
      let steps = 0;
      let ended = false;
      const storage: SkillFiles = {
        list: async () => [],
        read: async () => new Uint8Array(),
        async *listAllBatches() {
          try {
            steps++;
            yield [{ path: 'a/SKILL.md', kind: 'file', content: encode(skillMd('a')) }];
            steps++;
            throw failure;
          } finally {
            ended = true;
          }
        },
      };
      await assert.rejects(SkillCatalog.load(storage), (e: Error) => e instanceof StorageError && /bucket unreachable/.test(e.message));
      assert.equal(steps, 2);
      assert.ok(ended);
    }
  });

  test('a batched listing that does not finish within timeoutMs fails the load, naming listAllBatches', async () => {
    let returned = false;
    const storage: SkillFiles = {
      list: async () => [],
      read: async () => new Uint8Array(),
      listAllBatches: () => ({
        [Symbol.asyncIterator]: () => ({
          next: async () => {
            await new Promise((resolve) => setTimeout(resolve, 30));
            return { done: false, value: [{ path: 'dir', kind: 'directory' }] as SkillFileListing[] };
          },
          return: async () => {
            returned = true;
            return { done: true, value: undefined };
          },
        }),
      }),
    };
    const started = Date.now();
    await assert.rejects(
      SkillCatalog.load(storage, { timeoutMs: 200 }),
      (e: Error) => e instanceof StorageError && /did not answer listAllBatches "\(root\)" within 200 ms/.test(e.message),
    );
    assert.ok(Date.now() - started < 5000);
    assert.ok(returned, 'the storage is told to stop');
  });
});
