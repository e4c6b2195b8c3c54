/**
 * One battery of SkillFiles checks, run against every storage (memory, folder, S3, PostgreSQL).
 * Each storage test supplies `open(files)`, which stores the given files and returns a storage
 * rooted at them, `rewrite` to change one file's bytes, and which optional members it has: the
 * optional contract (`listAll`, tokens, `size`, `digest`, `content`, `known`) is checked for each
 * storage that implements it.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, test } from 'node:test';
import { SkillCatalog, memoryStorage, type SkillFileListing, type SkillFiles } from '@skillmount/core';
import { isHiddenName, isSkillFile, joinPath, skillFoldersIn } from '@skillmount/core/storage-kit';
import { skillMd } from './skill-md.js';

export interface BatteryTarget {
  /** Store these files (relative path → bytes) in a fresh root and return a storage over it. */
  open(files: Record<string, Uint8Array>): Promise<SkillFiles>;
  /** Replace the bytes of one file of a storage that `open` returned, as a writer of that storage would. */
  rewrite(storage: SkillFiles, path: string, bytes: Uint8Array): Promise<void>;
  /**
   * The optional members this storage has; the battery checks it has exactly these, then tests each
   * (`treeToken`, `listAllBatches`: default false). `treeToken: 'sometimes'`: the member is there,
   * but tells only in a state the battery does not set up (a watch on, a manifest written).
   */
  optional: { listAll: boolean; inMemory: boolean; watch: boolean; close: boolean; treeToken?: boolean | 'sometimes'; listAllBatches?: boolean };
  /** What its `listAll` gives for the files a catalog reads: digests (with sizes), and SKILL.md bodies. */
  listed?: { digests: boolean; contents: boolean };
  /** Release everything the battery opened (called once, after all checks). */
  cleanup?(): Promise<void>;
}

const text = (s: string) => new TextEncoder().encode(s);

/** Every byte value, so any text decoding on the way breaks the comparison. */
const BINARY = Uint8Array.from({ length: 512 }, (_, i) => (i * 7) % 256);

export const ODD_NAMES = ['with space.md', 'ünïcødé.md', 'hash#1.md', 'per%cent.md', 'what?.md', 'Q&A.md', '日本語.txt'];

export function basicTree(): Record<string, Uint8Array> {
  const files: Record<string, Uint8Array> = {
    'alpha/SKILL.md': text(skillMd('alpha', { frontmatter: 'license: MIT\n' })),
    'alpha/assets/blob.bin': BINARY,
    'alpha/empty.txt': new Uint8Array(0),
    'org/team/beta/SKILL.md': text(skillMd('beta')),
    'org/team/beta/a/b/c/d/e/f/g/h/i/j/deep.md': text('deep'),
    'org/team/beta/inner/SKILL.md': text(skillMd('inner')),
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
    files[`${skill}/SKILL.md`] = text(skillMd(skill));
    for (let i = 0; i < 399; i++) files[`${skill}/files/f${String(i).padStart(4, '0')}.txt`] = text(`${skill} ${i}`);
  }
  return files;
}

export function runStorageBattery(name: string, target: BatteryTarget): void {
  after(async () => target.cleanup?.());
  runOptionalContract(name, target);
  test(`${name}: the SkillFiles battery`, async (t) => {
    const files = basicTree();
    const storage = await target.open(files);

    await t.test('lists the root and nested folders with kinds', async () => {
      const root = await storage.list('');
      const names = root.map((e) => `${e.name}:${e.kind}`).sort();
      assert.deepEqual(names, ['alpha:directory', 'not-a-skill:directory', 'org:directory']);
      const alpha = (await storage.list('alpha')).map((e) => `${e.name}:${e.kind}`).sort();
      assert.deepEqual(alpha, ['SKILL.md:file', 'assets:directory', 'empty.txt:file', 'odd:directory']);
      const deep = await storage.list('org/team/beta/a/b/c/d/e/f/g/h/i/j');
      assert.deepEqual(
        deep.map((e) => e.name),
        ['deep.md'],
      );
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
      assert.equal(
        catalog.entries.reduce((n, e) => n + (e.resources as unknown[]).length, 0),
        1200,
      );
      assert.deepEqual(catalog.entries, (await SkillCatalog.load(memoryStorage(large), { onWarning: () => {} })).entries);
    });
  });
}

