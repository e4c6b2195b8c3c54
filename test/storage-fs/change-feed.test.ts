/**
 * The change feed of folder storage, with real files and a real recursive fs.watch: with a watch
 * on, a reload with nothing changed lists nothing, and one after a change lists again only what
 * the watcher's events name, yet serves exactly what a full walk would.
 */
import { describe, test, type TestContext } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SkillCatalog, type ListAllOptions, type SkillFileListing, type SkillFiles, type SkillWarning } from '@skillmount/core';
import { fsStorage, type FsStorage, type FsStorageOptions } from '@skillmount/storage-fs';
import { skillMd } from '../support/skill-md.js';
import { arena, duringSwaps, hasSecret, SECRET_DIGEST } from '../support/swap-loop.js';
import { tempDir, tempTree, writeTree } from '../support/trees.js';
import { waitFor } from '../support/wait.js';

// How long to wait for the watcher and reloads on a busy machine: a bound on waiting, not a timing assertion.
const PATIENCE = 20_000;

const modes = [
  { name: 'worker threads', options: {} },
  { name: 'calling thread', options: { workerThreads: false } },
] as const;

const TREE = {
  'tools/lint/SKILL.md': skillMd('lint'),
  'tools/lint/references/rules.md': '# Rules\n',
  'tools/fmt/SKILL.md': skillMd('fmt'),
  'tools/fmt/scripts/run.py': 'print(1)\n',
  'docs/SKILL.md': skillMd('docs'),
  'docs/guide/intro.md': 'intro\n',
};

/** The fs storage behind a wrapper that delegates everything and counts the whole-tree listings. */
function counted(storage: FsStorage) {
  const calls = { listAll: 0 };
  let during: ((options: ListAllOptions | undefined) => ListAllOptions | undefined) | undefined;
  const files: SkillFiles = {
    label: storage.label,
    list: (dir) => storage.list(dir),
    read: (p, o) => storage.read(p, o),
    listAll: (options) => {
      calls.listAll++;
      return storage.listAll(during ? during(options) : options);
    },
    treeToken: () => storage.treeToken(),
    watch: (onChange) => storage.watch!(onChange),
  };
  return { files, calls, whileListing: (hook: typeof during) => (during = hook) };
}

/** A watched catalog over `dir`, after its first reload under the watch (which walks everything once). */
async function watched(t: TestContext, dir: string, options: FsStorageOptions) {
  // A long debounce: the test's own reloads are the ones that count.
  const storage = fsStorage(dir, { debounceMs: 60_000, ...options });
  const c = counted(storage);
  const warnings: SkillWarning[] = [];
  const catalog = await SkillCatalog.load(c.files, { onWarning: (w) => warnings.push(w) });
  t.after(() => catalog.close());
  catalog.watch();
  // The build from before the watch has no token: this one walks everything and has one.
  await catalog.reload();
  /**
   * Make a change, then reload until `served()` (a reload that lists nothing since it is blind
   * to the change never gets there). Events of one change may come in several batches, so one
   * reload after the first of them may be too early: the next one must catch up.
   */
  const change = async (what: string, make: () => void, served: () => Promise<boolean>) => {
    const before = await storage.treeToken();
    make();
    await waitFor(async () => (await storage.treeToken()) !== before, `the watcher's events for ${what}`, PATIENCE);
    await waitFor(
      async () => {
        await catalog.reload();
        return served();
      },
      `${what} served after a reload`,
      PATIENCE,
    );
  };
  return { storage, catalog, warnings, ...c, change };
}

const shape = (listing: readonly SkillFileListing[]) =>
  listing.map((i) => `${i.path} ${i.kind} ${i.token ?? ''} ${i.digest ?? ''}`).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** What a storage without a watch lists for the folder now: what the watched one must agree with. */
const fresh = async (dir: string) => shape(await fsStorage(dir).listAll());

const uris = (catalog: SkillCatalog) => catalog.entries.map((e) => e.uri).sort();
const text = async (catalog: SkillCatalog, uri: string) => Buffer.from((await catalog.read(uri)).bytes!).toString();

