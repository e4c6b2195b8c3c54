/**
 * The symlink-swap race against folder storage, for real: while another process swaps each skill's
 * `ref` folder with a hidden symlink to a folder outside the root (renameat2(RENAME_EXCHANGE), or
 * plain renames where that is missing), the storage is listed and read, and a catalog loaded and
 * read through its cache, many times. Not one byte from outside may be listed, hashed or returned.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SkillCatalog, StorageError, type SkillWarning } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import { skillMd, tempDir } from '../core/helpers.js';
import { swapLoop, type SwapLoop } from '../support/swap-loop.js';

const SECONDS = 2.5;
const SKILLS = 4;
const SECRET = 'BEGIN PRIVATE KEY: outside the served folder\n';
const SECRET_DIGEST = `sha256:${createHash('sha256').update(SECRET).digest('hex')}`;
const publicNotes = (i: number) => `public notes of skill ${i}\n`;
const hasSecret = (bytes: Uint8Array | undefined) => bytes !== undefined && Buffer.from(bytes).includes(SECRET);

/** A served folder of SKILLS skills, each with `ref/notes.md` and a hidden `.ref` symlink to the outside folder, which holds `notes.md` too. */
function arena(): { root: string; outside: string; pairs: [string, string][]; remove: () => void } {
  const tmp = tempDir('skillmount-swap-');
  const root = path.join(tmp.dir, 'served');
  const outside = path.join(tmp.dir, 'outside');
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'notes.md'), SECRET, { mode: 0o600 });
  writeFileSync(path.join(outside, 'SKILL.md'), skillMd('ref'));
  const pairs: [string, string][] = [];
  for (let i = 0; i < SKILLS; i++) {
    const skill = path.join(root, `skill-${i}`);
    mkdirSync(path.join(skill, 'ref'), { recursive: true });
    writeFileSync(path.join(skill, 'SKILL.md'), skillMd(`skill-${i}`));
    writeFileSync(path.join(skill, 'ref', 'notes.md'), publicNotes(i));
    symlinkSync(outside, path.join(skill, '.ref'));
    pairs.push([path.join(skill, 'ref'), path.join(skill, '.ref')]);
  }
  return { root, outside, pairs, remove: tmp.remove };
}

/** Runs `attempt` again and again for SECONDS while the entries are swapped; returns how many times it ran. */
async function duringSwaps(pairs: [string, string][], attempt: () => Promise<void>): Promise<{ runs: number; rounds: number; how: SwapLoop['how'] }> {
  const loop = await swapLoop(pairs, SECONDS + 30);
  const end = Date.now() + SECONDS * 1000;
  let runs = 0;
  let rounds = 0;
  try {
    while (Date.now() < end) {
      await attempt();
      runs++;
    }
  } finally {
    rounds = await loop.stop();
  }
  return { runs, rounds, how: loop.how };
}

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
      assert.ok(rounds > 0 && runs > 10, `the race ran (${runs} listings, ${rounds} swap rounds)`);
      // A swap does not fail the listing either: what it met is listed as unsupported.
      assert.deepEqual(failed, []);
      // Whatever the race showed is named by its path: `ref` itself or a name inside it (`.ref` is the symlink, when not swapped).
      for (const p of unsupported) assert.match(p, /^skill-N\/\.?ref(\/notes\.md)?$/);
      assert.ok(unsupported.has('skill-N/ref') || unsupported.has('skill-N/ref/notes.md'), 'a swapped entry was met and listed as unsupported');
    });

    test('read returns the folder\'s bytes or refuses with a StorageError naming the path, never the outside bytes', async () => {
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
      assert.ok(runs > 10, `the race ran (${runs} rounds of reads)`);
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
      assert.ok(runs > 5, `the race ran (${runs} loads)`);
      assert.deepEqual(failed, [], 'no load failed: a skill met swapped is skipped instead');
      assert.ok(
        warned.some((w) => w.code === 'unsupported' && /^skill-\d\/ref/.test(w.path ?? '')),
        `a skill met swapped is skipped with an "unsupported" warning naming the path: ${JSON.stringify(warned.slice(0, 3))}`,
      );
    });
  });
}
