import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { OptionError, StorageError, type SkillFileEntry } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import { sleep } from '../support/wait.js';
import { tempTree } from '../support/trees.js';

function storageError(fn: () => Promise<unknown>, expectedPath: string): Promise<StorageError> {
  return fn().then(
    () => assert.fail(`expected a StorageError for ${JSON.stringify(expectedPath)}`),
    (error: unknown) => {
      assert.ok(error instanceof StorageError, `${JSON.stringify(expectedPath)}: ${String(error)}`);
      assert.equal(error.path, expectedPath);
      assert.ok(
        error.message.includes(`"${expectedPath}"`) || (expectedPath === '' && error.message.includes('(root)')),
        `message names the path: ${error.message}`,
      );
      return error;
    },
  );
}

const has = (entries: SkillFileEntry[], name: string) => entries.find((e) => e.name === name);

describe('fsStorage: options', () => {
  test('the root must be a non-empty string; the root is kept absolute', (t) => {
    assert.throws(() => fsStorage(''), TypeError);
    assert.throws(() => fsStorage(undefined as never), TypeError);
    const dir = tempTree(t);
    assert.equal(fsStorage(dir).root, dir);
    assert.equal(fsStorage(path.relative(process.cwd(), dir)).root, dir);
  });

  test('bad options are OptionErrors naming the package and the option', (t) => {
    const dir = tempTree(t);
    const refused = (options: object, option: string, code: string, type: typeof TypeError | typeof RangeError) =>
      assert.throws(
        () => fsStorage(dir, options as never),
        (error: unknown) =>
          error instanceof OptionError &&
          error instanceof type &&
          error.code === code &&
          error.option === option &&
          error.message.startsWith(`@skillmount/storage-fs: option "${option}" `),
        JSON.stringify(options),
      );
    refused({ debounceMs: -1 }, 'debounceMs', 'invalid-value', RangeError);
    refused({ debounceMs: '5' }, 'debounceMs', 'invalid-type', TypeError);
    refused({ workerThreads: 'yes' }, 'workerThreads', 'invalid-type', TypeError);
    refused({ fullWalkMs: -1 }, 'fullWalkMs', 'invalid-value', RangeError);
    refused({ fullWalkMs: Number.NaN }, 'fullWalkMs', 'invalid-value', RangeError);
    refused({ fullWalkMs: 2 ** 31 }, 'fullWalkMs', 'invalid-value', RangeError);
    refused({ fullWalkMs: '60000' }, 'fullWalkMs', 'invalid-type', TypeError);
    refused({ maxWaitMs: -1 }, 'maxWaitMs', 'invalid-value', RangeError);
    refused({ maxWaitMs: 2 ** 31 }, 'maxWaitMs', 'invalid-value', RangeError);
    refused({ maxWaitMs: '1000' }, 'maxWaitMs', 'invalid-type', TypeError);
    for (const fullWalkMs of [0, 1000, Infinity]) assert.doesNotThrow(() => fsStorage('.', { fullWalkMs }));
    for (const maxWaitMs of [0, 1000, Infinity]) assert.doesNotThrow(() => fsStorage('.', { maxWaitMs }));
  });
});

