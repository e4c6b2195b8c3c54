import { describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  CatalogError,
  SkillCatalog,
  SkillNotFoundError,
  SkillProtocolError,
  memoryStorage,
  type CatalogOptions,
  type SkillFiles,
  type SkillResource,
  OptionError,
} from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import { demoTree, instrumented, warnings } from './helpers.js';
import { skillMd } from '../support/skill-md.js';
import { tempDir, writeTree } from '../support/trees.js';

const sha = (content: string | Uint8Array) => 'sha256:' + createHash('sha256').update(content).digest('hex');
const byteLength = (content: string) => Buffer.byteLength(content, 'utf8');

async function rejectsWith(promise: Promise<unknown>, code: number, message?: RegExp): Promise<SkillProtocolError> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof SkillProtocolError, `expected a SkillProtocolError, got ${String(caught)}`);
  assert.equal(caught.code, code);
  if (message) assert.match(caught.message, message);
  return caught;
}

type Kind = 'memory' | 'fs';

/** The same tree as a memoryStorage or as a temporary folder (removed when the test ends). */
function storageOf(kind: Kind, t: TestContext, files: Record<string, string>, setup?: (root: string) => void): SkillFiles {
  if (kind === 'memory') return memoryStorage(files);
  const tmp = tempDir();
  t.after(tmp.remove);
  writeTree(tmp.dir, files);
  setup?.(tmp.dir);
  return fsStorage(tmp.dir);
}

const nestedTree = () => ({
  'outer/SKILL.md': skillMd('outer'),
  'outer/guide.md': '# Guide\n',
  'outer/inner/SKILL.md': skillMd('inner'),
  'outer/inner/notes.md': 'notes\n',
});