for (const mode of modes) {
  describe(`fsStorage change feed (${mode.name})`, () => {
    test('a reload with nothing changed since the watch started does not list', async (t) => {
      const dir = tempTree(t, TREE);
      const w = await watched(t, dir, mode.options);
      const before = w.catalog.entries;
      const listings = w.calls.listAll;
      const report = await w.catalog.reload();
      assert.equal(w.calls.listAll, listings, 'listAll was called');
      assert.equal(w.catalog.bodiesRead, 0);
      assert.equal(w.catalog.entries, before);
      assert.equal(report.listChanged, false);
    });

    test('each change is served after the reload, and the listing is what a full walk gives', async (t) => {
      const dir = tempTree(t, TREE);
      const w = await watched(t, dir, mode.options);
      const p = (rel: string) => path.join(dir, ...rel.split('/'));
      const step = async (what: string, make: () => void, served: () => Promise<boolean>) => {
        await w.change(what, make, served);
        const whole = await fresh(dir);
        await waitFor(
          async () => isDeepStrictEqual(shape(await w.storage.listAll({ known: () => undefined })), whole),
          `${what}: a full walk's listing`,
          PATIENCE,
        );
      };
      const has = (uri: string) => uris(w.catalog).includes(uri);
      const gone = (uri: string) =>
        w.catalog.read(uri).then(
          () => false,
          () => true,
        );

      await step(
        'an edited file',
        () => writeFileSync(p('tools/lint/references/rules.md'), '# Rules, edited\n'),
        async () => (await text(w.catalog, 'skill://tools/lint/references/rules.md')) === '# Rules, edited\n',
      );
      await step(
        'a new file',
        () => writeFileSync(p('tools/fmt/scripts/new.py'), 'print(2)\n'),
        async () => (await text(w.catalog, 'skill://tools/fmt/scripts/new.py').catch(() => '')) === 'print(2)\n',
      );
      await step(
        'a deleted file',
        () => unlinkSync(p('docs/guide/intro.md')),
        () => gone('skill://docs/guide/intro.md'),
      );
      await step(
        'a new skill folder, made and filled after the watch started',
        () => {
          mkdirSync(p('tools/new/deep'), { recursive: true });
          writeFileSync(p('tools/new/SKILL.md'), skillMd('new'));
          writeFileSync(p('tools/new/deep/a.md'), 'deep\n');
        },
        async () => has('skill://tools/new/SKILL.md') && (await text(w.catalog, 'skill://tools/new/deep/a.md').catch(() => '')) === 'deep\n',
      );
      await step(
        'a file written into the new folder later',
        () => writeFileSync(p('tools/new/deep/b.md'), 'later\n'),
        async () => (await text(w.catalog, 'skill://tools/new/deep/b.md').catch(() => '')) === 'later\n',
      );
      await step(
        'a folder renamed into another',
        () => {
          mkdirSync(p('more'));
          renameSync(p('tools/fmt'), p('more/fmt'));
        },
        async () => !has('skill://tools/fmt/SKILL.md') && (await text(w.catalog, 'skill://more/fmt/scripts/run.py').catch(() => '')) === 'print(1)\n',
      );
      await step(
        'a deleted folder',
        () => rmSync(p('tools/lint'), { recursive: true }),
        async () => !has('skill://tools/lint/SKILL.md') && (await gone('skill://tools/lint/references/rules.md')),
      );
      await step(
        'a folder made a skill by a new SKILL.md (its subfolders are now read)',
        () => writeFileSync(p('docs/guide/SKILL.md'), skillMd('guide')),
        async () => has('skill://docs/guide/SKILL.md'),
      );
      await step(
        'a folder removed and made again with other files',
        () => {
          rmSync(p('tools/new'), { recursive: true });
          writeTree(dir, { 'tools/new/SKILL.md': skillMd('new', 'Made again.'), 'tools/new/deep/c.md': 'c\n' });
        },
        async () => (await text(w.catalog, 'skill://tools/new/deep/c.md').catch(() => '')) === 'c\n' && (await gone('skill://tools/new/deep/a.md')),
      );
      assert.deepEqual(uris(w.catalog), ['skill://docs/SKILL.md', 'skill://docs/guide/SKILL.md', 'skill://more/fmt/SKILL.md', 'skill://tools/new/SKILL.md']);
    });

    test('an event that comes while a listing runs is not lost', async (t) => {
      // Enough folders that the listing takes a while after the root: the event comes meanwhile.
      const files: Record<string, string> = {};
      for (let i = 0; i < 150; i++) {
        const name = `s${String(i).padStart(3, '0')}`;
        files[`${name}/SKILL.md`] = skillMd(name);
        files[`${name}/ref/a.md`] = 'a\n';
      }
      const dir = tempTree(t, files);
      const w = await watched(t, dir, mode.options);
      const a = path.join(dir, 's000/ref/a.md');
      await w.change(
        'a first change',
        () => writeFileSync(a, 'one\n'),
        async () => (await text(w.catalog, 'skill://s000/ref/a.md')) === 'one\n',
      );
      const before = await w.storage.treeToken();
      writeFileSync(a, 'two\n');
      await waitFor(async () => (await w.storage.treeToken()) !== before, "the watcher's events for a second change", PATIENCE);
      let made = false;
      w.whileListing((options) => ({
        // Called as each listed file is taken: by then the root is listed, so this listing cannot see the new skill.
        known: (p) => {
          if (!made) {
            made = true;
            writeTree(dir, { 'zz-new/SKILL.md': skillMd('zz-new') });
          }
          return options?.known?.(p);
        },
      }));
      await w.catalog.reload();
      w.whileListing(undefined);
      assert.ok(made);
      assert.ok(!uris(w.catalog).includes('skill://zz-new/SKILL.md'), 'the root was listed before the new folder was made');
      // Were its mark dropped with the listing's, no reload would ever list the root again.
      await waitFor(
        async () => {
          await w.catalog.reload();
          return uris(w.catalog).includes('skill://zz-new/SKILL.md');
        },
        'the folder made during the listing served',
        PATIENCE,
      );
    });

    test('a folder swapped for a symlink between events is refused, not followed', async (t) => {
      const tmp = tempDir();
      t.after(tmp.remove);
      const dir = path.join(tmp.dir, 'served');
      writeTree(dir, { 'a/SKILL.md': skillMd('a'), 'a/ref/notes.md': 'public\n', 'b/SKILL.md': skillMd('b') });
      writeTree(tmp.dir, { 'outside/notes.md': 'SECRET\n', 'outside/SKILL.md': skillMd('outside') });
      const w = await watched(t, dir, mode.options);
      const swap = () => {
        renameSync(path.join(dir, 'a/ref'), path.join(dir, 'a/.old-ref'));
        symlinkSync(path.join(tmp.dir, 'outside'), path.join(dir, 'a/ref'));
      };
      await w.change('the swap', swap, async () => !uris(w.catalog).includes('skill://a/SKILL.md'));
      const listing = await w.storage.listAll();
      assert.equal(listing.find((i) => i.path === 'a/ref')?.kind, 'unsupported');
      assert.ok(!listing.some((i) => i.path.startsWith('a/ref/')), 'nothing below the symlink is listed');
      assert.deepEqual(uris(w.catalog), ['skill://b/SKILL.md'], 'the skill holding the symlink is skipped');
      assert.ok(w.warnings.some((x) => x.code === 'unsupported' && x.path?.startsWith('a/ref')));
    });

    test('events naming no path of the storage (a backslash, bytes that are not UTF-8) are served as a full walk serves them', async (t) => {
      const dir = tempTree(t, TREE);
      const w = await watched(t, dir, mode.options);
      const raw = (rel: string) => Buffer.concat([Buffer.from(`${dir}/`), Buffer.from(rel, 'latin1')]);
      const plant = () => {
        writeFileSync(path.join(dir, 'tools/lint/references/back\\slash.md'), 'backslash\n');
        writeFileSync(raw('docs/guide/\xfe.md'), 'not utf-8\n');
        mkdirSync(raw('tools/fmt/\xff-dir'));
        writeFileSync(raw('tools/fmt/\xff-dir/in.md'), 'inside\n');
        writeFileSync(path.join(dir, 'docs/guide/intro.md'), 'intro, edited\n');
      };
      // Each skill holding such a name is skipped, and the warning says why.
      await w.change('files with hostile names beside an edit', plant, async () => uris(w.catalog).length === 0);
      const whole = await fresh(dir);
      await waitFor(async () => isDeepStrictEqual(shape(await w.storage.listAll()), whole), "a full walk's listing", PATIENCE);
      const said = (code: string, at: string) => w.warnings.find((x) => x.code === code && x.path === at)?.message ?? '';
      assert.match(said('bad-name', 'tools/lint/references/back\\slash.md'), /cannot be a skill URI segment \(a backslash\); rename it/);
      assert.match(said('unsupported', 'docs/guide/\uFFFD.md'), /its name is not valid UTF-8 \(shown with U\+FFFD\).*rename it/);
      assert.match(said('unsupported', 'tools/fmt/\uFFFD-dir'), /its name is not valid UTF-8/);
      // The names go away: the skills are served again, and the feed still follows changes.
      const mended = () => {
        unlinkSync(path.join(dir, 'tools/lint/references/back\\slash.md'));
        unlinkSync(raw('docs/guide/\xfe.md'));
        rmSync(raw('tools/fmt/\xff-dir'), { recursive: true });
      };
      await w.change(
        'the hostile names removed',
        mended,
        async () => uris(w.catalog).length === 3 && (await text(w.catalog, 'skill://docs/guide/intro.md')) === 'intro, edited\n',
      );
      await w.change(
        'a later edit',
        () => writeFileSync(path.join(dir, 'tools/fmt/scripts/run.py'), 'print(3)\n'),
        async () => (await text(w.catalog, 'skill://tools/fmt/scripts/run.py')) === 'print(3)\n',
      );
    });

    test('the root re-pointed: no token, and the reload walks the new folder', async (t) => {
      const tmp = tempDir();
      t.after(tmp.remove);
      writeTree(tmp.dir, { 'one/a/SKILL.md': skillMd('a'), 'two/b/SKILL.md': skillMd('b') });
      const link = path.join(tmp.dir, 'root');
      symlinkSync(path.join(tmp.dir, 'one'), link);
      const w = await watched(t, link, mode.options);
      unlinkSync(link);
      symlinkSync(path.join(tmp.dir, 'two'), link);
      assert.equal(await w.storage.treeToken(), undefined);
      await w.catalog.reload();
      assert.deepEqual(uris(w.catalog), ['skill://b/SKILL.md']);
      assert.equal(await w.storage.treeToken(), undefined, 'the watcher watches the old folder: its events say nothing of this one');
    });

    test('the root replaced by another folder: no token, and the reload walks the new folder', async (t) => {
      const tmp = tempDir();
      t.after(tmp.remove);
      const root = path.join(tmp.dir, 'root');
      writeTree(root, { 'a/SKILL.md': skillMd('a') });
      const w = await watched(t, root, mode.options);
      renameSync(root, path.join(tmp.dir, 'old'));
      writeTree(root, { 'b/SKILL.md': skillMd('b') });
      assert.equal(await w.storage.treeToken(), undefined);
      await w.catalog.reload();
      assert.deepEqual(uris(w.catalog), ['skill://b/SKILL.md']);
      assert.equal(await w.storage.treeToken(), undefined);
    });

    test('the periodic full walk (fullWalkMs) reloads a watching catalog with nothing changed', async (t) => {
      const dir = tempTree(t, TREE);
      const w = await watched(t, dir, { ...mode.options, debounceMs: 10, fullWalkMs: 100 });
      const listings = w.calls.listAll;
      await waitFor(() => w.calls.listAll >= listings + 2, 'two periodic full walks', PATIENCE);
    });

    test('a file replaced by a rename, then edited in place, is served from the events alone', async (t) => {
      const dir = tempTree(t, TREE);
      // No periodic walk: only the watcher's events can bring these changes in.
      const w = await watched(t, dir, { ...mode.options, fullWalkMs: Infinity });
      for (const rel of ['tools/lint/references/rules.md', 'tools/lint/SKILL.md']) {
        const file = path.join(dir, rel);
        const uri = `skill://${rel}`;
        const served = (content: string) => async () => (await text(w.catalog, uri).catch(() => '')) === content;
        // How editors and `sed -i` save: a new file renamed over the old one.
        const replaced = rel.endsWith('SKILL.md') ? skillMd('lint', 'Replaced.') : 'replaced\n';
        await w.change(
          `${rel} replaced by a rename`,
          () => {
            writeFileSync(`${file}.tmp`, replaced);
            renameSync(`${file}.tmp`, file);
          },
          served(replaced),
        );
        const edited = rel.endsWith('SKILL.md') ? skillMd('lint', 'Mended.') : 'edited in place\n';
        await w.change(`${rel} then edited in place`, () => writeFileSync(file, edited), served(edited));
        // Same size: only the bytes differ.
        const same = rel.endsWith('SKILL.md') ? skillMd('lint', 'Fixed!!') : 'EDITED in place\n';
        assert.equal(same.length, edited.length);
        await w.change(`${rel} edited again, same size`, () => writeFileSync(file, same), served(same));
      }
    });

    test('a folder replaced by a rename is watched: later edits in it are served from the events alone', async (t) => {
      const tmp = tempDir();
      t.after(tmp.remove);
      const dir = path.join(tmp.dir, 'served');
      writeTree(dir, TREE);
      writeTree(tmp.dir, { 'staging/SKILL.md': skillMd('lint', 'Checked out.'), 'staging/references/rules.md': '# Rules, checked out\n' });
      const w = await watched(t, dir, { ...mode.options, fullWalkMs: Infinity });
      const uri = 'skill://tools/lint/references/rules.md';
      // As `git checkout` or a deploy swaps a folder: the old one moved aside, the new one moved in.
      await w.change(
        'the folder swapped',
        () => {
          renameSync(path.join(dir, 'tools/lint'), path.join(dir, '.old-lint'));
          renameSync(path.join(tmp.dir, 'staging'), path.join(dir, 'tools/lint'));
        },
        async () => (await text(w.catalog, uri).catch(() => '')) === '# Rules, checked out\n',
      );
      await w.change(
        'a file of the new folder edited in place',
        () => writeFileSync(path.join(dir, 'tools/lint/references/rules.md'), '# Rules, edited after\n'),
        async () => (await text(w.catalog, uri).catch(() => '')) === '# Rules, edited after\n',
      );
      await w.change(
        'a folder made in the new folder',
        () => writeTree(dir, { 'tools/lint/extra/more.md': 'more\n' }),
        async () => (await text(w.catalog, 'skill://tools/lint/extra/more.md').catch(() => '')) === 'more\n',
      );
    });

    test('a change the watcher misses is served after the next periodic full walk', async (t) => {
      const tmp = tempDir();
      t.after(tmp.remove);
      const dir = path.join(tmp.dir, 'served');
      writeTree(dir, TREE);
      const rules = path.join(dir, 'tools/lint/references/rules.md');
      // A hard link from outside the folder: a write through it tells none of the watched folders.
      const outside = path.join(tmp.dir, 'rules-link.md');
      linkSync(rules, outside);
      const w = await watched(t, dir, { ...mode.options, debounceMs: 10, fullWalkMs: 200 });
      const uri = 'skill://tools/lint/references/rules.md';
      writeFileSync(outside, 'written through the link\n');
      await waitFor(async () => (await text(w.catalog, uri).catch(() => '')) === 'written through the link\n', 'the edit served', PATIENCE);
    });
  });
}

