/**
 * Special files and giant files swapped in for listed files, for real: a FIFO made with `mkfifo`
 * (opening one for reading waits for a writer unless it is non-blocking, and a thread of the pool
 * waits with it), and a 200 MiB sparse file made with `truncate`.
 */
import { describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { SkillCatalog, StorageError, type SkillWarning } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import { skillMd } from '../support/skill-md.js';
import { within } from '../support/wait.js';
import { tempTree } from '../support/trees.js';

const repo = path.resolve(import.meta.dirname, '../..');
// Generous for a loaded machine; a blocked open never settles at all.
const PROMPT_MS = 5_000;

const folder = (t: TestContext) =>
  tempTree(t, { 'demo/SKILL.md': skillMd('demo'), 'demo/notes.md': 'notes\n', 'demo/other.md': 'other\n' }, 'skillmount-fs-special-');

const mkfifo = (file: string) => execFileSync('mkfifo', [file]);

describe('a FIFO swapped in for a listed file', () => {
  test('every read of it fails at once with a StorageError naming the path; a normal read right after answers', async (t) => {
    const dir = folder(t);
    const storage = fsStorage(dir);
    const catalog = await SkillCatalog.load(storage, { onWarning() {}, cacheBytes: 0 });
    t.after(() => catalog.close());
    rmSync(path.join(dir, 'demo/notes.md'));
    mkfifo(path.join(dir, 'demo/notes.md'));

    // More than the thread pool has threads (4 by default): each blocked open would hold one for good.
    const reads = Array.from({ length: 8 }, () =>
      storage.read('demo/notes.md').then(
        () => assert.fail('a FIFO was read'),
        (error: unknown) => error,
      ),
    );
    for (const error of await within(Promise.all(reads), PROMPT_MS, 'reads of a FIFO')) {
      assert.ok(error instanceof StorageError, String(error));
      assert.equal(error.path, 'demo/notes.md');
      assert.ok(error.message.includes(path.join(dir, 'demo/notes.md')), error.message);
      assert.match(error.message, /not a regular file/);
    }
    await within(assert.rejects(catalog.read('skill://demo/notes.md')), PROMPT_MS, 'a catalog read of a FIFO');
    const normal = await within(storage.read('demo/other.md'), PROMPT_MS, 'a normal read after the FIFO reads');
    assert.equal(Buffer.from(normal).toString(), 'other\n');
    assert.equal(Buffer.from((await within(catalog.read('skill://demo/other.md'), PROMPT_MS, 'a catalog read')).bytes).toString(), 'other\n');
  });

  test('a process that read it many times still ends by itself', async (t) => {
    const dir = folder(t);
    mkfifo(path.join(dir, 'demo/fifo.md'));
    const code = `
      import { fsStorage } from '@skillmount/storage-fs';
      const storage = fsStorage(${JSON.stringify(dir)});
      const results = await Promise.allSettled(Array.from({ length: 8 }, () => storage.read('demo/fifo.md')));
      const normal = Buffer.from(await storage.read('demo/other.md')).toString();
      console.log(JSON.stringify({ refused: results.filter((r) => r.status === 'rejected').length, normal }));`;
    const out = await new Promise<string>((resolve, reject) => {
      // No explicit exit: the process must end on its own, with no thread left waiting on the FIFO.
      execFile(process.execPath, ['--input-type=module', '-e', code], { cwd: repo, timeout: 30_000, killSignal: 'SIGKILL' }, (error, stdout) =>
        error ? reject(new Error(`the process did not end by itself: ${error.message}`)) : resolve(stdout),
      );
    });
    assert.deepEqual(JSON.parse(out), { refused: 8, normal: 'other\n' });
  });
});

describe('a FIFO present when the folder is listed', () => {
  for (const mode of [
    { name: 'worker threads', options: {} },
    { name: 'calling thread', options: { workerThreads: false } },
  ] as const) {
    test(`is listed as unsupported, not opened, and its skill skipped with a warning naming it (${mode.name})`, async (t) => {
      const dir = folder(t);
      mkfifo(path.join(dir, 'demo/pipe.md'));
      const storage = fsStorage(dir, mode.options);
      const listing = await within(storage.listAll(), PROMPT_MS, 'a listing with a FIFO');
      assert.equal(listing.find((i) => i.path === 'demo/pipe.md')?.kind, 'unsupported');
      const warned: SkillWarning[] = [];
      const catalog = await within(SkillCatalog.load(storage, { onWarning: (w) => warned.push(w) }), PROMPT_MS, 'a load with a FIFO');
      catalog.close();
      assert.equal(catalog.entries.length, 0);
      assert.deepEqual(
        warned.filter((w) => w.path === 'demo/pipe.md').map((w) => w.code),
        ['unsupported'],
      );
    });
  }
});

describe('a listed file replaced by a much larger one', () => {
  test('read with maxBytes refuses it with the path, the limit and the size, without reading it', async (t) => {
    const dir = folder(t);
    const storage = fsStorage(dir);
    const listed = (await storage.listAll()).find((i) => i.path === 'demo/notes.md')!;
    assert.equal(listed.size, 6);
    // 200 MiB, sparse: cheap to make, costly to read whole.
    const giant = path.join(dir, 'giant.tmp');
    execFileSync('truncate', ['-s', '200M', giant]);
    renameSync(giant, path.join(dir, 'demo/notes.md'));

    const rss = process.memoryUsage().rss;
    const started = performance.now();
    const error = await storage.read('demo/notes.md', { maxBytes: listed.size }).then(
      () => assert.fail('the giant file was returned'),
      (e: unknown) => e,
    );
    const elapsed = performance.now() - started;
    assert.ok(error instanceof StorageError, String(error));
    assert.equal(error.path, 'demo/notes.md');
    assert.ok(error.message.includes(String(200 * 2 ** 20)), `the size seen: ${error.message}`);
    assert.match(error.message, /larger than the 6 bytes/);
    assert.ok(process.memoryUsage().rss - rss < 64 * 2 ** 20, 'the file was not read into memory');
    // Reading 200 MiB takes seconds on a loaded machine; a stat does not.
    assert.ok(elapsed < 2_000, `refused in ${elapsed.toFixed(0)} ms`);

    // A file within the limit reads as usual; the limit is checked.
    assert.equal(Buffer.from(await storage.read('demo/other.md', { maxBytes: 6 })).toString(), 'other\n');
    await assert.rejects(
      storage.read('demo/other.md', { maxBytes: 5 }),
      (e: unknown) => e instanceof StorageError && /larger than the 5 bytes/.test(e.message),
    );
    await assert.rejects(storage.read('demo/other.md', { maxBytes: -1 }), RangeError);
  });
});