for (const kind of ['memory', 'fs'] as const) {
  describe(`SkillCatalog.load over ${kind}Storage`, () => {
    test('entries are sorted by URI, with complete resources (SKILL.md included), digests and sizes', async (t) => {
      const files = demoTree();
      const w = warnings();
      const catalog = await SkillCatalog.load(storageOf(kind, t, files), { onWarning: w.onWarning });
      const uris = catalog.entries.map((e) => e.uri);
      assert.deepEqual(uris, ['skill://acme/billing/refunds/SKILL.md', 'skill://git-workflow/SKILL.md', 'skill://pdf-processing/SKILL.md']);
      assert.deepEqual(uris, [...uris].sort());
      assert.deepEqual(w.list, []);
      for (const entry of catalog.entries) {
        const dir = entry.uri.slice('skill://'.length, -'/SKILL.md'.length);
        const expected = Object.keys(files)
          .filter((f) => f.startsWith(dir + '/'))
          .map((f) => `skill://${f}`)
          .sort();
        const resources = entry.resources as SkillResource[];
        assert.deepEqual(
          resources.map((r) => r.uri),
          expected,
          entry.uri,
        );
        assert.ok(
          resources.some((r) => r.uri === entry.uri),
          'SKILL.md is listed',
        );
        for (const r of resources) {
          const content = files[r.uri.slice('skill://'.length)]!;
          assert.equal(r.digest, sha(content), r.uri);
          assert.equal(r.size, byteLength(content), r.uri);
        }
      }
      assert.deepEqual(catalog.entries[1]!.frontmatter, { name: 'git-workflow', description: 'The git-workflow skill.' });
    });

    test('a nested skill is its own entry, and its files are also files of the enclosing skill', async (t) => {
      const catalog = await SkillCatalog.load(storageOf(kind, t, nestedTree()), { onWarning: () => {} });
      assert.deepEqual(
        catalog.entries.map((e) => e.uri),
        ['skill://outer/SKILL.md', 'skill://outer/inner/SKILL.md'],
      );
      const outer = await catalog.get('skill://outer/SKILL.md');
      const inner = await catalog.get('skill://outer/inner/SKILL.md');
      assert.deepEqual(
        (outer.resources as SkillResource[]).map((r) => r.uri),
        ['skill://outer/SKILL.md', 'skill://outer/guide.md', 'skill://outer/inner/SKILL.md', 'skill://outer/inner/notes.md'],
      );
      assert.deepEqual(
        (inner.resources as SkillResource[]).map((r) => r.uri),
        ['skill://outer/inner/SKILL.md', 'skill://outer/inner/notes.md'],
      );
      const shared = (outer.resources as SkillResource[]).find((r) => r.uri === 'skill://outer/inner/notes.md');
      assert.deepEqual(
        shared,
        (inner.resources as SkillResource[]).find((r) => r.uri === 'skill://outer/inner/notes.md'),
      );
      const read = await catalog.read('skill://outer/inner/notes.md');
      assert.equal(Buffer.from(read.bytes).toString(), 'notes\n');
      const dir = await catalog.readDirectory('skill://outer');
      assert.deepEqual(
        dir.resources.map((c) => [c.name, c.mimeType]),
        [
          ['SKILL.md', 'text/markdown'],
          ['guide.md', 'text/markdown'],
          ['inner', 'inode/directory'],
        ],
      );
    });

    test('the prefix option places every skill under it', async (t) => {
      const catalog = await SkillCatalog.load(storageOf(kind, t, demoTree()), { prefix: 'acme/billing', onWarning: () => {} });
      assert.deepEqual(
        catalog.entries.map((e) => e.uri),
        ['skill://acme/billing/acme/billing/refunds/SKILL.md', 'skill://acme/billing/git-workflow/SKILL.md', 'skill://acme/billing/pdf-processing/SKILL.md'],
      );
      const entry = await catalog.get('skill://acme/billing/git-workflow/SKILL.md');
      assert.ok((entry.resources as SkillResource[]).every((r) => r.uri.startsWith('skill://acme/billing/git-workflow/')));
      const file = await catalog.read('skill://acme/billing/git-workflow/references/commit-messages.md');
      assert.equal(Buffer.from(file.bytes).toString(), '# Commit messages\n');
      const dir = await catalog.readDirectory('skill://acme/billing/git-workflow');
      assert.deepEqual(
        dir.resources.map((c) => c.uri),
        ['skill://acme/billing/git-workflow/SKILL.md', 'skill://acme/billing/git-workflow/references'],
      );
      await rejectsWith(catalog.get('skill://git-workflow/SKILL.md'), -32602);
      await rejectsWith(catalog.read('skill://git-workflow/SKILL.md'), -32602);
      const slashes = await SkillCatalog.load(storageOf(kind, t, demoTree()), { prefix: '/acme/billing/', onWarning: () => {} });
      assert.deepEqual(
        slashes.entries.map((e) => e.uri),
        catalog.entries.map((e) => e.uri),
      );
    });

    test('entries are frozen: mutation throws and changes nothing', async (t) => {
      const catalog = await SkillCatalog.load(storageOf(kind, t, demoTree()), { onWarning: () => {} });
      const entry = catalog.entries[1]!;
      const before = JSON.stringify(catalog.entries);
      assert.ok(Object.isFrozen(catalog.entries));
      assert.ok(Object.isFrozen(entry));
      assert.ok(Object.isFrozen(entry.frontmatter));
      assert.ok(Object.isFrozen(entry.resources));
      assert.ok(Object.isFrozen((entry.resources as SkillResource[])[0]));
      assert.throws(() => {
        (entry.frontmatter as { name: string }).name = 'hacked';
      }, TypeError);
      assert.throws(() => {
        (entry as { uri: string }).uri = 'skill://x/SKILL.md';
      }, TypeError);
      assert.throws(() => (entry.resources as SkillResource[]).push({ uri: 'skill://git-workflow/x', digest: sha('x'), size: 1 }), TypeError);
      assert.throws(() => {
        ((entry.resources as SkillResource[])[0] as { size: number }).size = 0;
      }, TypeError);
      assert.throws(() => (catalog.entries as unknown as unknown[]).pop(), TypeError);
      // a page is a fresh array: changing it does not change the catalog
      const page = await catalog.list();
      page.skills.length = 0;
      assert.equal((await catalog.list()).skills.length, 3);
      assert.equal(JSON.stringify(catalog.entries), before);
      assert.equal((await catalog.get(entry.uri)).frontmatter.name, 'git-workflow');
    });

    test('read returns the exact bytes with the MIME type and what was published', async (t) => {
      const catalog = await SkillCatalog.load(storageOf(kind, t, demoTree()), { onWarning: () => {} });
      const file = await catalog.read('skill://pdf-processing/scripts/fill_form.py');
      assert.equal(file.uri, 'skill://pdf-processing/scripts/fill_form.py');
      assert.equal(Buffer.from(file.bytes).toString(), 'print("fill")\n');
      assert.equal(file.mimeType, 'text/x-python');
      assert.deepEqual(file.published, { size: 14, digest: sha('print("fill")\n') });
      // another spelling of the same file is served under the published spelling
      const other = await catalog.read('skill://pdf-processing/templates/invoice%2Emd');
      assert.equal(other.uri, 'skill://pdf-processing/templates/invoice.md');
      const entry = await catalog.get('skill://git%2Dworkflow/SKILL.md');
      assert.equal(entry.uri, 'skill://git-workflow/SKILL.md');
    });

    test('listResources lists every SKILL.md with name, description, MIME type and size', async (t) => {
      const files = demoTree();
      const catalog = await SkillCatalog.load(storageOf(kind, t, files), { onWarning: () => {} });
      const listed = await catalog.listResources();
      assert.deepEqual(
        listed.map((r) => [r.uri, r.name, r.mimeType, r.size]),
        catalog.entries.map((e) => [e.uri, e.frontmatter.name, 'text/markdown', byteLength(files[e.uri.slice('skill://'.length)]!)]),
      );
      assert.equal(listed[1]!.description, 'The git-workflow skill.');
    });

    test('directory index: files and folders, sorted, no trailing slash; file URIs are not folders', async (t) => {
      const catalog = await SkillCatalog.load(storageOf(kind, t, demoTree()), { onWarning: () => {} });
      const root = await catalog.readDirectory('skill://pdf-processing');
      assert.equal(root.nextCursor, undefined);
      assert.deepEqual(root.resources, [
        { uri: 'skill://pdf-processing/SKILL.md', name: 'SKILL.md', mimeType: 'text/markdown', size: byteLength(skillMd('pdf-processing')) },
        { uri: 'skill://pdf-processing/scripts', name: 'scripts', mimeType: 'inode/directory' },
        { uri: 'skill://pdf-processing/templates', name: 'templates', mimeType: 'inode/directory' },
      ]);
      const sub = await catalog.readDirectory('skill://pdf-processing/scripts');
      assert.deepEqual(sub.resources, [{ uri: 'skill://pdf-processing/scripts/fill_form.py', name: 'fill_form.py', mimeType: 'text/x-python', size: 14 }]);
      const deep = await catalog.readDirectory('skill://acme/billing/refunds/templates');
      assert.deepEqual(
        deep.resources.map((c) => c.uri),
        ['skill://acme/billing/refunds/templates/approved.md'],
      );
      for (const c of [...root.resources, ...sub.resources]) assert.ok(!c.uri.endsWith('/'));

      const notDir = await rejectsWith(catalog.readDirectory('skill://pdf-processing/SKILL.md'), -32602, /not a directory/);
      assert.deepEqual(notDir.data, { uri: 'skill://pdf-processing/SKILL.md' });
      await rejectsWith(catalog.readDirectory('skill://pdf-processing/scripts/fill_form.py'), -32602, /not a directory/);
      await rejectsWith(catalog.readDirectory('skill://pdf-processing/'), -32602);
      await rejectsWith(catalog.readDirectory('skill://pdf-processing/nope'), -32602);
      await rejectsWith(catalog.readDirectory('skill://acme'), -32602, /No directory/);
      await rejectsWith(catalog.readDirectory('skill://nope'), -32602);
    });

    test('unknown URIs get -32602 with data {uri}', async (t) => {
      const catalog = await SkillCatalog.load(storageOf(kind, t, demoTree()), { onWarning: () => {} });
      const cases: [string, () => Promise<unknown>, string][] = [
        ['get unknown', () => catalog.get('skill://nope/SKILL.md'), 'skill://nope/SKILL.md'],
        [
          'get a supporting file',
          () => catalog.get('skill://git-workflow/references/commit-messages.md'),
          'skill://git-workflow/references/commit-messages.md',
        ],
        ['get a folder', () => catalog.get('skill://git-workflow'), 'skill://git-workflow'],
        ['get not a URI', () => catalog.get('not a uri'), 'not a uri'],
        ['get another scheme', () => catalog.get('file://git-workflow/SKILL.md'), 'file://git-workflow/SKILL.md'],
        ['read unknown', () => catalog.read('skill://git-workflow/nope.md'), 'skill://git-workflow/nope.md'],
        ['read a folder', () => catalog.read('skill://git-workflow/references'), 'skill://git-workflow/references'],
        ['read with ..', () => catalog.read('skill://git-workflow/../pdf-processing/SKILL.md'), 'skill://git-workflow/../pdf-processing/SKILL.md'],
        ['read with a query', () => catalog.read('skill://git-workflow/SKILL.md?x'), 'skill://git-workflow/SKILL.md?x'],
        ['directory unknown', () => catalog.readDirectory('skill://git-workflow/nope'), 'skill://git-workflow/nope'],
      ];
      for (const [what, call, uri] of cases) {
        const error = await rejectsWith(call(), -32602);
        assert.ok(error instanceof SkillNotFoundError, what);
        assert.deepEqual(error.data, { uri }, what);
      }
    });

    test('hidden files and folders (names starting with ".") are ignored without warnings', async (t) => {
      const files = {
        ...demoTree(),
        '.git/config': '[core]\n',
        '.secret-skill/SKILL.md': skillMd('secret-skill'),
        'git-workflow/.DS_Store': 'x',
        'git-workflow/.hidden/notes.md': 'hidden\n',
        'git-workflow/references/.draft.md': 'draft\n',
        'visible/.nested/SKILL.md': skillMd('nested'),
      };
      const w = warnings();
      const catalog = await SkillCatalog.load(storageOf(kind, t, files), { onWarning: w.onWarning });
      assert.deepEqual(w.list, []);
      assert.deepEqual(
        catalog.entries.map((e) => e.uri),
        ['skill://acme/billing/refunds/SKILL.md', 'skill://git-workflow/SKILL.md', 'skill://pdf-processing/SKILL.md'],
      );
      const all = catalog.entries.flatMap((e) => (e.resources as SkillResource[]).map((r) => r.uri));
      assert.ok(
        all.every((u) => !u.split('/').some((s) => s.startsWith('.'))),
        all.join('\n'),
      );
      const dir = await catalog.readDirectory('skill://git-workflow');
      assert.deepEqual(
        dir.resources.map((c) => c.name),
        ['SKILL.md', 'references'],
      );
      assert.deepEqual(
        (await catalog.readDirectory('skill://git-workflow/references')).resources.map((c) => c.name),
        ['commit-messages.md'],
      );
      await rejectsWith(catalog.read('skill://git-workflow/.DS_Store'), -32602);
      await rejectsWith(catalog.get('skill://.secret-skill/SKILL.md'), -32602);
      await rejectsWith(catalog.readDirectory('skill://git-workflow/.hidden'), -32602);
    });

    test('warnings name the path: bad frontmatter, name mismatch, invalid name, missing description, root SKILL.md', async (t) => {
      const files = {
        'SKILL.md': skillMd('root'),
        'good/SKILL.md': skillMd('good'),
        'broken/SKILL.md': '# no frontmatter here\n',
        'badyaml/SKILL.md': '---\nname: badyaml\ndescription: [oops\n---\n',
        'folder/SKILL.md': skillMd('other-name'),
        'Bad_Name/SKILL.md': skillMd('Bad_Name'),
        'nodesc/SKILL.md': '---\nname: nodesc\n---\n',
      };
      const w = warnings();
      const catalog = await SkillCatalog.load(storageOf(kind, t, files), { onWarning: w.onWarning });
      assert.deepEqual(
        catalog.entries.map((e) => e.uri),
        ['skill://good/SKILL.md'],
      );
      const at = (p: string) => w.list.filter((x) => x.path === p);
      assert.equal(at('SKILL.md')[0]?.code, 'root-skill');
      assert.match(at('SKILL.md')[0]!.message, /root/);
      assert.equal(at('broken/SKILL.md')[0]?.code, 'frontmatter');
      assert.equal(at('broken/SKILL.md')[0]?.uri, 'skill://broken/SKILL.md');
      assert.match(at('badyaml/SKILL.md')[0]!.message, /YAML/);
      assert.equal(at('folder/SKILL.md')[0]?.code, 'name-mismatch');
      assert.match(at('folder/SKILL.md')[0]!.message, /other-name.*folder/);
      assert.match(at('Bad_Name/SKILL.md')[0]!.message, /invalid/);
      assert.match(at('nodesc/SKILL.md')[0]!.message, /description/);
      assert.equal(w.list.length, 6, JSON.stringify(w.list, null, 1));
      assert.deepEqual(catalog.warnings, w.list);
      for (const x of w.list) assert.ok(x.path && x.message.length > 0);
    });

    test('limits: a skill over the file or byte limit is served with a warning, as the SDK v2 does; at the limit, no warning', async (t) => {
      const files = {
        'two/SKILL.md': skillMd('two'),
        'two/a.md': 'a',
        'three/SKILL.md': skillMd('three'),
        'three/a.md': 'a',
        'three/b.md': 'b',
      };
      const w = warnings();
      const catalog = await SkillCatalog.load(storageOf(kind, t, files), { limits: { files: 2 }, onWarning: w.onWarning });
      assert.deepEqual(
        catalog.entries.map((e) => e.uri),
        ['skill://three/SKILL.md', 'skill://two/SKILL.md'],
      );
      assert.equal((await catalog.read('skill://three/b.md')).uri, 'skill://three/b.md', 'its files are served too');
      assert.equal(w.list.length, 1);
      assert.equal(w.list[0]!.code, 'limit');
      assert.equal(w.list[0]!.path, 'three');
      assert.equal(w.list[0]!.uri, 'skill://three/SKILL.md');
      assert.match(w.list[0]!.message, /^served over the limit \(hosts may refuse it\): .*3 files.*limit is 2/);

      const tiny = warnings();
      const both = await SkillCatalog.load(storageOf(kind, t, files), { limits: { bytes: 10 }, onWarning: tiny.onWarning });
      assert.equal(both.entries.length, 2);
      assert.deepEqual(tiny.list.map((x) => [x.code, x.path]).sort(), [
        ['limit', 'three'],
        ['limit', 'two'],
      ]);
      const three = tiny.list.find((x) => x.path === 'three')!;
      // Human sizes in the message, with the largest files named; exact counts in fields.
      assert.match(
        three.message,
        /skill has \d+ B in 3 files; the limit is 10 B per skill\. The largest: three\/SKILL\.md \(\d+ B\), three\/a\.md \(1 B\), three\/b\.md \(1 B\)/,
      );
      assert.equal(three.files, 3);
      assert.equal(three.bytes, byteLength(files['three/SKILL.md']) + 2);
      assert.deepEqual(three.limit, { bytes: 10 });
      assert.deepEqual([w.list[0]!.files, w.list[0]!.limit], [3, { files: 2 }]);

      const exact = byteLength(files['two/SKILL.md']) + 1;
      const atLimit = warnings();
      const fits = await SkillCatalog.load(storageOf(kind, t, { 'two/SKILL.md': files['two/SKILL.md'], 'two/a.md': 'a' }), {
        limits: { bytes: exact },
        onWarning: atLimit.onWarning,
      });
      assert.equal(fits.entries.length, 1);
      assert.deepEqual(atLimit.list, []);
      const overBy1 = warnings();
      const over = await SkillCatalog.load(storageOf(kind, t, { 'two/SKILL.md': files['two/SKILL.md'], 'two/a.md': 'a' }), {
        limits: { bytes: exact - 1 },
        onWarning: overBy1.onWarning,
      });
      assert.equal(over.entries.length, 1);
      assert.deepEqual(
        overBy1.list.map((x) => x.code),
        ['limit'],
      );
      // Under strict, a skill over a limit fails the load.
      await assert.rejects(
        SkillCatalog.load(storageOf(kind, t, files), { strict: true, limits: { files: 2 }, onWarning: () => {} }),
        (error: unknown) =>
          error instanceof CatalogError && error.problems.length === 1 && error.problems[0]!.code === 'limit' && error.problems[0]!.path === 'three',
      );
      // Infinity turns a limit off.
      const unlimited = warnings();
      const all = await SkillCatalog.load(storageOf(kind, t, files), { limits: { files: Infinity, bytes: Infinity }, onWarning: unlimited.onWarning });
      assert.equal(all.entries.length, 2);
      assert.deepEqual(unlimited.list, []);
    });

    test('limits: the file-count warning names the fullest folder; the byte warning the largest files, in human sizes', async (t) => {
      const files: Record<string, string> = { 'many/SKILL.md': skillMd('many'), 'many/notes.md': 'n' };
      for (let i = 0; i < 4; i++) files[`many/data/f${i}.txt`] = 'x'.repeat(i * 700);
      const w = warnings();
      await SkillCatalog.load(storageOf(kind, t, files), { limits: { files: 3, bytes: 4000 }, onWarning: w.onWarning });
      const [count, size] = ['files', 'bytes'].map((limit) => w.list.find((x) => x.limit && limit in x.limit)!);
      assert.match(
        count!.message,
        /^served over the limit \(hosts may refuse it\): skill has 6 files \(nested folders included\); the limit is 3 files per skill\. The most are in many\/data \(4 files\)/,
      );
      const total = Object.values(files).reduce((n, text) => n + byteLength(text), 0);
      assert.deepEqual([count!.files, count!.bytes, count!.limit], [6, total, { files: 3 }]);
      assert.match(
        size!.message,
        /skill has 4\.\d KiB in 6 files; the limit is 3\.9 KiB per skill\. The largest: many\/data\/f3\.txt \(2\.1 KiB\), many\/data\/f2\.txt \(1\.4 KiB\), many\/data\/f1\.txt \(700 B\)\./,
      );
      assert.deepEqual([size!.files, size!.bytes, size!.limit], [6, total, { bytes: 4000 }]);
      assert.equal(w.list.length, 2);
    });

    test('a SKILL.md written in another case is warned about (skill-md-case), not left out in silence', async (t) => {
      const files = {
        'lower/skill.md': skillMd('lower'),
        'title/Skill.md': skillMd('title'),
        'upper/SKILL.MD': skillMd('upper'),
        'good/SKILL.md': skillMd('good'),
        // Inside a skill too: a folder meant as a nested skill.
        'good/inner/skill.md': skillMd('inner'),
        '.hidden/skill.md': skillMd('hidden'),
      };
      const w = warnings();
      const catalog = await SkillCatalog.load(storageOf(kind, t, files), { onWarning: w.onWarning });
      assert.deepEqual(
        catalog.entries.map((e) => e.uri),
        ['skill://good/SKILL.md'],
      );
      assert.deepEqual(w.list.map((x) => [x.code, x.path, x.message]).sort(), [
        ['skill-md-case', 'good/inner/skill.md', 'found skill.md; the file must be named SKILL.md exactly. Rename it, or this folder is not served as a skill'],
        ['skill-md-case', 'lower/skill.md', 'found skill.md; the file must be named SKILL.md exactly. Rename it, or this folder is not served as a skill'],
        ['skill-md-case', 'title/Skill.md', 'found Skill.md; the file must be named SKILL.md exactly. Rename it, or this folder is not served as a skill'],
        ['skill-md-case', 'upper/SKILL.MD', 'found SKILL.MD; the file must be named SKILL.md exactly. Rename it, or this folder is not served as a skill'],
      ]);
      // strict refuses it like any other skill that is left out.
      await assert.rejects(
        SkillCatalog.load(storageOf(kind, t, { 'lower/skill.md': skillMd('lower') }), { strict: true, onWarning: () => {} }),
        (error: unknown) => error instanceof CatalogError && error.problems.some((p) => p.code === 'skill-md-case' && p.path === 'lower/skill.md'),
      );
    });

    test('strict: one CatalogError lists every problem, and nothing is reported as a warning', async (t) => {
      const files = {
        'SKILL.md': skillMd('root'),
        'good/SKILL.md': skillMd('good'),
        'broken/SKILL.md': 'no frontmatter',
        'folder/SKILL.md': skillMd('other-name'),
        'nodesc/SKILL.md': '---\nname: nodesc\n---\n',
        'big/SKILL.md': skillMd('big'),
        'big/a.md': 'a',
        'big/b.md': 'b',
      };
      const w = warnings();
      let caught: unknown;
      try {
        await SkillCatalog.load(storageOf(kind, t, files), { strict: true, limits: { files: 2 }, onWarning: w.onWarning });
      } catch (error) {
        caught = error;
      }
      assert.ok(caught instanceof CatalogError, String(caught));
      const paths = caught.problems.map((p) => p.path).sort();
      assert.deepEqual(paths, ['SKILL.md', 'big', 'broken/SKILL.md', 'folder/SKILL.md', 'nodesc/SKILL.md']);
      for (const p of paths) assert.ok(caught.message.includes(`${p}:`), `message names ${p}`);
      assert.match(caught.message, /5 problems/);
      assert.deepEqual(w.list, []);

      const clean = await SkillCatalog.load(storageOf(kind, t, demoTree()), { strict: true });
      assert.equal(clean.entries.length, 3);
    });

    test('list pagination with pageSize 1, 2 and Infinity covers every entry once, in order', async (t) => {
      const files: Record<string, string> = {};
      for (const name of ['a', 'b', 'c', 'd', 'e']) files[`${name}/SKILL.md`] = skillMd(name);
      const storage = storageOf(kind, t, files);
      for (const [pageSize, pages] of [
        [1, 5],
        [2, 3],
        [Infinity, 1],
      ] as const) {
        const catalog = await SkillCatalog.load(storage, { pageSize });
        const seen: string[] = [];
        let cursor: string | undefined;
        let count = 0;
        do {
          const page = await catalog.list(cursor === undefined ? {} : { cursor });
          assert.ok(page.skills.length <= pageSize);
          seen.push(...page.skills.map((s) => s.uri));
          cursor = page.nextCursor;
          count++;
        } while (cursor !== undefined);
        assert.equal(count, pages, `pageSize ${pageSize}`);
        assert.deepEqual(
          seen,
          ['a', 'b', 'c', 'd', 'e'].map((n) => `skill://${n}/SKILL.md`),
        );
        // cursors are stable: asking again gives the same page
        const first = await catalog.list();
        if (first.nextCursor) assert.deepEqual(await catalog.list({ cursor: first.nextCursor }), await catalog.list({ cursor: first.nextCursor }));
      }
    });

    test('readDirectory pagination with pageSize 1, 2 and Infinity', async (t) => {
      const files: Record<string, string> = { 's/SKILL.md': skillMd('s') };
      for (const name of ['a.md', 'b.md', 'c.md']) files[`s/${name}`] = name;
      files['s/sub/x.md'] = 'x';
      const storage = storageOf(kind, t, files);
      for (const [pageSize, pages] of [
        [1, 5],
        [2, 3],
        [Infinity, 1],
      ] as const) {
        const catalog = await SkillCatalog.load(storage, { pageSize });
        const seen: string[] = [];
        let cursor: string | undefined;
        let count = 0;
        do {
          const page = await catalog.readDirectory('skill://s', cursor === undefined ? {} : { cursor });
          assert.ok(page.resources.length <= pageSize);
          seen.push(...page.resources.map((r) => r.name));
          cursor = page.nextCursor;
          count++;
        } while (cursor !== undefined);
        assert.equal(count, pages, `pageSize ${pageSize}`);
        assert.deepEqual(seen, ['SKILL.md', 'a.md', 'b.md', 'c.md', 'sub']);
      }
    });

    test('bogus cursors get -32602 from list and readDirectory', async (t) => {
      const catalog = await SkillCatalog.load(storageOf(kind, t, demoTree()), { pageSize: 1 });
      const valid = (await catalog.list()).nextCursor!;
      const bogus: unknown[] = [
        'bogus',
        '',
        valid + 'x',
        valid + '=',
        Buffer.from('zz:skill://a/SKILL.md').toString('base64url'),
        Buffer.from('a1:skill://a/SKILL.md').toString('base64') + '==',
        'A'.repeat(9000),
        '%%%',
        5,
        null,
        {},
      ];
      for (const cursor of bogus) {
        await rejectsWith(catalog.list({ cursor } as never), -32602);
        await rejectsWith(catalog.readDirectory('skill://pdf-processing', { cursor } as never), -32602);
      }
      assert.equal((await catalog.list({ cursor: valid })).skills.length, 1);
    });
  });
}