describe('fsStorage watch under a steady trickle of changes', () => {
  test('a new skill is served within the maximum wait while a file keeps changing every 50 ms', async (t) => {
    const { dir, remove } = tempDir();
    writeTree(dir, TREE);
    // Outside every skill: listed by name, never read, so no reload fails on a file being written.
    const log = path.join(dir, 'trickle.log');
    // Another process writes a counter every 50 ms: events never pause for the debounce.
    const writer = spawn(process.execPath, ['-e', `let n = 0; setInterval(() => require('fs').writeFileSync(${JSON.stringify(log)}, String(++n)), 50);`], {
      stdio: 'ignore',
    });
    let catalog: SkillCatalog | undefined;
    // One hook, in this order: removing the folder while the writer still writes into it can fail
    // (ENOTEMPTY), and a failed hook would leave the writer and the watch running.
    t.after(async () => {
      if (writer.exitCode === null && writer.signalCode === null) {
        const exited = once(writer, 'exit');
        writer.kill();
        await exited;
      }
      catalog?.close();
      remove();
    });
    // The writer's count. writeFileSync truncates the file before it writes, and a loaded machine
    // can pause the writer in between: a read then finds the file empty (it once made the trickle
    // look stopped, on Node 26 in a full run). Read again until the write has landed.
    const writes = () => {
      const until = Date.now() + 5000;
      do {
        const text = readFileSync(log, 'utf8');
        if (text !== '') return Number(text);
      } while (Date.now() < until);
      return 0;
    };
    await waitFor(() => existsSync(log) && writes() > 3, 'the writer started', PATIENCE);
    // A debounce 20 times the writer's period: without the maximum wait, the catalog would wait for a pause that never comes.
    const storage = fsStorage(dir, { debounceMs: 1000, maxWaitMs: 2000 });
    const loaded = await SkillCatalog.load(storage);
    catalog = loaded;
    loaded.watch();
    const atStart = writes();
    writeTree(dir, { 'added/SKILL.md': skillMd('added') });
    const made = Date.now();
    await waitFor(() => uris(loaded).includes('skill://added/SKILL.md'), 'the new skill served', PATIENCE);
    t.diagnostic(`served ${Date.now() - made} ms after the folder was made, ${writes() - atStart} writes of the trickle meanwhile`);
    assert.ok(writes() > atStart + 10, 'the trickle went on meanwhile');
    assert.equal(writer.exitCode, null, 'the writer still runs');
  });
});