describe('fsStorage.list', () => {
  test('reports files, folders, and symlinks and special files as unsupported', async (t) => {
    const dir = tempTree(t, { 'a.md': 'a', 'sub/b.md': 'b' });
    symlinkSync(path.join(dir, 'a.md'), path.join(dir, 'link-to-file'));
    symlinkSync(path.join(dir, 'sub'), path.join(dir, 'link-to-dir'));
    symlinkSync(path.join(dir, 'missing'), path.join(dir, 'dangling'));
    const socket = createServer();
    await new Promise<void>((resolve) => socket.listen(path.join(dir, 'sock'), resolve));
    t.after(() => new Promise<void>((resolve) => socket.close(() => resolve())));
    let fifo = false;
    try {
      execFileSync('mkfifo', [path.join(dir, 'fifo')]);
      fifo = true;
    } catch {
      // no mkfifo on this system: the socket above is the special file under test
    }

    const entries = await fsStorage(dir).list('');
    assert.equal(has(entries, 'a.md')?.kind, 'file');
    assert.equal(has(entries, 'sub')?.kind, 'directory');
    assert.equal(has(entries, 'link-to-file')?.kind, 'unsupported');
    assert.equal(has(entries, 'link-to-dir')?.kind, 'unsupported');
    assert.equal(has(entries, 'dangling')?.kind, 'unsupported');
    assert.equal(has(entries, 'sock')?.kind, 'unsupported');
    if (fifo) assert.equal(has(entries, 'fifo')?.kind, 'unsupported');
    assert.equal(entries.length, fifo ? 7 : 6);
    for (const e of entries) assert.ok(e.kind === 'file' ? typeof e.token === 'string' : e.token === undefined, e.name);

    assert.deepEqual(await fsStorage(dir).list('sub'), [{ name: 'b.md', kind: 'file', token: (await fsStorage(dir).list('sub'))[0]!.token }]);
  });

  test('hidden names are listed as they are (the catalog decides to ignore them)', async (t) => {
    const dir = tempTree(t, { '.hidden': 'h', '.git/config': 'c' });
    const entries = await fsStorage(dir).list('');
    assert.deepEqual(entries.map((e) => [e.name, e.kind]).sort(), [
      ['.git', 'directory'],
      ['.hidden', 'file'],
    ]);
  });

  test('change tokens change when content changes, also at the same size', async (t) => {
    const dir = tempTree(t, { 'a.md': 'one' });
    const storage = fsStorage(dir);
    const token = async () => has(await storage.list(''), 'a.md')!.token;
    const first = await token();
    assert.equal(await token(), first, 'stable while nothing changes');
    writeFileSync(path.join(dir, 'a.md'), 'three');
    const second = await token();
    assert.notEqual(second, first, 'different size');
    await sleep(5);
    writeFileSync(path.join(dir, 'a.md'), 'THREE');
    assert.notEqual(await token(), second, 'same size, new content');
  });

  test('a missing folder, or a file, cannot be listed: StorageError with the path and the cause', async (t) => {
    const dir = tempTree(t, { 'a.md': 'a' });
    const missing = await storageError(() => fsStorage(dir).list('nope'), 'nope');
    assert.equal((missing.cause as NodeJS.ErrnoException).code, 'ENOENT');
    const notDir = await storageError(() => fsStorage(dir).list('a.md'), 'a.md');
    assert.equal((notDir.cause as NodeJS.ErrnoException).code, 'ENOTDIR');
    const rootGone = await storageError(() => fsStorage(path.join(dir, 'gone')).list(''), '');
    assert.match(rootGone.message, /gone/);
  });

  test('a name that is not valid UTF-8 is listed as unsupported instead of failing the listing', async (t) => {
    const dir = tempTree(t, { 'ok.md': 'ok' });
    writeFileSync(Buffer.concat([Buffer.from(dir + path.sep), Buffer.from([0x66, 0xff, 0x2e, 0x6d, 0x64])]), 'x');
    const entries = await fsStorage(dir).list('');
    assert.equal(has(entries, 'ok.md')?.kind, 'file');
    assert.equal(entries.length, 2);
    assert.equal(entries.find((e) => e.name !== 'ok.md')?.kind, 'unsupported');
  });

  test('a folder reached through a symlinked parent is not listed', async (t) => {
    const outside = tempTree(t, { 'secret.txt': 'SECRET' });
    const dir = tempTree(t, { 'a.md': 'a' });
    symlinkSync(outside, path.join(dir, 'linkdir'));
    await storageError(() => fsStorage(dir).list('linkdir'), 'linkdir');
  });
});