const sha256 = (bytes: Uint8Array) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/** The basic tree, with hidden files and folders inside and outside a skill (never served, still listed). */
export function contractTree(): Record<string, Uint8Array> {
  return {
    ...basicTree(),
    'alpha/.notes.md': text('hidden file in a skill'),
    'alpha/.cache/x.bin': BINARY,
    '.git/config': text('[core]\n'),
  };
}

/** Every entry a walk through `list` finds, by path; hidden folders are named, not entered (nothing under them is served). */
async function walk(storage: SkillFiles): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  let level = [''];
  while (level.length > 0) {
    const next: string[] = [];
    for (const dir of level) {
      for (const entry of await storage.list(dir)) {
        const path = joinPath(dir, entry.name);
        assert.equal(found.has(path), false, `list gives ${path} once`);
        found.set(path, entry.kind);
        if (entry.kind === 'directory' && !isHiddenName(entry.name)) next.push(path);
      }
    }
    level = next;
  }
  return found;
}

const underHidden = (path: string) => path.split('/').slice(0, -1).some(isHiddenName);
const fieldsOf = (item: SkillFileListing) => (['size', 'digest', 'content'] as const).filter((f) => item[f] !== undefined);

/** Checks what a listing says of each file against the bytes `read` returns now; returns how many fields it checked. */
async function checkAgainstRead(storage: SkillFiles, listing: readonly SkillFileListing[]): Promise<{ size: number; digest: number; content: number }> {
  const checked = { size: 0, digest: 0, content: 0 };
  for (const item of listing) {
    if (item.kind !== 'file' || fieldsOf(item).length === 0) continue;
    const bytes = await storage.read(item.path);
    if (item.size !== undefined) {
      assert.equal(item.size, bytes.byteLength, `${item.path}: size is the length of what read returns`);
      checked.size++;
    }
    if (item.digest !== undefined) {
      assert.equal(item.digest, sha256(bytes), `${item.path}: digest is the sha256 of what read returns`);
      assert.notEqual(item.size, undefined, `${item.path}: a digest comes with its size`);
      checked.digest++;
    }
    if (item.content !== undefined) {
      assert.ok(item.content instanceof Uint8Array, `${item.path}: content is a Uint8Array`);
      assert.deepEqual(new Uint8Array(item.content), new Uint8Array(bytes), `${item.path}: content is what read returns`);
      checked.content++;
    }
  }
  return checked;
}

const byPath = (listing: readonly SkillFileListing[]) => {
  const map = new Map<string, SkillFileListing>();
  for (const item of listing) {
    assert.equal(map.has(item.path), false, `listAll gives ${item.path} once`);
    map.set(item.path, item);
  }
  return map;
};

