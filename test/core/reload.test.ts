import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { CatalogError, SkillCatalog, SkillProtocolError, memoryStorage, sha256Digest, type SkillFiles, type SkillResource } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import { instrumented, warnings } from './helpers.js';
import { listedFiles } from '../support/listed-files.js';
import { skillMd } from '../support/skill-md.js';
import { sleep } from '../support/wait.js';
import { tempDir, writeTree } from '../support/trees.js';

const tree = () => ({
  'a/SKILL.md': skillMd('a'),
  'b/SKILL.md': skillMd('b'),
  'b/notes.md': 'notes\n',
  'c/SKILL.md': skillMd('c'),
});

describe('reload(): change report', () => {
  test('reports added, removed and changed skills and serves the new state', async () => {
    const storage = memoryStorage(tree());
    const catalog = await SkillCatalog.load(storage);
    storage.write('d/SKILL.md', skillMd('d'));
    storage.remove('a');
    storage.write('b/extra.md', 'extra\n');
    storage.write('c/SKILL.md', skillMd('c', 'A new description.'));
    const report = await catalog.reload();
    assert.deepEqual(report, {
      added: ['skill://d/SKILL.md'],
      removed: ['skill://a/SKILL.md'],
      changed: ['skill://b/SKILL.md', 'skill://c/SKILL.md'],
      listChanged: true,
    });
    assert.deepEqual(
      catalog.entries.map((e) => e.uri),
      ['skill://b/SKILL.md', 'skill://c/SKILL.md', 'skill://d/SKILL.md'],
    );
    assert.equal((await catalog.get('skill://c/SKILL.md')).frontmatter.description, 'A new description.');
    assert.ok(((await catalog.get('skill://b/SKILL.md')).resources as SkillResource[]).some((r) => r.uri === 'skill://b/extra.md'));
    await assert.rejects(catalog.get('skill://a/SKILL.md'), (e: unknown) => e instanceof SkillProtocolError && e.code === -32602);
    await assert.rejects(catalog.read('skill://a/SKILL.md'), (e: unknown) => e instanceof SkillProtocolError && e.code === -32602);
  });

  test('a changed supporting file alone marks its skill changed', async () => {
    const storage = memoryStorage(tree());
    const catalog = await SkillCatalog.load(storage);
    storage.write('b/notes.md', 'other notes\n');
    assert.deepEqual(await catalog.reload(), { added: [], removed: [], changed: ['skill://b/SKILL.md'], listChanged: true });
  });

  test('a reload marks the warnings its previous load told too as repeated; a changed or returning one is news', async () => {
    const told: { message: string; repeated?: true }[] = [];
    const storage = memoryStorage({ ...tree(), 'bad/SKILL.md': skillMd('other') });
    const catalog = await SkillCatalog.load(storage, { onWarning: (w) => told.push(w) });
    const names = () => told.splice(0).map((w) => `${w.repeated ? 'repeated' : 'new'} ${w.message.includes('"other"') ? 'other' : 'another'}`);
    assert.deepEqual(names(), ['new other']);
    storage.write('a/SKILL.md', skillMd('a', 'Edited.'));
    await catalog.reload();
    assert.deepEqual(names(), ['repeated other']);
    assert.equal(catalog.warnings[0]!.repeated, undefined, 'the catalog keeps its warnings unmarked');
    storage.write('bad/SKILL.md', skillMd('another'));
    await catalog.reload();
    assert.deepEqual(names(), ['new another']);
    storage.write('bad/SKILL.md', skillMd('bad'));
    await catalog.reload();
    assert.deepEqual(names(), []);
    storage.write('bad/SKILL.md', skillMd('another'));
    await catalog.reload();
    assert.deepEqual(names(), ['new another']);
  });

  test('an unchanged reload reports nothing and, with change tokens, reads no file bodies', async () => {
    const storage = memoryStorage(tree());
    const catalog = await SkillCatalog.load(storage);
    assert.equal(catalog.bodiesRead, 4);
    const before = catalog.entries;
    assert.deepEqual(await catalog.reload(), { added: [], removed: [], changed: [], listChanged: false });
    assert.equal(catalog.bodiesRead, 0);
    assert.deepEqual(catalog.entries, before);
    storage.write('b/notes.md', 'changed\n');
    await catalog.reload();
    assert.equal(catalog.bodiesRead, 1, 'only the changed file is read again');
  });

  test('over fsStorage an unchanged reload reads no bodies, and a rewritten file is read again', async (t) => {
    const tmp = tempDir();
    t.after(tmp.remove);
    writeTree(tmp.dir, tree());
    const catalog = await SkillCatalog.load(fsStorage(tmp.dir));
    // The folder's listing brings the SKILL.md bytes along and vouches for the other files' digests, which it hashed.
    assert.equal(catalog.bodiesRead, 3);
    assert.equal((await catalog.reload()).listChanged, false);
    assert.equal(catalog.bodiesRead, 0);
    writeFileSync(path.join(tmp.dir, 'b', 'notes.md'), 'rewritten with another size\n');
    const report = await catalog.reload();
    assert.deepEqual(report.changed, ['skill://b/SKILL.md']);
    assert.equal(catalog.bodiesRead, 0);
    const notes = listedFiles(catalog.entries.find((e) => e.uri === 'skill://b/SKILL.md')!).find((r) => r.uri === 'skill://b/notes.md')!;
    assert.equal(notes.digest, sha256Digest(new TextEncoder().encode('rewritten with another size\n')));
    assert.equal(new TextDecoder().decode((await catalog.read('skill://b/notes.md')).bytes), 'rewritten with another size\n');

    // Listed folder by folder instead, the catalog reads the bodies itself: only the rewritten one again.
    const byFolder = await SkillCatalog.load({ list: (d) => fsStorage(tmp.dir).list(d), read: (p) => fsStorage(tmp.dir).read(p) });
    assert.equal(byFolder.bodiesRead, 4);
    assert.equal((await byFolder.reload()).listChanged, false);
    assert.equal(byFolder.bodiesRead, 0);
    writeFileSync(path.join(tmp.dir, 'b', 'notes.md'), 'rewritten once more\n');
    assert.deepEqual((await byFolder.reload()).changed, ['skill://b/SKILL.md']);
    assert.equal(byFolder.bodiesRead, 1);
  });

  test('a storage without change tokens is read in full each time, and still reports no change', async () => {
    const inner = memoryStorage(tree());
    const tokenless: SkillFiles = {
      list: async (dir) => (await inner.list(dir)).map(({ name, kind }) => ({ name, kind })),
      read: (p) => inner.read(p),
    };
    const catalog = await SkillCatalog.load(tokenless);
    assert.equal((await catalog.reload()).listChanged, false);
    assert.equal(catalog.bodiesRead, 4);
  });
});