describe('fsStorage tree token', () => {
  // Without a watch, a token needs a listing made without one to check against (reload-no-watch.test.ts).
  test('undefined before any listing, once the watch stops, and with fullWalkMs 0; a new watch never repeats a token', async (t) => {
    const dir = tempTree(t, TREE);
    const storage = fsStorage(dir);
    assert.equal(await storage.treeToken(), undefined);
    const stop = storage.watch!(() => {});
    const first = await storage.treeToken();
    assert.equal(typeof first, 'string', 'a token from the watch start on: a listing then walks everything');
    await storage.listAll();
    assert.equal(await storage.treeToken(), first, 'nothing changed: the same token');
    stop();
    assert.equal(await storage.treeToken(), undefined);
    // A new watch never gives a token an earlier one gave.
    const again = storage.watch!(() => {});
    t.after(again);
    await storage.listAll();
    const second = await storage.treeToken();
    assert.equal(typeof second, 'string');
    assert.notEqual(second, first);

    const off = fsStorage(dir, { fullWalkMs: 0 });
    t.after(off.watch!(() => {}));
    await off.listAll();
    assert.equal(await off.treeToken(), undefined);
  });

  test('one watcher for every watch() of a storage: the token holds until the last one stops', async (t) => {
    const dir = tempTree(t, TREE);
    const storage = fsStorage(dir);
    const one = storage.watch!(() => {});
    const two = storage.watch!(() => {});
    await storage.listAll();
    const token = await storage.treeToken();
    one();
    assert.equal(await storage.treeToken(), token);
    two();
    assert.equal(await storage.treeToken(), undefined);
  });
});

