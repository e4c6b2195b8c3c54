import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { SkillCatalog, StorageError, type SkillFileListing, type SkillFiles } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import { listedFiles } from '../support/listed-files.js';
import { skillMd } from '../support/skill-md.js';
import { tempTree, untilSettled } from '../support/trees.js';

const repo = path.resolve(import.meta.dirname, '../..');
const digest = (bytes: string | Uint8Array) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

const byPath = (listing: readonly SkillFileListing[]) => new Map(listing.map((item) => [item.path, item]));
const sorted = (listing: readonly SkillFileListing[]) => [...listing].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
const modes = [
  { name: 'worker threads', options: {} },
  { name: 'calling thread', options: { workerThreads: false } },
] as const;

const TREE = {
  'README.md': 'not in a skill',
  'SKILL.md': skillMd('root'), // at the root: not a skill, never read
  'docs/guide.md': 'no SKILL.md here',
  'tools/lint/SKILL.md': skillMd('lint'),
  'tools/lint/references/rules.md': '# Rules\n',
  'tools/lint/.secret': 'hidden',
  'tools/lint/.cache/blob.bin': 'hidden folder',
  'tools/lint/inner/SKILL.md': skillMd('inner'),
  'tools/lint/inner/a.txt': 'nested',
  'empty-file/SKILL.md': skillMd('empty-file'),
  'empty-file/zero.txt': '',
};

