/**
 * The symlink-swap race against folder storage, for real: while another process swaps each skill's
 * `ref` folder with a hidden symlink to a folder outside the root (renameat2(RENAME_EXCHANGE), or
 * plain renames where that is missing), the storage is listed and read, and a catalog loaded and
 * read through its cache, many times. Not one byte from outside may be listed, hashed or returned.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SkillCatalog, StorageError, type SkillWarning } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import { arena, duringSwaps, hasSecret, publicNotes, SECRET_DIGEST, SKILLS } from '../support/swap-loop.js';

for (const mode of [
  { name: 'worker threads', options: {} },
  { name: 'calling thread', options: { workerThreads: false } },
] as const) {
  describe(`fsStorage under a symlink-swap race (${mode.name})`, () => {
    let a: ReturnType<typeof arena>;
    before(() => (a = arena()));
    after(() => a.remove());

    test('listAll never lists, hashes or returns an outside file; a swapped folder is unsupported', async () => {
      const storage = fsStorage(a.root, mode.options);
      const unsupported = new Set<string>();
      const failed: unknown[] = [];
      const { runs, rounds } = await duringSwaps(a.pairs, async () => {
        const listing = await storage.listAll().catch((error: unknown) => void failed.push(error));
        for (const item of listing ?? []) {
          assert.notEqual(item.digest, SECRET_DIGEST, `${item.path}: the outside file's digest was listed`);
          assert.ok(!hasSecret(item.content), `${item.path}: the outside file's bytes were listed`);
          // The outside folder holds a SKILL.md too: listing it would add a skill.
          assert.ok(!/^skill-\d\/ref\/SKILL\.md$/.test(item.path), `${item.path}: the outside folder was listed`);
          if (item.kind === 'unsupported') unsupported.add(item.path.replace(/\d/, 'N'));
        }
      });
      assert.ok(rounds > 0 && runs >= 3, `the race ran (${runs} listings, ${rounds} swap rounds)`);
      // A swap does not fail the listing either: what it met is listed as unsupported.
      assert.deepEqual(failed, []);
      // Whatever the race showed is named by its path: `ref` itself or a name inside it (`.ref` is the symlink, when not swapped).
      for (const p of unsupported) assert.match(p, /^skill-N\/\.?ref(\/notes\.md)?$/);
      assert.ok(unsupported.has('skill-N/ref') || unsupported.has('skill-N/ref/notes.md'), 'a swapped entry was met and listed as unsupported');
    });

    test("read returns the folder's bytes or refuses with a StorageError naming the path, never the outside bytes", async () => {
      const storage = fsStorage(a.root, mode.options);
      let refused = 0;
      const { runs } = await duringSwaps(a.pairs, async () => {
        await Promise.all(
          Array.from({ length: SKILLS }, async (_, i) => {
            const file = `skill-${i}/ref/notes.md`;
            try {
              const bytes = await storage.read(file);
              assert.ok(!hasSecret(bytes), `${file}: read returned the outside file`);
              assert.equal(Buffer.from(bytes).toString(), publicNotes(i));
            } catch (error) {
              if (error instanceof assert.AssertionError) throw error;
              assert.ok(error instanceof StorageError, String(error));
              assert.equal(error.path, file);
              assert.ok(error.message.includes(`"${file}"`), error.message);
              refused++;
            }
          }),
        );
      });
      assert.ok(runs >= 3, `the race ran (${runs} rounds of reads)`);
      assert.ok(refused > 0, 'some reads met a swapped folder and were refused');
    });

    test('a catalog over it never publishes the outside digest nor serves the outside bytes, through its cache or not', async () => {
      const storage = fsStorage(a.root, mode.options);
      const warned: SkillWarning[] = [];
      const onWarning = (w: SkillWarning) => warned.push(w);
      // One long-lived catalog, as a server holds: reloaded and read (bytes cache on) during the race.
      const served = await SkillCatalog.load(storage, { onWarning });
      const uncached = await SkillCatalog.load(storage, { onWarning, cacheBytes: 0 });
      const check = (catalog: SkillCatalog) => {
        for (const entry of catalog.entries) {
          assert.ok(entry.resources !== 'dynamic');
          for (const r of entry.resources) assert.notEqual(r.digest, SECRET_DIGEST, `${r.uri}: the outside digest was published`);
          assert.ok(!entry.uri.includes('/ref/SKILL.md'), `${entry.uri}: the outside folder became a skill`);
        }
      };
      const readAll = async (catalog: SkillCatalog) => {
        for (const entry of catalog.entries) {
          for (const r of entry.resources === 'dynamic' ? [] : entry.resources) {
            const content = await catalog.read(r.uri).catch(() => undefined);
            assert.ok(!hasSecret(content?.bytes), `${r.uri}: the outside bytes were served`);
          }
        }
      };
      const failed: unknown[] = [];
      const { runs } = await duringSwaps(a.pairs, async () => {
        const fresh = await SkillCatalog.load(storage, { onWarning }).catch((error: unknown) => void failed.push(error));
        if (fresh) {
          check(fresh);
          await readAll(fresh);
          fresh.close();
        }
        await served.reload().catch(() => undefined);
        check(served);
        await readAll(served);
        await readAll(uncached);
      });
      served.close();
      uncached.close();
      assert.ok(runs >= 3, `the race ran (${runs} loads)`);
      assert.deepEqual(failed, [], 'no load failed: a skill met swapped is skipped instead');
      assert.ok(
        warned.some((w) => w.code === 'unsupported' && /^skill-\d\/ref/.test(w.path ?? '')),
        `a skill met swapped is skipped with an "unsupported" warning naming the path: ${JSON.stringify(warned.slice(0, 3))}`,
      );
    });
  });
}