describe('SkillCatalog.load: cursor stability across reloads', () => {
  test('a cursor continues after the same URI even when skills are added or removed meanwhile', async () => {
    const storage = memoryStorage({ 'b/SKILL.md': skillMd('b'), 'd/SKILL.md': skillMd('d'), 'f/SKILL.md': skillMd('f') });
    const catalog = await SkillCatalog.load(storage, { pageSize: 1 });
    const first = await catalog.list();
    assert.deepEqual(
      first.skills.map((s) => s.uri),
      ['skill://b/SKILL.md'],
    );
    storage.write('a/SKILL.md', skillMd('a'));
    storage.write('c/SKILL.md', skillMd('c'));
    storage.remove('b');
    await catalog.reload();
    const second = await catalog.list({ cursor: first.nextCursor! });
    assert.deepEqual(
      second.skills.map((s) => s.uri),
      ['skill://c/SKILL.md'],
      'continues after b, though b is gone',
    );
    const third = await catalog.list({ cursor: second.nextCursor! });
    assert.deepEqual(
      third.skills.map((s) => s.uri),
      ['skill://d/SKILL.md'],
    );
  });
});

describe('SkillCatalog.load over fsStorage: what only a folder can hold', () => {
  test('an empty subfolder is a directory with no children', async (t) => {
    const storage = storageOf('fs', t, demoTree(), (root) => mkdirSync(path.join(root, 'git-workflow', 'empty')));
    const catalog = await SkillCatalog.load(storage, { onWarning: () => {} });
    const root = await catalog.readDirectory('skill://git-workflow');
    assert.deepEqual(
      root.resources.find((c) => c.name === 'empty'),
      { uri: 'skill://git-workflow/empty', name: 'empty', mimeType: 'inode/directory' },
    );
    assert.deepEqual(await catalog.readDirectory('skill://git-workflow/empty'), { resources: [] });
  });

  test('a symlink inside a skill skips the skill with a warning naming the link', async (t) => {
    const outside = tempDir();
    t.after(outside.remove);
    writeFileSync(path.join(outside.dir, 'secret.txt'), 'SECRET');
    const storage = storageOf('fs', t, demoTree(), (root) => {
      symlinkSync(path.join(outside.dir, 'secret.txt'), path.join(root, 'git-workflow', 'link.md'));
      symlinkSync(outside.dir, path.join(root, 'pdf-processing', 'linkdir'));
    });
    const w = warnings();
    const catalog = await SkillCatalog.load(storage, { onWarning: w.onWarning });
    assert.deepEqual(
      catalog.entries.map((e) => e.uri),
      ['skill://acme/billing/refunds/SKILL.md'],
    );
    const link = w.list.find((x) => x.path === 'git-workflow/link.md');
    assert.equal(link?.code, 'unsupported');
    assert.match(link!.message, /symlink/);
    assert.equal(w.list.find((x) => x.path === 'pdf-processing/linkdir')?.code, 'unsupported');
    await rejectsWith(catalog.read('skill://git-workflow/link.md'), -32602);
    await rejectsWith(catalog.get('skill://git-workflow/SKILL.md'), -32602);
  });

  test('a symlink outside any skill is ignored with a warning', async (t) => {
    const storage = storageOf('fs', t, demoTree(), (root) => symlinkSync(path.join(root, 'git-workflow'), path.join(root, 'alias')));
    const w = warnings();
    const catalog = await SkillCatalog.load(storage, { onWarning: w.onWarning });
    assert.equal(catalog.entries.length, 3);
    assert.deepEqual(
      w.list.map((x) => [x.code, x.path]),
      [['unsupported', 'alias']],
    );
  });

  test('a file name no URI can carry (a backslash) skips its skill with a warning naming the file', async (t) => {
    const storage = storageOf('fs', t, demoTree(), (root) => writeFileSync(path.join(root, 'git-workflow', 'a\\b.md'), 'x'));
    const w = warnings();
    const catalog = await SkillCatalog.load(storage, { onWarning: w.onWarning });
    assert.deepEqual(
      catalog.entries.map((e) => e.uri),
      ['skill://acme/billing/refunds/SKILL.md', 'skill://pdf-processing/SKILL.md'],
    );
    assert.equal(w.list.length, 1);
    assert.equal(w.list[0]!.code, 'bad-name');
    assert.equal(w.list[0]!.path, 'git-workflow/a\\b.md');
    assert.match(w.list[0]!.message, /backslash/);
  });

  test('a file name that is not valid UTF-8 skips its skill with a warning instead of failing the load', async (t) => {
    const storage = storageOf('fs', t, demoTree(), (root) => {
      writeFileSync(Buffer.concat([Buffer.from(path.join(root, 'git-workflow') + path.sep), Buffer.from([0x66, 0xff, 0x2e, 0x6d, 0x64])]), 'x');
    });
    const w = warnings();
    const catalog = await SkillCatalog.load(storage, { onWarning: w.onWarning });
    assert.deepEqual(
      catalog.entries.map((e) => e.uri),
      ['skill://acme/billing/refunds/SKILL.md', 'skill://pdf-processing/SKILL.md'],
    );
    assert.equal(w.list.length, 1);
    assert.ok(w.list[0]!.path?.startsWith('git-workflow/'), JSON.stringify(w.list));
  });

  test('strict over a folder lists symlinks and bad names together with content problems', async (t) => {
    const storage = storageOf('fs', t, { ...demoTree(), 'broken/SKILL.md': 'nope' }, (root) => {
      symlinkSync(path.join(root, 'git-workflow', 'SKILL.md'), path.join(root, 'git-workflow', 'link.md'));
      writeFileSync(path.join(root, 'pdf-processing', 'a\\b.md'), 'x');
    });
    await assert.rejects(SkillCatalog.load(storage, { strict: true }), (error: unknown) => {
      assert.ok(error instanceof CatalogError);
      assert.deepEqual(error.problems.map((p) => p.path).sort(), ['broken/SKILL.md', 'git-workflow/link.md', 'pdf-processing/a\\b.md']);
      return true;
    });
  });
});