for (const mode of modes) {
  describe(`fsStorage.listAll (${mode.name})`, () => {
    test('lists every entry; files inside skill folders come with size and digest, SKILL.md with its bytes', async (t) => {
      const dir = tempTree(t, TREE);
      symlinkSync(path.join(dir, 'README.md'), path.join(dir, 'tools/lint/link.md'));
      const items = byPath(await fsStorage(dir, mode.options).listAll!());

      const rules = items.get('tools/lint/references/rules.md')!;
      assert.deepEqual(
        { kind: rules.kind, size: rules.size, digest: rules.digest, content: rules.content },
        { kind: 'file', size: 8, digest: digest('# Rules\n'), content: undefined },
      );
      assert.match(rules.token!, /^\d+:/);
      const skill = items.get('tools/lint/SKILL.md')!;
      assert.equal(Buffer.from(skill.content!).toString(), skillMd('lint'));
      assert.equal(skill.digest, digest(skillMd('lint')));
      assert.equal(items.get('tools/lint/inner/a.txt')!.digest, digest('nested'));
      assert.deepEqual([items.get('empty-file/zero.txt')!.size, items.get('empty-file/zero.txt')!.digest], [0, digest('')]);

      // Outside any skill folder, hidden, or at the root: listed by name, never read.
      for (const p of ['README.md', 'SKILL.md', 'docs/guide.md', 'tools/lint/.secret']) {
        const item = items.get(p)!;
        assert.equal(item.kind, 'file', p);
        assert.equal(item.token, undefined, p);
        assert.equal(item.digest, undefined, p);
        assert.equal(item.content, undefined, p);
      }
      assert.equal(items.get('tools/lint/.cache')?.kind, 'directory');
      assert.equal(items.get('tools/lint/.cache/blob.bin'), undefined, 'a hidden folder is not entered');
      assert.equal(items.get('tools/lint/link.md')?.kind, 'unsupported');
      assert.equal(items.get('docs')?.kind, 'directory');
    });

    test('a file whose token the caller already holds is not read again (once its times are settled)', async (t) => {
      const dir = tempTree(t, TREE);
      await untilSettled();
      const storage = fsStorage(dir, mode.options);
      const first = byPath(await storage.listAll!());
      writeFileSync(path.join(dir, 'tools/lint/references/rules.md'), '# Rules, changed\n');
      const asked: string[] = [];
      const again = byPath(
        await storage.listAll!({
          known: (p) => {
            asked.push(p);
            return first.get(p)?.token;
          },
        }),
      );
      assert.equal(again.get('tools/lint/SKILL.md')!.content, undefined);
      assert.equal(again.get('tools/lint/SKILL.md')!.digest, undefined);
      assert.equal(again.get('tools/lint/SKILL.md')!.token, first.get('tools/lint/SKILL.md')!.token);
      assert.equal(again.get('tools/lint/references/rules.md')!.digest, digest('# Rules, changed\n'));
      assert.notEqual(again.get('tools/lint/references/rules.md')!.token, first.get('tools/lint/references/rules.md')!.token);
      assert.ok(asked.includes('tools/lint/SKILL.md'));
      assert.ok(!asked.includes('README.md'), 'files no catalog reads are not looked up');
    });

    test('a missing root, or a root that is a file, fails with a StorageError naming it', async (t) => {
      const dir = tempTree(t, { 'file.txt': 'x' });
      for (const root of [path.join(dir, 'missing'), path.join(dir, 'file.txt')]) {
        await assert.rejects(fsStorage(root, mode.options).listAll!(), (error: unknown) => {
          assert.ok(error instanceof StorageError, String(error));
          assert.equal(error.path, '');
          assert.match(error.message, /cannot list "\(root\)"/);
          assert.ok(error.message.includes(root), error.message);
          return true;
        });
      }
    });

    test('listAllBatches gives what listAll gives, in more than one batch, with the tokens the caller holds too', async (t) => {
      const dir = tempTree(t, TREE);
      const storage = fsStorage(dir, mode.options);
      const collect = async (options?: Parameters<typeof storage.listAllBatches>[0]) => {
        const batches: SkillFileListing[][] = [];
        for await (const batch of storage.listAllBatches(options)) batches.push(batch);
        return batches;
      };
      const batches = await collect();
      assert.ok(batches.length > 1, `${batches.length} batch`);
      assert.ok(
        batches.every((b) => b.length > 0),
        'no empty batch',
      );
      const whole = await storage.listAll();
      assert.deepEqual(sorted(batches.flat()), sorted(whole));
      writeFileSync(path.join(dir, 'tools/lint/references/rules.md'), '# Rules, changed\n');
      const first = byPath(whole);
      const known = { known: (p: string) => first.get(p)?.token };
      assert.deepEqual(sorted((await collect(known)).flat()), sorted(await storage.listAll(known)));
    });

    test('listAllBatches of a missing root fails at its first step with a StorageError naming it; ending early is quiet', async (t) => {
      const dir = tempTree(t, TREE);
      const missing = path.join(dir, 'missing');
      await assert.rejects(
        (async () => {
          for await (const batch of fsStorage(missing, mode.options).listAllBatches()) assert.fail(`a batch of ${batch.length}`);
        })(),
        (error: unknown) => error instanceof StorageError && error.path === '' && error.message.includes(missing),
      );
      let seen = 0;
      for await (const batch of fsStorage(dir, mode.options).listAllBatches()) {
        seen += batch.length;
        break;
      }
      assert.ok(seen > 0);
      assert.equal((await fsStorage(dir, mode.options).listAll()).length, (await fsStorage(dir, { workerThreads: false }).listAll()).length);
    });

    test('a catalog built from listAll equals one built by listing folder by folder', async (t) => {
      const files: Record<string, string> = {};
      for (let s = 0; s < 40; s++) {
        const skill = `group-${s % 4}/skill-${s}`;
        files[`${skill}/SKILL.md`] = skillMd(`skill-${s}`);
        for (let f = 0; f < 6; f++) files[`${skill}/${['references', 'scripts', 'assets'][f % 3]}/file-${f}.txt`] = `skill ${s} file ${f}\n`.repeat(f * 40);
      }
      const dir = tempTree(t, files);
      const storage = fsStorage(dir, mode.options);
      const folderByFolder: SkillFiles = { list: (d) => storage.list(d), read: (p) => storage.read(p) };
      const quiet = { onWarning() {} };
      const [fast, slow] = await Promise.all([SkillCatalog.load(storage, quiet), SkillCatalog.load(folderByFolder, quiet)]);
      assert.equal(fast.entries.length, 40);
      assert.deepEqual(fast.entries, slow.entries);
      assert.equal(fast.bodiesRead, 40, 'the SKILL.md bytes came with the listing; every other file was hashed while listing');

      const reloaded = await fast.reload();
      assert.equal(fast.bodiesRead, 0);
      assert.equal(reloaded.listChanged, false);
      assert.deepEqual(reloaded.changed, []);
      writeFileSync(path.join(dir, 'group-1/skill-5/references/file-3.txt'), 'changed');
      const changed = await fast.reload();
      assert.deepEqual(changed.changed, ['skill://group-1/skill-5/SKILL.md']);
      const entry = fast.entries.find((e) => e.uri.includes('/skill-5/'))!;
      assert.equal(listedFiles(entry).find((r) => r.uri.endsWith('/file-3.txt'))!.digest, digest('changed'));
    });
  });
}

