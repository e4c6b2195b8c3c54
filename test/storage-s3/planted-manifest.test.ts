/**
 * A planted manifest: anyone who can write the prefix (a bucket writer, a tenant on its own
 * prefix) puts a large, valid-looking `.skillmount/manifest.json` there. It must not freeze the
 * serving process for other clients, hold its memory, or cost a full parse again on each rewrite:
 * it is parsed on a thread of its own, refused past the entry bound before any map is built,
 * and the skills are served from the listing as without a manifest.
 */
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { describe, test } from 'node:test';
import type { Worker } from 'node:worker_threads';
import { build } from 'esbuild';
import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { createSkillsEndpoint, SkillCatalog, type StorageError } from '@skillmount/core';
import { s3Storage, type S3StorageOptions } from '@skillmount/storage-s3';
import { connectClient } from '../support/client.js';
import type { S3TestServer } from '../support/s3-server.js';
import { readJsonBody } from '../core/helpers.js';
import { listenHttp } from '../support/apps.js';
import { countRequests, freshPrefix, ownClientOptions, s3ForFile, upload } from './helpers.js';
import { numberedSkills } from '../support/trees.js';

const MANIFEST = '.skillmount/manifest.json';
const MiB = 1024 * 1024;
/** The most entries a manifest may hold (MAX_MANIFEST_ENTRIES in the package). */
const MAX_ENTRIES = 100_000;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Heap and buffers in use after a full collection: what the process holds on to. */
function held(): { heap: number; buffers: number } {
  gc();
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return { heap: heapUsed, buffers: arrayBuffers };
}

const md5 = (s: string) => createHash('md5').update(s).digest('hex');
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** A valid-looking manifest: every entry well formed (quoted ETag, size, digest), of about `bytes` bytes or `entries` entries. */
function plantedManifest(limit: { bytes?: number; entries?: number }, salt = ''): Uint8Array {
  const parts: string[] = [];
  let size = 22;
  for (let i = 0; (limit.entries === undefined || i < limit.entries) && (limit.bytes === undefined || size < limit.bytes); i++) {
    const path = `group-${i % 20}/skill-${String(i >> 4).padStart(6, '0')}/references/file-${String(i & 15).padStart(2, '0')}.md`;
    const part = `"${path}":{"etag":"\\"${md5(salt + i)}\\"","size":${4096 + (i % 100)},"sha256":"sha256:${sha256(salt + i)}"}`;
    parts.push(part);
    size += part.length + 1;
  }
  return new TextEncoder().encode(`{"version":1,"files":{${parts.join(',')}}}`);
}

let server: S3TestServer;
let bucket: string;
let admin: S3Client;

s3ForFile((s3) => {
  ({ server, bucket, client: admin } = s3);
});

/** Sample the process's RSS every few milliseconds (and its high-water mark from the kernel) until stopped. */
function rssPeak() {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  return () => {
    clearInterval(timer);
    return Math.max(peak, process.memoryUsage().rss);
  };
}

/** Another client: skills/list over and over through the endpoint until `done` settles; its slowest answer. */
async function listWhile(call: (method: string, params?: unknown) => Promise<Record<string, any>>, done: Promise<unknown>) {
  let finished = false;
  void done.finally(() => {
    finished = true;
  });
  let worst = 0;
  let calls = 0;
  while (!finished) {
    const start = performance.now();
    const page = await call('skills/list', {}).catch((error: Error & { cause?: { code?: string; message?: string } }) => {
      // fetch's own message ("fetch failed") says nothing of why: its cause does.
      const why = error.cause ? ` (${error.cause.code ?? ''} ${error.cause.message ?? ''})` : '';
      throw new Error(`another client's skills/list failed after ${calls} calls: ${error.message}${why}`, { cause: error });
    });
    worst = Math.max(worst, performance.now() - start);
    calls++;
    assert.equal(page.skills.length, 4, 'every skill listed while the manifest is read');
  }
  await done;
  return { worst: Math.round(worst), calls };
}

/** The manifest's body, from `client`'s GETs, held back until `until()` settles: a slow bucket. */
function holdManifestBody(client: S3Client, until: () => Promise<unknown>) {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      const key = (args.input as { Key?: string }).Key ?? '';
      const output = result.output as { Body?: AsyncIterable<Uint8Array> };
      const body = output.Body;
      if ((context as { commandName?: string }).commandName === 'GetObjectCommand' && key.endsWith(MANIFEST) && body) {
        output.Body = Readable.from(
          (async function* () {
            await until();
            yield* body;
          })(),
        );
      }
      return result;
    },
    { name: 'holdManifestBody' },
  );
}