describe('SkillCatalog options are checked before the storage is touched', () => {
  const bad: [string, CatalogOptions, RegExp][] = [
    ['pageSize 0', { pageSize: 0 }, /pageSize/],
    ['pageSize -1', { pageSize: -1 }, /pageSize/],
    ['pageSize 1.5', { pageSize: 1.5 }, /pageSize/],
    ['pageSize "x"', { pageSize: 'x' as never }, /pageSize/],
    ['pageSize NaN', { pageSize: NaN }, /pageSize/],
    ['pageSize -Infinity', { pageSize: -Infinity }, /pageSize/],
    ['cacheHint.ttlMs -1', { cacheHint: { ttlMs: -1 } }, /ttlMs/],
    ['cacheHint.ttlMs 1.5', { cacheHint: { ttlMs: 1.5 } }, /ttlMs/],
    ['cacheHint.cacheScope "x"', { cacheHint: { cacheScope: 'x' as never } }, /cacheScope/],
    ['prefix ..', { prefix: '..' }, /prefix/],
    ['prefix a/../b', { prefix: 'a/../b' }, /prefix/],
    ['prefix a//b', { prefix: 'a//b' }, /prefix/],
    ['prefix .hidden', { prefix: '.hidden' }, /prefix/],
    ['prefix with a backslash', { prefix: 'a\\b' }, /prefix/],
    ['limits.files 0', { limits: { files: 0 } }, /limits\.files/],
    ['limits.bytes -1', { limits: { bytes: -1 } }, /limits\.bytes/],
    ['limits.files -Infinity', { limits: { files: -Infinity } }, /limits\.files/],
    ['limits.bytes NaN', { limits: { bytes: NaN } }, /limits\.bytes/],
    ['baseUri not a URI', { baseUri: 'acme/skills' }, /baseUri.*not a base URI/],
    ['baseUri with a query', { baseUri: 'github://acme/skills?x=1' }, /baseUri.*query or fragment/],
    ['baseUri with a fragment', { baseUri: 'github://acme/skills/#top' }, /baseUri.*query or fragment/],
    ['baseUri with ..', { baseUri: 'github://acme/../skills/' }, /baseUri/],
    ['baseUri not canonical', { baseUri: 'GitHub://acme/sk%69lls/' }, /baseUri.*canonical form; write it as "github:\/\/acme\/skills\/"/],
    ['baseUri with an empty authority', { baseUri: 'file:///srv/skills/' }, /baseUri.*empty authority/],
    ['baseUri not a string', { baseUri: 42 as never }, /baseUri.*must be a string/],
    ['concurrency 0', { concurrency: 0 }, /concurrency/],
    ['onWarning not a function', { onWarning: 'log' as never }, /onWarning/],
  ];
  for (const [what, options, option] of bad) {
    // A wrong type is a TypeError (invalid-type), a value out of range a RangeError (invalid-value).
    const wrongType = what === 'pageSize "x"' || what === 'onWarning not a function' || what === 'baseUri not a string';
    test(`${what} → ${wrongType ? 'TypeError' : 'RangeError'} naming the option`, async () => {
      const { files, state } = instrumented(memoryStorage(demoTree()));
      await assert.rejects(SkillCatalog.load(files, options), (error: unknown) => {
        assert.ok(error instanceof OptionError, String(error));
        assert.ok(wrongType ? error instanceof TypeError : error instanceof RangeError, String(error));
        assert.equal(error.code, wrongType ? 'invalid-type' : 'invalid-value');
        assert.match(error.message, /^skillmount: /);
        assert.match(error.message, option);
        return true;
      });
      assert.equal(state.listCalls, 0);
    });
  }

  test('a storage without list/read is a TypeError', async () => {
    await assert.rejects(SkillCatalog.load({} as never), TypeError);
    await assert.rejects(SkillCatalog.load(undefined as never), TypeError);
  });

  test('cacheHint is kept; the default caches nothing and shares nothing', async () => {
    const storage = memoryStorage(demoTree());
    assert.deepEqual((await SkillCatalog.load(storage)).cacheHint(), { ttlMs: 0, cacheScope: 'private' });
    assert.deepEqual((await SkillCatalog.load(storage, { cacheHint: { ttlMs: 60000, cacheScope: 'public' } })).cacheHint(), {
      ttlMs: 60000,
      cacheScope: 'public',
    });
  });
});