describe('reload(): failures keep the old catalog serving', () => {
  test('a failing listing rejects the reload; the old catalog keeps serving list, get and read', async () => {
    const storage = memoryStorage(tree());
    const { files, state } = instrumented(storage);
    const catalog = await SkillCatalog.load(files);
    const before = catalog.entries;
    storage.write('d/SKILL.md', skillMd('d'));
    storage.remove('a');
    state.failList = true;
    await assert.rejects(catalog.reload(), (e: Error) => e.name === 'StorageError' && /storage is down/.test(e.message));
    assert.equal(catalog.entries, before);
    assert.deepEqual(
      (await catalog.list()).skills.map((s) => s.uri),
      ['skill://a/SKILL.md', 'skill://b/SKILL.md', 'skill://c/SKILL.md'],
    );
    assert.equal((await catalog.get('skill://b/SKILL.md')).uri, 'skill://b/SKILL.md');
    assert.equal(Buffer.from((await catalog.read('skill://b/notes.md')).bytes).toString(), 'notes\n');
    await assert.rejects(catalog.get('skill://d/SKILL.md'));

    state.failList = false;
    const report = await catalog.reload();
    assert.deepEqual(report.added, ['skill://d/SKILL.md']);
    assert.deepEqual(report.removed, ['skill://a/SKILL.md']);
  });

  test('a failing read during reload rejects it and changes nothing', async () => {
    const storage = memoryStorage(tree());
    const { files, state } = instrumented(storage);
    const catalog = await SkillCatalog.load(files);
    storage.write('b/notes.md', 'new\n');
    state.failRead = true;
    await assert.rejects(catalog.reload(), /storage is down/);
    state.failRead = false;
    const entry = await catalog.get('skill://b/SKILL.md');
    const notes = (entry.resources as SkillResource[]).find((r) => r.uri === 'skill://b/notes.md')!;
    assert.equal(notes.size, 'notes\n'.length, 'still the old entry');
  });

  test('a strict reload that finds problems rejects with CatalogError and keeps the old catalog', async () => {
    const storage = memoryStorage(tree());
    const catalog = await SkillCatalog.load(storage, { strict: true });
    storage.write('c/SKILL.md', 'broken');
    storage.write('e/SKILL.md', skillMd('not-e'));
    await assert.rejects(catalog.reload(), (e: unknown) => e instanceof CatalogError && e.problems.length === 2);
    assert.deepEqual(
      catalog.entries.map((e) => e.uri),
      ['skill://a/SKILL.md', 'skill://b/SKILL.md', 'skill://c/SKILL.md'],
    );
  });
});