// One mode: both run the same checked jobs (swap-race.test.ts races each). The swaps flood the
// watcher with events (tens of thousands a second): the listings go on meanwhile, each entry the
// events name looked at once per turn of the event loop. Looking at it on every event kept the
// process busy until the swapping ended, and the first listing with it.
describe('fsStorage change feed under a symlink-swap race', () => {
  test('listings that reuse kept folders never list, hash or return an outside file, and are not held back by the flood of events', async (t) => {
    const a = arena();
    t.after(a.remove);
    const storage = fsStorage(a.root);
    t.after(storage.watch!(() => {}));
    await storage.listAll();
    let held = new Map<string, string>();
    const { runs, rounds, swapping } = await duringSwaps(
      a.pairs,
      async () => {
        const listing = await storage.listAll({ known: (p) => held.get(p) });
        held = new Map(listing.filter((i) => i.token !== undefined).map((i) => [i.path, i.token!]));
        for (const item of listing) {
          assert.notEqual(item.digest, SECRET_DIGEST, `${item.path}: the outside file's digest was listed`);
          assert.ok(!hasSecret(item.content), `${item.path}: the outside file's bytes were listed`);
          assert.ok(!/^skill-\d\/ref\/SKILL\.md$/.test(item.path), `${item.path}: the outside folder was listed`);
        }
      },
      { minRuns: 5 },
    );
    assert.ok(runs >= 5 && rounds > 0, `the race ran (${runs} listings, ${rounds} swap rounds)`);
    // 30 s of swapping were left when the listings began: they did not wait for it to end.
    assert.ok(swapping, `the listings waited for the swapping to end (${runs} listings, ${rounds} swap rounds)`);
  });
});