describe('SkillCatalog.load: storage failures', () => {
  test('a failing listing or read rejects with a StorageError naming the path', async () => {
    const listing = instrumented(memoryStorage(demoTree()));
    listing.state.failList = true;
    await assert.rejects(SkillCatalog.load(listing.files), (error: Error & { path?: string }) => {
      assert.equal(error.name, 'StorageError');
      assert.equal(error.path, '');
      assert.match(error.message, /storage is down/);
      return true;
    });
    const reading = instrumented(memoryStorage(demoTree()));
    reading.state.failRead = true;
    await assert.rejects(SkillCatalog.load(reading.files), (error: Error & { path?: string }) => {
      assert.equal(error.name, 'StorageError');
      assert.ok(error.path && Object.keys(demoTree()).includes(error.path), error.path);
      return true;
    });
  });

  test('a read failing after load gives -32603 and a warning naming the file', async () => {
    const { files, state } = instrumented(memoryStorage(demoTree()));
    const w = warnings();
    const catalog = await SkillCatalog.load(files, { onWarning: w.onWarning });
    state.failRead = true;
    await rejectsWith(catalog.read('skill://git-workflow/SKILL.md'), -32603);
    assert.equal(w.list.length, 1);
    assert.equal(w.list[0]!.code, 'read-failed');
    assert.equal(w.list[0]!.path, 'git-workflow/SKILL.md');
    assert.match(w.list[0]!.message, /storage is down/);
  });
});