describe('reload(): calls never overlap', () => {
  test('calls made while a reload runs share one follow-up run; walks never overlap', async () => {
    const storage = memoryStorage(tree());
    const { files, state } = instrumented(storage, 5);
    const catalog = await SkillCatalog.load(files);
    assert.equal(state.walks, 1);
    const first = catalog.reload();
    storage.write('d/SKILL.md', skillMd('d'));
    const others = [catalog.reload(), catalog.reload(), catalog.reload(), catalog.reload()];
    assert.notEqual(first, others[0]);
    for (const p of others) assert.equal(p, others[0], 'calls made during a running reload share one promise');
    const reports = await Promise.all([first, ...others]);
    assert.equal(state.walks, 3, 'the load, the running reload, and one follow-up');
    assert.equal(state.maxRootListsInFlight, 1);
    assert.deepEqual(state.busyAtWalkStart, [0, 0, 0], 'no storage call of an earlier walk was still in flight when a walk began');
    assert.deepEqual(reports[1], reports[4]);
    assert.ok((await catalog.get('skill://d/SKILL.md')).uri, 'the follow-up run saw the change made during the first one');
    // once idle, the next call starts a new run
    await catalog.reload();
    assert.equal(state.walks, 4);
  });

  test('a follow-up run still happens when the running reload fails', async () => {
    const storage = memoryStorage(tree());
    const { files, state } = instrumented(storage, 5);
    const catalog = await SkillCatalog.load(files);
    state.failList = true;
    const first = catalog.reload();
    const second = catalog.reload();
    const firstFailed = first.then(
      () => false,
      () => true,
    );
    await sleep(1);
    state.failList = false;
    // the first run failed on its root listing; the follow-up starts after it and succeeds
    storage.write('d/SKILL.md', skillMd('d'));
    assert.equal(await firstFailed, true);
    assert.deepEqual((await second).added, ['skill://d/SKILL.md']);
    assert.equal(state.maxRootListsInFlight, 1);
  });

  test('a failed reload does not leave storage calls running while the next reload walks', async () => {
    // One read fails at once while another is slow: the next walk must not start before the slow one ends.
    const inner = memoryStorage({ ...tree(), 'slow/SKILL.md': skillMd('slow') });
    // one-shot switches, so the follow-up run reads normally whatever the timing
    let failA = false;
    let slowOnce = false;
    let inFlight = 0;
    const busyAtWalkStart: number[] = [];
    const files: SkillFiles = {
      async list(dir) {
        if (dir === '') busyAtWalkStart.push(inFlight);
        inFlight++;
        try {
          return await inner.list(dir);
        } finally {
          inFlight--;
        }
      },
      async read(p) {
        inFlight++;
        try {
          if (failA && p === 'a/SKILL.md') {
            failA = false;
            throw new Error('a is unreadable');
          }
          if (slowOnce && p === 'slow/SKILL.md') {
            slowOnce = false;
            await sleep(150);
          }
          return await inner.read(p);
        } finally {
          inFlight--;
        }
      },
    };
    const catalog = await SkillCatalog.load(files, { concurrency: 4 });
    // rewrite both files so the next reload has to read them
    inner.write('a/SKILL.md', skillMd('a', 'changed'));
    inner.write('slow/SKILL.md', skillMd('slow', 'changed'));
    failA = true;
    slowOnce = true;
    const first = catalog.reload();
    const second = catalog.reload();
    await assert.rejects(first, /a is unreadable/);
    await second;
    while (inFlight > 0) await sleep(10);
    assert.deepEqual(busyAtWalkStart.slice(1), [0, 0], 'the follow-up walk began while the failed run still had a read in flight');
  });
});