export function runOptionalContract(name: string, target: BatteryTarget): void {
  test(`${name}: the optional SkillFiles contract`, async (t) => {
    const files = contractTree();
    const storage = await target.open(files);
    const skillFolders = skillFoldersIn(Object.keys(files).map((path) => ({ path, kind: 'file' })));
    const tokenOfListed = async (dir: string, fileName: string) => (await storage.list(dir)).find((e) => e.name === fileName)?.token;

    await t.test('has exactly the optional members it declares', () => {
      assert.equal(typeof storage.listAll === 'function', target.optional.listAll, 'listAll');
      assert.equal(storage.inMemory === true, target.optional.inMemory, 'inMemory');
      if (storage.inMemory !== undefined) assert.equal(typeof storage.inMemory, 'boolean');
      assert.equal(typeof storage.watch === 'function', target.optional.watch, 'watch');
      assert.equal(typeof storage.close === 'function', target.optional.close, 'close');
      assert.equal(typeof storage.treeToken === 'function', (target.optional.treeToken ?? false) !== false, 'treeToken');
      assert.equal(typeof storage.listAllBatches === 'function', target.optional.listAllBatches ?? false, 'listAllBatches');
    });

    if (target.optional.treeToken === 'sometimes') {
      await t.test('treeToken: undefined or a token, never an error, when it cannot tell', async () => {
        const token = await storage.treeToken!();
        assert.ok(token === undefined || (typeof token === 'string' && token !== ''), String(token));
      });
    }

    if (target.optional.listAllBatches) {
      await t.test('listAllBatches gives what listAll gives, in batches', async () => {
        const batched: SkillFileListing[] = [];
        for await (const batch of storage.listAllBatches!()) for (const item of batch) batched.push(item);
        const shape = (items: readonly SkillFileListing[]) => items.map((i) => `${i.path}\u0000${i.kind}\u0000${i.token ?? ''}\u0000${i.digest ?? ''}`).sort();
        assert.deepEqual(shape(batched), shape(await storage.listAll!()));
      });
    }

    if (target.optional.treeToken === true) {
      await t.test('treeToken: the same while nothing is written, another after a write through the storage', async () => {
        const before = await storage.treeToken!();
        assert.equal(typeof before, 'string', 'a storage declaring treeToken can tell for a tree it just stored');
        assert.notEqual(before, '');
        await storage.list('alpha');
        await storage.read('alpha/SKILL.md');
        if (storage.listAll) await storage.listAll();
        assert.equal(await storage.treeToken!(), before, 'listing and reading change nothing');
        await target.rewrite(storage, 'alpha/odd/Q&A.md', text('rewritten for the tree token'));
        const after = await storage.treeToken!();
        assert.notEqual(after, before, 'a write gives a new token');
        assert.equal(await storage.treeToken!(), after);
        await target.rewrite(storage, 'alpha/odd/Q&A.md', files['alpha/odd/Q&A.md']!);
        assert.notEqual(await storage.treeToken!(), after, 'writing the old bytes back is a change too');
      });
    }

    await t.test('list gives a token for every file a catalog reads', async () => {
      for (const path of Object.keys(files).filter((p) => isSkillFile(p, skillFolders))) {
        const slash = path.lastIndexOf('/');
        const token = await tokenOfListed(path.slice(0, slash), path.slice(slash + 1));
        assert.equal(typeof token, 'string', path);
      }
    });

    if (target.optional.listAll) {
      await t.test('listAll agrees with list and read: the same entries, kinds, sizes, digests and bytes', async () => {
        const listing = await storage.listAll!();
        const all = byPath(listing);
        const walked = await walk(storage);
        // Folders that listed paths imply may be left out of listAll.
        const implied = new Set<string>();
        for (const path of all.keys()) for (let i = path.indexOf('/'); i > 0; i = path.indexOf('/', i + 1)) implied.add(path.slice(0, i));
        for (const [path, kind] of walked) {
          if (underHidden(path)) continue;
          const item = all.get(path);
          if (item) assert.equal(item.kind, kind, `${path}: the same kind in list and listAll`);
          else assert.ok(kind === 'directory' && implied.has(path), `${path} (${kind}) is in listAll`);
        }
        for (const [path, item] of all) {
          if (underHidden(path)) continue;
          assert.equal(walked.get(path), item.kind, `${path} from listAll is what list shows`);
        }
        for (const path of Object.keys(files)) if (!underHidden(path)) assert.equal(all.get(path)?.kind, 'file', `${path} is listed as a file`);
        for (const path of Object.keys(files).filter((p) => isSkillFile(p, skillFolders)))
          assert.equal(typeof all.get(path)!.token, 'string', `${path} has a token`);
        const checked = await checkAgainstRead(storage, listing);
        assert.ok(checked.size > 0, 'sizes were given and checked');
        assert.equal(checked.digest > 0, target.listed?.digests ?? false, 'digests given and checked, as declared');
        assert.equal(checked.content > 0, target.listed?.contents ?? false, 'contents given and checked, as declared');
        // listAll's tokens are list's.
        for (const path of ['alpha/SKILL.md', 'alpha/assets/blob.bin']) {
          const slash = path.lastIndexOf('/');
          assert.equal(all.get(path)!.token, await tokenOfListed(path.slice(0, slash), path.slice(slash + 1)), path);
        }
      });

      await t.test('known: only files whose token the caller holds may leave out size, digest and content', async () => {
        const plain = byPath(await storage.listAll!());
        const tokens = new Map([...plain].map(([path, item]) => [path, item.token]));
        // Tokens the caller does not hold (wrong ones, none): every file listed as without `known`.
        for (const known of [() => 'not-a-token-of-this-storage', () => undefined]) {
          const listing = await storage.listAll!({ known });
          const again = byPath(listing);
          assert.deepEqual([...again.keys()].sort(), [...plain.keys()].sort());
          for (const [path, item] of again) {
            assert.equal(item.kind, plain.get(path)!.kind, path);
            assert.equal(item.token, plain.get(path)!.token, path);
            assert.deepEqual(fieldsOf(item), fieldsOf(plain.get(path)!), `${path}: nothing left out for a token the caller does not hold`);
          }
          await checkAgainstRead(storage, listing);
        }
        // All tokens held: every file still listed, with its token; what is given is still right.
        const asked: string[] = [];
        const held = await storage.listAll!({
          known: (path) => {
            asked.push(path);
            return tokens.get(path);
          },
        });
        const heldByPath = byPath(held);
        assert.deepEqual([...heldByPath.keys()].sort(), [...plain.keys()].sort());
        for (const [path, item] of heldByPath) assert.equal(item.token, plain.get(path)!.token, path);
        await checkAgainstRead(storage, held);
        // A file rewritten since: its token is no longer the one held, so it is listed in full again.
        await target.rewrite(storage, 'alpha/SKILL.md', text(`---\nname: alpha\ndescription: The alpha skill, rewritten.\n---\n# alpha\n`));
        const after = byPath(await storage.listAll!({ known: (path) => tokens.get(path) }));
        const fresh = byPath(await storage.listAll!());
        const changed = after.get('alpha/SKILL.md')!;
        assert.notEqual(changed.token, tokens.get('alpha/SKILL.md'));
        assert.deepEqual(fieldsOf(changed), fieldsOf(fresh.get('alpha/SKILL.md')!), 'a changed file is listed as without known');
        await checkAgainstRead(storage, [...after.values()]);
        for (const [path, item] of after)
          if (path !== 'alpha/SKILL.md') assert.equal(item.token, tokens.get(path), `${path}: an unchanged file keeps its token`);
        await target.rewrite(storage, 'alpha/SKILL.md', files['alpha/SKILL.md']!);
      });
    }

    await t.test('tokens change when the bytes change: same size, then another size; other files keep theirs', async () => {
      const path = 'alpha/odd/Q&A.md';
      const other = 'alpha/odd/hash#1.md';
      const original = files[path]!;
      const tokens = async () => {
        // listAll first: a storage may answer list from its last whole-tree listing for a moment (S3 does).
        const all = storage.listAll ? byPath(await storage.listAll()) : undefined;
        const listed = await storage.list('alpha/odd');
        const of = (name: string) => {
          const fromList = listed.find((e) => e.name === name)!.token!;
          if (all) assert.equal(all.get(`alpha/odd/${name}`)!.token, fromList, `${name}: listAll and list give the same token`);
          return fromList;
        };
        return { file: of('Q&A.md'), other: of('hash#1.md') };
      };
      const before = await tokens();
      const sameSize = text('CONTENT OF Q&A.md');
      assert.equal(sameSize.byteLength, original.byteLength);
      await target.rewrite(storage, path, sameSize);
      const afterSameSize = await tokens();
      assert.deepEqual(await storage.read(path), sameSize);
      assert.notEqual(afterSameSize.file, before.file, 'other bytes of the same size: a new token');
      await target.rewrite(storage, path, text('a longer content of Q&A.md'));
      const afterResize = await tokens();
      assert.notEqual(afterResize.file, before.file);
      assert.notEqual(afterResize.file, afterSameSize.file, 'another size: a new token');
      assert.equal(afterResize.other, before.other, `${other} did not change, nor did its token`);
      if (storage.listAll) await checkAgainstRead(storage, await storage.listAll());
      await target.rewrite(storage, path, original);
    });
  });
}