describe('SkillCatalog.load: a storage with no skills at all', () => {
  test('a folder with no SKILL.md anywhere warns once with code no-skills, naming the folder and the layout expected', async (t) => {
    const { dir, remove } = tempDir();
    t.after(remove);
    // Only notes, and a SKILL.md in a hidden folder, which is never served.
    writeTree(dir, { 'notes/readme.md': '# not a skill\n', '.git/SKILL.md': skillMd('hidden') });
    const seen = warnings();
    const catalog = await SkillCatalog.load(fsStorage(dir), { onWarning: seen.onWarning });
    assert.deepEqual(catalog.entries, []);
    assert.deepEqual(
      seen.list.map((w) => w.code),
      ['no-skills'],
    );
    const [warning] = seen.list;
    assert.ok(warning!.message.includes(path.resolve(dir)), `names the folder: ${warning!.message}`);
    assert.match(warning!.message, /<folder>\/<skill-name>\/SKILL\.md/);
    assert.deepEqual(catalog.warnings, seen.list);
  });

  test('an unlabelled storage is named "the storage"; strict does not fail on it; a storage with a skill, or a root SKILL.md, gets no such warning', async () => {
    const seen = warnings();
    await SkillCatalog.load(memoryStorage({}), { onWarning: seen.onWarning, strict: true });
    assert.deepEqual(
      seen.list.map((w) => w.code),
      ['no-skills'],
    );
    assert.match(seen.list[0]!.message, /^no skills found in the storage: /);

    const withSkill = warnings();
    await SkillCatalog.load(memoryStorage({ 'greet/SKILL.md': skillMd('greet') }), { onWarning: withSkill.onWarning });
    assert.deepEqual(withSkill.list, []);

    const atRoot = warnings();
    await SkillCatalog.load(memoryStorage({ 'SKILL.md': skillMd('greet') }), { onWarning: atRoot.onWarning });
    assert.deepEqual(
      atRoot.list.map((w) => w.code),
      ['root-skill'],
      'the root SKILL.md has its own, more precise warning',
    );
  });
});