describe('reload(): list-change listeners', () => {
  test('listeners fire only when the list changed, and stop when unsubscribed', async () => {
    const storage = memoryStorage(tree());
    const catalog = await SkillCatalog.load(storage);
    let calls = 0;
    const stop = catalog.onListChanged(() => calls++);
    await catalog.reload();
    assert.equal(calls, 0, 'no change, no call');
    storage.write('b/notes.md', 'x');
    await catalog.reload();
    assert.equal(calls, 1);
    stop();
    storage.write('b/notes.md', 'y');
    await catalog.reload();
    assert.equal(calls, 1, 'unsubscribed');
  });

  test('a failed reload does not notify', async () => {
    const storage = memoryStorage(tree());
    const { files, state } = instrumented(storage);
    const catalog = await SkillCatalog.load(files);
    let calls = 0;
    catalog.onListChanged(() => calls++);
    storage.write('d/SKILL.md', skillMd('d'));
    state.failList = true;
    await assert.rejects(catalog.reload());
    assert.equal(calls, 0);
  });

  test('watch() reloads on storage changes; stopping it stops reloads; failures become warnings', async () => {
    const storage = memoryStorage(tree());
    const w = warnings();
    const { files, state } = instrumented(storage);
    const watched: SkillFiles = { ...files, watch: (fn) => storage.watch!(fn) };
    const catalog = await SkillCatalog.load(watched, { onWarning: w.onWarning });
    let changed = 0;
    catalog.onListChanged(() => changed++);
    const stop = catalog.watch();
    storage.write('d/SKILL.md', skillMd('d'));
    for (let i = 0; i < 50 && changed === 0; i++) await sleep(5);
    assert.equal(changed, 1);
    assert.ok(await catalog.get('skill://d/SKILL.md'));

    state.failList = true;
    storage.write('e/SKILL.md', skillMd('e'));
    for (let i = 0; i < 50 && w.list.length === 0; i++) await sleep(5);
    assert.equal(w.list[0]?.code, 'reload-failed');
    state.failList = false;

    stop();
    const walks = state.walks;
    storage.write('f/SKILL.md', skillMd('f'));
    await sleep(30);
    assert.equal(state.walks, walks, 'no reload after stop');

    const plain = await SkillCatalog.load({ list: (d) => storage.list(d), read: (p) => storage.read(p) });
    assert.throws(() => plain.watch(), /cannot be watched/);
  });

  test('after close(), stop functions handed out earlier are inert: a new watch() keeps watching a real folder', async (t) => {
    const { dir, remove } = tempDir();
    t.after(remove);
    writeTree(dir, tree());
    const catalog = await SkillCatalog.load(fsStorage(dir, { debounceMs: 20 }));
    t.after(() => catalog.close());
    const before = catalog.watch();
    catalog.close();
    before(); // from before the close: must not end the watch started below
    before(); // and a stop function works once at most
    const stop = catalog.watch();
    t.after(stop);
    await sleep(50); // let the folder watcher settle
    writeFileSync(path.join(dir, 'c', 'SKILL.md'), skillMd('c', 'Changed after the re-watch.'));
    const description = async () => (await catalog.get('skill://c/SKILL.md')).frontmatter.description;
    for (let i = 0; i < 300 && (await description()) !== 'Changed after the re-watch.'; i++) await sleep(10);
    assert.equal(await description(), 'Changed after the re-watch.');

    // Two watchers: the first stop (called twice) leaves the second one watching.
    const second = catalog.watch();
    stop();
    stop();
    writeFileSync(path.join(dir, 'c', 'SKILL.md'), skillMd('c', 'Changed with one watcher left.'));
    for (let i = 0; i < 300 && (await description()) !== 'Changed with one watcher left.'; i++) await sleep(10);
    assert.equal(await description(), 'Changed with one watcher left.');
    second();
  });
});
