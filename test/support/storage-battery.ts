/**
 * One battery of SkillFiles checks, run against every storage (memory, folder, S3, PostgreSQL).
 * Each storage test supplies `open(files)`, which stores the given files and returns a storage
 * rooted at them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SkillCatalog, memoryStorage, type SkillFiles } from '@skillmount/core';

export interface BatteryTarget {
  /** Store these files (relative path → bytes) in a fresh root and return a storage over it. */
  open(files: Record<string, Uint8Array>): Promise<SkillFiles>;
  /** Release everything the battery opened (called once, after all checks). */
  cleanup?(): Promise<void>;
}

const text = (s: string) => new TextEncoder().encode(s);
const skillMd = (name: string, extra = '') => text(`---\nname: ${name}\ndescription: The ${name} skill.\n${extra}---\n# ${name}\n`);

/** Every byte value, so any text decoding on the way breaks the comparison. */
const BINARY = Uint8Array.from({ length: 512 }, (_, i) => (i * 7) % 256);

export const ODD_NAMES = ['with space.md', 'ünïcødé.md', 'hash#1.md', 'per%cent.md', 'what?.md', 'Q&A.md', '日本語.txt'];

export function basicTree(): Record<string, Uint8Array> {
  const files: Record<string, Uint8Array> = {
    'alpha/SKILL.md': skillMd('alpha', 'license: MIT\n'),
    'alpha/assets/blob.bin': BINARY,
    'alpha/empty.txt': new Uint8Array(0),
    'org/team/beta/SKILL.md': skillMd('beta'),
    'org/team/beta/a/b/c/d/e/f/g/h/i/j/deep.md': text('deep'),
    'org/team/beta/inner/SKILL.md': skillMd('inner'),
    'org/team/beta/inner/notes.md': text('nested skill file'),
    'not-a-skill/readme.txt': text('outside any skill'),
  };
  for (const name of ODD_NAMES) files[`alpha/odd/${name}`] = text(`content of ${name}`);
  return files;
}

/** Three skills of 400 files each: more than 1000 keys, across S3 listing pages. */
export function largeTree(): Record<string, Uint8Array> {
  const files: Record<string, Uint8Array> = {};
  for (const skill of ['bulk-a', 'bulk-b', 'bulk-c']) {
    files[`${skill}/SKILL.md`] = skillMd(skill);
    for (let i = 0; i < 399; i++) files[`${skill}/files/f${String(i).padStart(4, '0')}.txt`] = text(`${skill} ${i}`);
  }
  return files;
}

export function runStorageBattery(name: string, target: BatteryTarget): void {
  test(`${name}: the SkillFiles battery`, async (t) => {
    t.after(async () => target.cleanup?.());
    const files = basicTree();
    const storage = await target.open(files);

    await t.test('lists the root and nested folders with kinds', async () => {
      const root = await storage.list('');
      const names = root.map((e) => `${e.name}:${e.kind}`).sort();
      assert.deepEqual(names, ['alpha:directory', 'not-a-skill:directory', 'org:directory']);
      const alpha = (await storage.list('alpha')).map((e) => `${e.name}:${e.kind}`).sort();
      assert.deepEqual(alpha, ['SKILL.md:file', 'assets:directory', 'empty.txt:file', 'odd:directory']);
      const deep = await storage.list('org/team/beta/a/b/c/d/e/f/g/h/i/j');
      assert.deepEqual(deep.map((e) => e.name), ['deep.md']);
    });

    await t.test('reads exact bytes: binary, empty, deep', async () => {
      assert.deepEqual(await storage.read('alpha/assets/blob.bin'), BINARY);
      assert.equal((await storage.read('alpha/empty.txt')).byteLength, 0);
      assert.deepEqual(await storage.read('org/team/beta/a/b/c/d/e/f/g/h/i/j/deep.md'), text('deep'));
    });

    await t.test('names with spaces, unicode, #, %, ? and &', async () => {
      const odd = (await storage.list('alpha/odd')).map((e) => e.name).sort();
      assert.deepEqual(odd, [...ODD_NAMES].sort());
      for (const n of ODD_NAMES) assert.deepEqual(await storage.read(`alpha/odd/${n}`), text(`content of ${n}`), n);
    });

    await t.test('a missing path fails with an error naming it', async () => {
      await assert.rejects(storage.read('alpha/nope.md'), (error: Error) => error.message.includes('alpha/nope.md'));
    });

    await t.test('read(path, { maxBytes }): exact size passes, one byte less is refused with code too-large', async () => {
      assert.deepEqual(await storage.read('alpha/assets/blob.bin', { maxBytes: BINARY.byteLength }), BINARY);
      await assert.rejects(storage.read('alpha/assets/blob.bin', { maxBytes: BINARY.byteLength - 1 }), (error: Error & { code?: string; path?: string }) => {
        assert.equal(error.name, 'StorageError');
        assert.equal(error.code, 'too-large');
        assert.match(error.message, /alpha\/assets\/blob\.bin/);
        return true;
      });
    });

    await t.test('paths that could leave the root are refused', async () => {
      for (const bad of ['../x', 'alpha/../../x', 'alpha/./SKILL.md', '/etc/passwd', 'alpha//SKILL.md', 'alpha\\SKILL.md']) {
        await assert.rejects(storage.read(bad), Error, `read(${JSON.stringify(bad)})`);
      }
      await assert.rejects(storage.list('..'));
    });

    await t.test('a catalog over it equals a catalog over the same files in memory', async () => {
      const quiet = { onWarning: () => {} };
      const ours = await SkillCatalog.load(storage, quiet);
      const reference = await SkillCatalog.load(memoryStorage(files), quiet);
      assert.deepEqual(ours.entries, reference.entries);
      assert.deepEqual(
        ours.entries.map((e) => e.uri),
        ['skill://alpha/SKILL.md', 'skill://org/team/beta/SKILL.md', 'skill://org/team/beta/inner/SKILL.md'],
      );
      // files outside every skill are never served
      await assert.rejects(ours.read('skill://not-a-skill/readme.txt'));
    });

    await t.test('more than 1000 files', async () => {
      const large = largeTree();
      const big = await target.open(large);
      const listing = await big.list('bulk-b/files');
      assert.equal(listing.length, 399);
      const catalog = await SkillCatalog.load(big, { onWarning: () => {} });
      assert.equal(catalog.entries.length, 3);
      assert.equal(catalog.entries.reduce((n, e) => n + (e.resources as unknown[]).length, 0), 1200);
      assert.deepEqual(catalog.entries, (await SkillCatalog.load(memoryStorage(large), { onWarning: () => {} })).entries);
    });
  });
}
