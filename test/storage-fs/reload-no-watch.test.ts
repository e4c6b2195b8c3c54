/**
 * A folder reloaded without a watch (what a server gets on network file systems and container
 * volumes), with real files and a real catalog: a reload with nothing changed reads no file body
 * and lists nothing, and no edit is missed, not even one that keeps the size and lands in the same
 * timestamp tick as the read before it (a "racily clean" file, as git calls it).
 *
 * Each case runs in the system's temporary folder and on tmpfs (/dev/shm) where there is one. A
 * Linux kernel from 6.13 on stamps a change just after a `stat` with a finer time, so on those two
 * file systems the same-tick edit may never happen there; set SKILLMOUNT_COARSE_TIMES_DIR to a
 * folder on a file system that stamps in clock ticks (ramfs, FAT, a network file system, tmpfs or
 * ext4 on an older kernel) to run every case there too.
 */
import { describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { accessSync, constants, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SkillCatalog, sha256Digest, type SkillFiles } from '@skillmount/core';
import { fsStorage, type FsStorage, type FsStorageOptions } from '@skillmount/storage-fs';
import { listedFiles } from '../support/listed-files.js';
import { skillMd } from '../support/skill-md.js';
import { untilSettled, writeTree } from '../support/trees.js';

const writable = (dir: string) => {
  try {
    accessSync(dir, constants.W_OK);
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
};
const coarse = process.env.SKILLMOUNT_COARSE_TIMES_DIR;
const places = [
  { name: 'temporary folder', parent: os.tmpdir() },
  ...(writable('/dev/shm') ? [{ name: 'tmpfs', parent: '/dev/shm' }] : []),
  ...(coarse ? [{ name: `coarse times (${coarse})`, parent: coarse }] : []),
];
const modes = [
  { name: 'worker threads', options: {} },
  { name: 'calling thread', options: { workerThreads: false } },
] as const;

const SKILL = 'org/team/area/lint';
const NOTES = `${SKILL}/references/deep/er/notes.md`;
const TREE = {
  [`${SKILL}/SKILL.md`]: skillMd('lint'),
  [NOTES]: 'notes, version 000\n',
  [`${SKILL}/scripts/run.py`]: 'print(1)\n',
  'org/other/fmt/SKILL.md': skillMd('fmt'),
  'org/other/fmt/assets/a.txt': 'a\n',
};
const LINT = 'skill://org/team/area/lint/SKILL.md';
const uriOf = (storagePath: string) => `skill://${storagePath}`;
const quiet = { onWarning: () => {} };

/** A folder holding TREE under `parent`, removed after the test. */
function treeIn(t: TestContext, parent: string): string {
  const dir = mkdtempSync(path.join(parent, 'skillmount-reload-'));
  t.after(() => rmSync(dir, { recursive: true, force: true, maxRetries: 5 }));
  writeTree(dir, TREE);
  return dir;
}

/** The storage behind a wrapper that counts the bodies taken (reads, and files a listing hashed) and the listings. */
function counting(storage: FsStorage) {
  let bodies = 0;
  let listings = 0;
  const files: SkillFiles = {
    label: storage.label,
    list: (dir) => storage.list(dir),
    read: (p, o) => {
      bodies++;
      return storage.read(p, o);
    },
    listAll: async (options) => {
      listings++;
      const listing = await storage.listAll(options);
      for (const item of listing) if (item.digest !== undefined || item.content !== undefined) bodies++;
      return listing;
    },
    treeToken: () => storage.treeToken(),
  };
  return {
    files,
    counts: () => ({ bodies, listings }),
    reset: () => {
      bodies = 0;
      listings = 0;
    },
  };
}

/** What the catalog serves for a file: the digest its entry lists, and the bytes a read returns. */
async function served(catalog: SkillCatalog, storagePath: string): Promise<{ digest: string | undefined; bytes: string }> {
  const entry = catalog.entries.find((e) => e.uri === LINT)!;
  const digest = listedFiles(entry).find((r) => r.uri === uriOf(storagePath))?.digest;
  return { digest, bytes: Buffer.from((await catalog.read(uriOf(storagePath))).bytes).toString() };
}

const digestOf = (text: string) => sha256Digest(new TextEncoder().encode(text));
const lintFiles = (catalog: SkillCatalog) =>
  listedFiles(catalog.entries.find((e) => e.uri === LINT)!)
    .map((r) => r.uri)
    .sort();

async function load(dir: string, options: FsStorageOptions = {}) {
  const storage = fsStorage(dir, options);
  const counted = counting(storage);
  const catalog = await SkillCatalog.load(counted.files, quiet);
  return { storage, catalog, ...counted };
}

for (const place of places) {
  describe(`fsStorage reloaded without a watch, ${place.name}`, { concurrency: true }, () => {
    for (const mode of modes) {
      test(`nothing changed: no file body read, nothing listed after the first reload, the same entries (${mode.name})`, async (t) => {
        const dir = treeIn(t, place.parent);
        await untilSettled();
        const { storage, catalog, counts, reset } = await load(dir, mode.options);
        const before = catalog.entries;
        reset();
        for (let i = 0; i < 3; i++) {
          assert.deepEqual(await catalog.reload(), { added: [], removed: [], changed: [], listChanged: false });
          assert.equal(catalog.entries, before, 'the same entries, not a copy');
          assert.equal(counts().bodies, 0, `reload ${i + 1}: no file body read`);
        }
        // The first reload lists once (the load had no tree token to keep); the others list nothing.
        assert.equal(counts().listings, 1);
        assert.equal(typeof (await storage.treeToken()), 'string', 'a tree token without a watch');
      });

      test(`a file added, renamed and removed in a deep folder, and a new deep skill, are seen at once and once settled (${mode.name})`, async (t) => {
        const dir = treeIn(t, place.parent);
        await untilSettled();
        const { catalog } = await load(dir, mode.options);
        await catalog.reload();
        const deep = path.join(dir, ...path.dirname(NOTES).split('/'));
        const notes = uriOf(NOTES);
        const added = uriOf(path.posix.join(path.posix.dirname(NOTES), 'added.md'));
        const moved = uriOf(path.posix.join(path.posix.dirname(NOTES), 'moved.md'));
        // Right after each other (the folder's times too recent to prove its names), then again once they are settled.
        for (const round of ['at once', 'settled']) {
          if (round === 'settled') await untilSettled();
          writeFileSync(path.join(deep, 'added.md'), `added ${round}\n`);
          await catalog.reload();
          assert.ok(lintFiles(catalog).includes(added), `${round}: added`);
          if (round === 'settled') await untilSettled();
          renameSync(path.join(deep, 'added.md'), path.join(deep, 'moved.md'));
          await catalog.reload();
          assert.deepEqual(
            lintFiles(catalog).filter((u) => u === added || u === moved || u === notes),
            [moved, notes],
            `${round}: renamed`,
          );
          assert.equal((await served(catalog, `${path.posix.dirname(NOTES)}/moved.md`)).bytes, `added ${round}\n`);
          if (round === 'settled') await untilSettled();
          unlinkSync(path.join(deep, 'moved.md'));
          await catalog.reload();
          assert.deepEqual(
            lintFiles(catalog).filter((u) => u === added || u === moved),
            [],
            `${round}: removed`,
          );
          const name = `new-${round === 'at once' ? 'a' : 'b'}`;
          mkdirSync(path.join(dir, 'org/team/area', name, 'references'), { recursive: true });
          writeFileSync(path.join(dir, 'org/team/area', name, 'SKILL.md'), skillMd(name));
          await catalog.reload();
          assert.ok(
            catalog.entries.some((e) => e.uri === `skill://org/team/area/${name}/SKILL.md`),
            `${round}: the new skill`,
          );
        }
      });
    }

    test('with fullWalkMs 0 nothing is kept: no tree token, and every reload lists', async (t) => {
      const dir = treeIn(t, place.parent);
      await untilSettled();
      const { storage, catalog, counts, reset } = await load(dir, { fullWalkMs: 0 });
      reset();
      await catalog.reload();
      await catalog.reload();
      assert.deepEqual(counts(), { bodies: 0, listings: 2 });
      assert.equal(await storage.treeToken(), undefined);
    });

    test('a file read while its times were recent is read again by the next reload, until a read once they are settled', async (t) => {
      const dir = treeIn(t, place.parent);
      // Loaded right after it was written: every file's times are within the settle window.
      const { catalog, counts, reset } = await load(dir);
      const files = Object.keys(TREE).length;
      reset();
      await catalog.reload();
      assert.equal(counts().bodies, files, 'every file read again: its token cannot prove the bytes read with it');
      await untilSettled();
      reset();
      await catalog.reload();
      assert.equal(counts().bodies, files, 'read once more, now that the times are settled');
      reset();
      await catalog.reload();
      assert.equal(counts().bodies, 0, 'then trusted: nothing read');
      reset();
      await catalog.reload();
      assert.deepEqual(counts(), { bodies: 0, listings: 0 }, 'and nothing listed');
    });

    test('an edit that keeps the size, right after a reload read the file, is served by the next reload (many times over)', async (t) => {
      const dir = treeIn(t, place.parent);
      const { catalog } = await load(dir);
      const file = path.join(dir, ...NOTES.split('/'));
      const version = (n: number) => `notes, version ${String(n).padStart(3, '0')}\n`;
      for (let i = 1; i <= 150; i++) {
        writeFileSync(file, version(2 * i));
        await catalog.reload();
        // The same size, as soon as the reload has read it: on a coarse clock, often the same tick.
        writeFileSync(file, version(2 * i + 1));
        await catalog.reload();
        const now = await served(catalog, NOTES);
        assert.equal(now.digest, digestOf(version(2 * i + 1)), `round ${i}: the new digest is served`);
        assert.equal(now.bytes, version(2 * i + 1), `round ${i}: a read returns the new bytes`);
      }
    });

    test('a file added right after a reload listed its folder is seen by the next reload (many times over)', async (t) => {
      const dir = treeIn(t, place.parent);
      await untilSettled();
      const { catalog } = await load(dir);
      const deep = path.posix.dirname(NOTES);
      for (let i = 1; i <= 150; i++) {
        writeFileSync(path.join(dir, ...deep.split('/'), `burst-${i}-a.md`), 'a\n');
        await catalog.reload();
        // On a coarse clock, often in the same tick as the add before: the folder's times do not move.
        writeFileSync(path.join(dir, ...deep.split('/'), `burst-${i}-b.md`), 'b\n');
        await catalog.reload();
        assert.ok(lintFiles(catalog).includes(uriOf(`${deep}/burst-${i}-b.md`)), `round ${i}: the second file is listed`);
      }
    });

    test('an edit that keeps the size and puts the old mtime back (utimes) is served: its ctime moved', async (t) => {
      const dir = treeIn(t, place.parent);
      const file = path.join(dir, ...NOTES.split('/'));
      // A whole second, so that utimes can put back exactly the same mtime.
      const old = Math.floor(Date.now() / 1000) - 60;
      utimesSync(file, old, old);
      await untilSettled();
      const { catalog } = await load(dir);
      for (let i = 1; i <= 20; i++) {
        const text = `notes, version ${String(500 + i)}\n`;
        writeFileSync(file, text);
        utimesSync(file, old, old);
        assert.equal(statSync(file).mtimeMs, old * 1000, 'the old mtime is back');
        await catalog.reload();
        assert.deepEqual(await served(catalog, NOTES), { digest: digestOf(text), bytes: text }, `round ${i}`);
      }
    });
  });
}