/**
 * A server built into one file, as by a bundler: prints its skills, the storage's errors and how
 * many threads said they were ready, as JSON. It watches its threads without listening for their
 * errors (that is the package's job). Its manifest body is held back until the thread has exited
 * (`untilExit`), or is followed by a write to a FIFO (`fifo`).
 */
const BUNDLED_SERVER = `
import { subscribe } from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { S3Client } from '@aws-sdk/client-s3';
import { SkillCatalog } from '@skillmount/core';
import { s3Storage } from '@skillmount/storage-s3';
const { endpoint, region, credentials, bucket, prefix, fifo, untilExit } = JSON.parse(process.argv[2]);
let ready = 0;
let exited;
subscribe('worker_threads', ({ worker }) => {
  worker.once('message', () => ready++);
  exited = new Promise((resolve) => worker.once('exit', resolve));
});
const client = new S3Client({ endpoint, region, credentials, forcePathStyle: true });
client.middlewareStack.add((next) => async (args) => {
  const result = await next(args);
  const body = result.output.Body;
  if (args.input.Key?.endsWith('manifest.json') && body) {
    result.output.Body = Readable.from((async function* () {
      if (untilExit) await exited;
      yield* body;
      if (fifo) writeFileSync(fifo, 'read');
    })());
  }
  return result;
});
const errors = [];
const storage = s3Storage({ client, bucket, prefix, onError: (error) => errors.push(error.message) });
const catalog = await SkillCatalog.load(storage, { onWarning() {} });
console.log(JSON.stringify({ skills: catalog.entries.length, errors, ready }));
catalog.close();
await storage.close();
`;

/** Run `node file …args` to its end (stopped after a minute, when it hangs): its exit code and what it printed. */
const runNode = (args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
    execFile(process.execPath, args, { timeout: 60_000 }, (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr })),
  );

/** Skills served from S3 through the endpoint, and another client; `onClient` sees the storage's S3 client first. */
async function serving(label: string, extra: Partial<S3StorageOptions> = {}, onClient?: (client: S3Client) => void) {
  const prefix = freshPrefix(label);
  await upload(admin, bucket, prefix, numberedSkills(4));
  // Served with a good manifest, which the writer then replaces: each reload asks whether it changed.
  await s3Storage({ client: admin, bucket, prefix }).writeManifest();
  const client = server.client();
  onClient?.(client);
  const counts = countRequests(client);
  const errors: StorageError[] = [];
  const storage = s3Storage({ client, bucket, prefix, onError: (e) => errors.push(e), ...extra });
  const catalog = await SkillCatalog.load(storage, { onWarning: () => {} });
  const endpoint = createSkillsEndpoint({ source: catalog });
  const http = await listenHttp(async (req, res) => endpoint.handle(req, res, req.method === 'POST' ? await readJsonBody(req) : undefined));
  const other = await connectClient(http.url);
  const plant = (body: Uint8Array) => admin.send(new PutObjectCommand({ Bucket: bucket, Key: prefix + MANIFEST, Body: body, ContentType: 'application/json' }));
  const close = async () => {
    await other.close();
    await endpoint.close();
    await http.close();
    catalog.close();
    await storage.close();
  };
  return { prefix, counts, errors, catalog, other, plant, close, url: `s3://${bucket}/${prefix}${MANIFEST}` };
}

/** Reload with the planted manifest while another client lists; what it cost the process. */
async function reloadUnderLoad(s: Awaited<ReturnType<typeof serving>>) {
  const before = held();
  const rssBefore = process.memoryUsage().rss;
  const stopPeak = rssPeak();
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const start = performance.now();
  const reload = s.catalog.reload();
  const { worst, calls } = await listWhile(s.other.call, reload);
  const ms = Math.round(performance.now() - start);
  delay.disable();
  const peak = stopPeak();
  const report = await reload;
  const blocked = Math.round(delay.max / 1e6);
  const after = held();
  const heldGrowth = after.heap + after.buffers - before.heap - before.buffers;
  // Where the growth is, for the message of a failed bound: the heap or array buffers, and what the storage reported.
  const heldDetail =
    `heap ${mib(before.heap)} → ${mib(after.heap)}, array buffers ${mib(before.buffers)} → ${mib(after.buffers)}; ` +
    `the storage reported: ${s.errors.map((e) => e.message).join(' | ') || 'nothing'}`;
  return { report, worst, calls, ms, blocked, peakGrowth: peak - rssBefore, heldGrowth, heldDetail, rssAfter: process.memoryUsage().rss - rssBefore };
}