describe('fsStorage.read', () => {
  test('returns the exact bytes of a regular file', async (t) => {
    const dir = tempTree(t);
    const bytes = new Uint8Array([0, 1, 2, 255, 0xef, 0xbb, 0xbf]);
    mkdirSync(path.join(dir, 'sub'));
    writeFileSync(path.join(dir, 'sub', 'bin'), bytes);
    const read = await fsStorage(dir).read('sub/bin');
    assert.ok(read instanceof Uint8Array);
    assert.deepEqual([...read], [...bytes]);
  });

  test('refuses a symlink (O_NOFOLLOW), with ELOOP as the cause', async (t) => {
    const outside = tempTree(t, { 'secret.txt': 'SECRET' });
    const dir = tempTree(t, { 'a.md': 'a' });
    symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, 'link.md'));
    const error = await storageError(() => fsStorage(dir).read('link.md'), 'link.md');
    assert.equal((error.cause as NodeJS.ErrnoException).code, 'ELOOP');
    assert.match(error.message, /symlink/);
  });

  test('refuses a file reached through a symlinked folder', async (t) => {
    const outside = tempTree(t, { 'secret.txt': 'SECRET' });
    const dir = tempTree(t, { 'skill/SKILL.md': 'x' });
    symlinkSync(outside, path.join(dir, 'skill', 'linkdir'));
    await storageError(() => fsStorage(dir).read('skill/linkdir/secret.txt'), 'skill/linkdir/secret.txt');
  });

  test('refuses a directory, a socket and a FIFO without blocking', async (t) => {
    const dir = tempTree(t, { 'sub/a.md': 'a' });
    const error = await storageError(() => fsStorage(dir).read('sub'), 'sub');
    assert.match(error.message, /not a regular file|directory/);
    await storageError(() => fsStorage(dir).read(''), '');
    const socket = createServer();
    await new Promise<void>((resolve) => socket.listen(path.join(dir, 'sock'), resolve));
    t.after(() => new Promise<void>((resolve) => socket.close(() => resolve())));
    await storageError(() => fsStorage(dir).read('sock'), 'sock');
  });

  test('any path with "..", ".", an empty segment, a backslash or NUL throws a StorageError naming the path', async (t) => {
    const dir = tempTree(t, { 'a/b.md': 'b' });
    const storage = fsStorage(dir);
    const bad = ['..', '../x', 'a/../a/b.md', '.', './a/b.md', 'a/./b.md', 'a//b.md', '/a/b.md', 'a/', 'a\\b.md', 'a/b.md\0', '\0', '..\\x'];
    for (const p of bad) {
      await storageError(() => storage.read(p), p);
      await storageError(() => storage.list(p), p);
    }
  });

  test('a missing file → StorageError with the path and the ENOENT cause', async (t) => {
    const dir = tempTree(t, { 'a/b.md': 'b' });
    const error = await storageError(() => fsStorage(dir).read('a/missing.md'), 'a/missing.md');
    assert.equal((error.cause as NodeJS.ErrnoException).code, 'ENOENT');
    assert.match(error.message, /no such file/);
    assert.ok(error.message.includes(path.join(dir, 'a', 'missing.md')), 'message gives the full path too');
  });
});

describe('fsStorage.watch', () => {
  test('several quick writes give one debounced call; the returned function stops it', async (t) => {
    const dir = tempTree(t, { 'skill/SKILL.md': 'x' });
    const storage = fsStorage(dir, { debounceMs: 150 });
    let calls = 0;
    const stop = storage.watch!(() => calls++);
    t.after(stop);
    await sleep(50); // let the watcher settle
    for (let i = 0; i < 5; i++) {
      writeFileSync(path.join(dir, 'skill', 'SKILL.md'), `version ${i}`);
      writeFileSync(path.join(dir, 'skill', `new-${i}.md`), 'n');
    }
    for (let i = 0; i < 200 && calls === 0; i++) await sleep(10);
    await sleep(300);
    assert.equal(calls, 1);

    writeFileSync(path.join(dir, 'skill', 'deep.md'), 'again');
    for (let i = 0; i < 200 && calls === 1; i++) await sleep(10);
    assert.equal(calls, 2, 'a later change is a new call');

    stop();
    writeFileSync(path.join(dir, 'skill', 'SKILL.md'), 'after stop');
    await sleep(400);
    assert.equal(calls, 2, 'no call after stop');
  });

  test('stopping right after a change cancels the pending call', async (t) => {
    const dir = tempTree(t, { 'a.md': 'x' });
    let calls = 0;
    const stop = fsStorage(dir, { debounceMs: 300 }).watch!(() => calls++);
    await sleep(30);
    writeFileSync(path.join(dir, 'a.md'), 'y');
    await sleep(30);
    stop();
    await sleep(450);
    assert.equal(calls, 0);
  });

  test('watching a missing folder throws a StorageError', async (t) => {
    const dir = tempTree(t);
    assert.throws(() => fsStorage(path.join(dir, 'gone')).watch!(() => {}), StorageError);
  });
});