describe('fsStorage.listAll: threads', () => {
  test('both ways give the same listing', async (t) => {
    const dir = tempTree(t, TREE);
    const [a, b] = await Promise.all([fsStorage(dir).listAll!(), fsStorage(dir, { workerThreads: false }).listAll!()]);
    assert.deepEqual(sorted(a), sorted(b));
  });

  test('a process that only waits for a listing finishes it and then exits (idle threads hold nothing open)', (t) => {
    const dir = tempTree(t, TREE);
    for (const type of ['module', 'commonjs'] as const) {
      const load =
        type === 'module' ? `const { fsStorage } = await import('@skillmount/storage-fs');` : `const { fsStorage } = require('@skillmount/storage-fs');`;
      const code = `${type === 'module' ? '' : '(async () => {'}${load} const l = await fsStorage(${JSON.stringify(dir)}).listAll(); console.log(l.filter((i) => i.digest).length);${type === 'module' ? '' : '})();'}`;
      const started = Date.now();
      const out = execFileSync(process.execPath, [`--input-type=${type}`, '-e', code], { cwd: repo, encoding: 'utf8', timeout: 20_000 }).trim();
      assert.equal(out, '6', type);
      assert.ok(Date.now() - started < 10_000, `${type}: exited in ${Date.now() - started} ms`);
    }
  });

  test('without its worker file (a bundle that left it out), the listing runs on the calling thread', async (t) => {
    const dir = tempTree(t, TREE);
    // A copy of the built package beside the original, so that its imports still resolve.
    const copy = path.join(repo, 'packages/storage-fs', `dist-no-worker-${process.pid}`);
    cpSync(path.join(repo, 'packages/storage-fs/dist'), copy, { recursive: true });
    t.after(() => rmSync(copy, { recursive: true, force: true }));
    for (const name of readdirSync(copy)) if (name.startsWith('tree-worker.')) unlinkSync(path.join(copy, name));
    const { fsStorage: bundled } = (await import(pathToFileURL(path.join(copy, 'index.js')).href)) as typeof import('@skillmount/storage-fs');
    const listing = await bundled(dir).listAll!();
    assert.deepEqual(sorted(listing), sorted(await fsStorage(dir, { workerThreads: false }).listAll!()));
    const batched: SkillFileListing[] = [];
    for await (const batch of bundled(dir).listAllBatches()) for (const item of batch) batched.push(item);
    assert.deepEqual(sorted(batched), sorted(listing));
    // And again, now that the pool knows it cannot start.
    assert.equal((await bundled(dir).listAll!()).length, listing.length);
  });

  test('options are checked', () => {
    assert.throws(() => fsStorage('.', { workerThreads: 'yes' as never }), /option "workerThreads" must be true or false/);
    assert.throws(() => fsStorage('.', { debounceMs: -1 }), /option "debounceMs" must be a number of milliseconds/);
    // A timer longer than 2^31 - 1 ms would fire at once.
    assert.throws(() => fsStorage('.', { debounceMs: 2 ** 31 }), /option "debounceMs" must be a number of milliseconds from 0 to 2147483647/);
    assert.doesNotThrow(() => fsStorage('.', { debounceMs: 2 ** 31 - 1 }));
  });
});