const mib = (n: number) => `${(n / MiB).toFixed(0)} MiB`;

describe('a planted manifest', { timeout: 240_000 }, () => {
  test('a large valid-looking manifest (tens of MiB, past the entry bound) does not freeze other clients or hold memory; a rewrite is refused again cheaply', async (t) => {
    const s = await serving('planted-large');
    try {
      // The attack: about 48 MiB of well-formed entries, under the default maxManifestBytes (64 MiB).
      const planted = plantedManifest({ bytes: 48 * MiB });
      // What the machine gives without any manifest to read: the same client, the same seconds.
      const idle = monitorEventLoopDelay({ resolution: 10 });
      idle.enable();
      const baseline = await listWhile(s.other.call, new Promise((resolve) => setTimeout(resolve, 3000)));
      idle.disable();
      t.diagnostic(
        `baseline, nothing read: slowest skills/list ${baseline.worst} ms over ${baseline.calls} calls; event loop blocked at most ${Math.round(idle.max / 1e6)} ms`,
      );
      await s.plant(planted);
      const first = await reloadUnderLoad(s);
      t.diagnostic(
        `planted ${mib(planted.byteLength)}: reload ${first.ms} ms; another client's slowest skills/list ${first.worst} ms over ${first.calls} calls; event loop blocked at most ${first.blocked} ms; ` +
          `RSS peak +${mib(first.peakGrowth)}, RSS after +${mib(first.rssAfter)}, heap and buffers held after GC +${mib(first.heldGrowth)}`,
      );
      assert.ok(first.worst < 5000, `another client waited ${first.worst} ms for skills/list while the manifest was read`);
      assert.ok(first.peakGrowth < 400 * MiB, `RSS grew by ${mib(first.peakGrowth)} while the manifest was read`);
      assert.ok(first.heldGrowth < 24 * MiB, `${mib(first.heldGrowth)} of heap and buffers still held after the manifest was refused (${first.heldDetail})`);

      // Refused, with what was wrong, where, and what to do; the skills are served from the listing.
      assert.equal(s.errors.length, 1, s.errors.map((e) => e.message).join('\n'));
      const message = s.errors[0]!.message;
      assert.ok(message.includes(`ignoring the manifest ${s.url}: it has more than`), message);
      assert.match(message, new RegExp(`more than the ${MAX_ENTRIES} entries a manifest may hold.*the files are read without it`));
      assert.equal(s.catalog.entries.length, 4);
      assert.equal(first.report.listChanged, false);
      const page = await s.other.call('skills/list', {});
      assert.deepEqual(
        page.skills.map((e: { uri: string }) => e.uri).sort(),
        [0, 1, 2, 3].map((i) => `skill://skill-${i}/SKILL.md`),
      );

      // Unchanged: known unusable under its ETag, a 304 and nothing parsed.
      s.counts.reset();
      await s.catalog.reload();
      assert.equal(s.counts.notModified, 1);
      assert.equal(s.errors.length, 1, 'told once');

      // Rewritten with a new ETag, still past the bound: refused again by a count of bytes on the parsing thread.
      await s.plant(plantedManifest({ bytes: 48 * MiB }, 'rewrite'));
      const again = await reloadUnderLoad(s);
      t.diagnostic(
        `rewritten (new ETag): reload ${again.ms} ms; slowest skills/list ${again.worst} ms; blocked ${again.blocked} ms; RSS peak +${mib(again.peakGrowth)}; held after GC +${mib(again.heldGrowth)}`,
      );
      assert.ok(again.worst < 5000, `another client waited ${again.worst} ms`);
      assert.ok(again.heldGrowth < 24 * MiB, `${mib(again.heldGrowth)} held (${again.heldDetail})`);
      assert.equal(s.errors.length, 2);
      assert.match(s.errors[1]!.message, /JSON values \(counted before parsing\)/);
    } finally {
      await s.close();
    }
  });

  test(`a manifest of ${MAX_ENTRIES} + 1 entries is refused after parsing on its thread, before any entry is kept`, async (t) => {
    const s = await serving('planted-bound');
    try {
      const planted = plantedManifest({ entries: MAX_ENTRIES + 1 });
      await s.plant(planted);
      const cost = await reloadUnderLoad(s);
      t.diagnostic(
        `${MAX_ENTRIES + 1} entries (${mib(planted.byteLength)}): reload ${cost.ms} ms; slowest skills/list ${cost.worst} ms; blocked ${cost.blocked} ms; ` +
          `RSS peak +${mib(cost.peakGrowth)}; held after GC +${mib(cost.heldGrowth)}`,
      );
      assert.ok(cost.worst < 5000, `another client waited ${cost.worst} ms`);
      assert.ok(cost.peakGrowth < 400 * MiB, `RSS grew by ${mib(cost.peakGrowth)}`);
      assert.ok(cost.heldGrowth < 24 * MiB, `${mib(cost.heldGrowth)} held (${cost.heldDetail})`);
      assert.equal(s.errors.length, 1, s.errors.map((e) => e.message).join('\n'));
      assert.ok(s.errors[0]!.message.includes(`ignoring the manifest ${s.url}: it has ${MAX_ENTRIES + 1} entries, more than the ${MAX_ENTRIES}`));
      assert.equal(s.catalog.entries.length, 4);
    } finally {
      await s.close();
    }
  });

  test('a reload ends once its parsing thread has exited, and a thread ready before the body arrived is used again', { timeout: 60_000 }, async () => {
    // Node announces every thread it starts on this channel; a thread that has exited has threadId -1.
    const started: Worker[] = [];
    const spoke = new Map<Worker, Promise<unknown>>();
    const onThread = (message: unknown) => {
      const { worker } = message as { worker: Worker };
      started.push(worker);
      // A listener for its first message only: an 'error' listener here would hide one the package lacks.
      spoke.set(worker, new Promise((resolve) => worker.once('message', resolve)));
    };
    subscribe('worker_threads', onThread);
    // The manifest's body arrives only after its thread said it is ready, as from a slow bucket.
    const s = await serving('planted-exit', {}, (client) => holdManifestBody(client, () => spoke.get(started.at(-1)!)!));
    try {
      for (const salt of ['refused', 'refused again']) {
        await s.plant(plantedManifest({ entries: MAX_ENTRIES + 1 }, salt));
        const before = started.length;
        await s.catalog.reload();
        assert.equal(started.length, before + 1, `one parsing thread for the planted manifest (${salt})`);
        // Until it has exited, the bytes moved to it are still the process's memory.
        assert.equal(started.at(-1)!.threadId, -1, `the parsing thread was still running when the reload ended (${salt})`);
      }
      assert.deepEqual(
        s.errors.map((e) => e.message.includes(`it has ${MAX_ENTRIES + 1} entries, more than the ${MAX_ENTRIES}`)),
        [true, true],
        s.errors.map((e) => e.message).join('\n'),
      );
    } finally {
      unsubscribe('worker_threads', onThread);
      await s.close();
    }
  });

  test('a server bundled into one file (no manifest-worker.js beside it, or one that cannot run) parses a planted manifest in place and keeps serving', async (t) => {
    const prefix = freshPrefix('planted-bundled');
    await upload(admin, bucket, prefix, numberedSkills(4));
    await admin.send(new PutObjectCommand({ Bucket: bucket, Key: prefix + MANIFEST, Body: plantedManifest({ entries: MAX_ENTRIES + 1 }) }));
    const dir = mkdtempSync(path.join(tmpdir(), 'skillmount-bundle-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const bundle = path.join(dir, 'server.mjs');
    await build({
      stdin: { contents: BUNDLED_SERVER, resolveDir: import.meta.dirname, loader: 'js' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: bundle,
      // The AWS SDK's CommonJS modules call require().
      banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
      logLevel: 'silent',
    });
    const serve = async (hold: { fifo?: string; untilExit?: boolean } = {}) => {
      const run = await runNode([bundle, JSON.stringify({ ...ownClientOptions(server, bucket, prefix), ...hold })]);
      assert.equal(run.code, 0, `the bundled server failed:\n${run.stderr}`);
      const { skills, errors, ready } = JSON.parse(run.stdout) as { skills: number; errors: string[]; ready: number };
      assert.equal(skills, 4);
      assert.equal(errors.length, 1, errors.join('\n'));
      assert.ok(errors[0]!.includes(`it has ${MAX_ENTRIES + 1} entries, more than the ${MAX_ENTRIES}`), errors[0]);
      return ready;
    };
    const worker = path.join(dir, 'manifest-worker.js');
    // The thread's module is missing: its 'error' comes while the body is still downloading.
    assert.equal(await serve({ untilExit: true }), 0, 'no thread could start');

    // A manifest-worker.js that cannot run here and fails only after the body was read: the bytes are
    // still there to parse in place (not moved to a thread that never loaded).
    const fifo = path.join(dir, 'body-read');
    execFileSync('mkfifo', [fifo]);
    writeFileSync(
      worker,
      `import { readFileSync } from 'node:fs';\nreadFileSync(${JSON.stringify(fifo)});\nthrow new Error('this manifest-worker.js cannot run here');\n`,
    );
    assert.equal(await serve({ fifo }), 0, 'the failing thread never said it was ready');

    // A manifest-worker.js that runs and never says it is ready (the app's own server copied under
    // that name) holds the manifest only until the bound on its start: it is then parsed in place.
    writeFileSync(worker, `import { createServer } from 'node:http';\ncreateServer().listen(0, '127.0.0.1');\n`);
    assert.equal(await serve(), 0, 'the other program never said it was ready');

    // As the reference says: manifest-worker.js copied beside the bundle puts the parse back on a thread.
    const installed = path.dirname(fileURLToPath(import.meta.resolve('@skillmount/storage-s3/package.json')));
    copyFileSync(path.join(installed, 'dist', 'manifest-worker.js'), worker);
    assert.equal(await serve(), 1, 'the copied manifest-worker.js ran');
  });

  test('a rewrite past maxManifestBytes is refused from its headers: no body read, nothing parsed', async () => {
    const s = await serving('planted-headers', { maxManifestBytes: 8 * MiB });
    try {
      await s.plant(plantedManifest({ bytes: 12 * MiB }));
      const cost = await reloadUnderLoad(s);
      assert.ok(cost.heldGrowth < 4 * MiB, `${mib(cost.heldGrowth)} held`);
      await s.plant(plantedManifest({ bytes: 12 * MiB }, 'rewrite'));
      const buffers = process.memoryUsage().arrayBuffers;
      s.counts.reset();
      await s.catalog.reload();
      assert.ok(process.memoryUsage().arrayBuffers - buffers < 4 * MiB, 'the rewritten body was not read');
      assert.equal(s.errors.length, 2, s.errors.map((e) => e.message).join('\n'));
      for (const error of s.errors) assert.match(error.message, /bytes, more than maxManifestBytes \(8388608\), so it was not read; .*raise maxManifestBytes/);
      assert.equal(s.catalog.entries.length, 4);
    } finally {
      await s.close();
    }
  });

  test('a good manifest over 1 MiB, decoded on its thread, vouches exactly as a small one does', async () => {
    const prefix = freshPrefix('planted-good');
    await upload(admin, bucket, prefix, numberedSkills(4));
    const writer = s3Storage({ client: admin, bucket, prefix });
    await writer.writeManifest();
    const reference = await SkillCatalog.load(s3Storage({ client: admin, bucket, prefix }), { onWarning: () => {} });
    // The written entries, plus entries for objects written since and not listed yet: over 1 MiB in all.
    const got = await admin.send(new GetObjectCommand({ Bucket: bucket, Key: prefix + MANIFEST }));
    const written = JSON.parse(await got.Body!.transformToString());
    const extra = JSON.parse(Buffer.from(plantedManifest({ bytes: 2 * MiB })).toString()).files;
    const body = new TextEncoder().encode(JSON.stringify({ version: 1, files: { ...extra, ...written.files } }));
    assert.ok(body.byteLength > 1.5 * MiB);
    await admin.send(new PutObjectCommand({ Bucket: bucket, Key: prefix + MANIFEST, Body: body }));

    const client = server.client();
    const counts = countRequests(client);
    const errors: StorageError[] = [];
    const catalog = await SkillCatalog.load(s3Storage({ client, bucket, prefix, onError: (e) => errors.push(e) }), { onWarning: () => {} });
    assert.deepEqual({ list: counts.list, get: counts.get }, { list: 1, get: 1 }, 'every file vouched for by the manifest: no file read');
    assert.deepEqual(catalog.entries, reference.entries);
    assert.deepEqual(errors, []);
    catalog.close();
  });
});
