/**
 * What a `.well-known` answer costs, and whom: the response budget counts the bytes an answer
 * writes (none for a HEAD or a 304), so one HEAD cannot stall the next request on a connection a
 * proxy shares between users; a HEAD or a conditional GET builds no archive whose digest is
 * known; a build several requests share outlives the first one's hang-up; an artifact is found by
 * its name, not by listing the catalog; the archive digests of a whole index stay remembered, and
 * one tenant's index leaves another tenant's cache alone.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createWellKnownHandler, memoryStorage, SkillCatalog, tenantCatalogs, type SkillEntry, type SkillSource } from '@skillmount/core';
import { type Kind, KINDS, PREFIX, serveWellKnown } from './fixture.js';

const MiB = 1024 * 1024;
const skillMd = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\n# ${name}\n`;

/** A catalog whose `read` calls are counted: `reads` is how many files were read so far. */
async function recordingCatalog(t: TestContext, files: Record<string, string | Uint8Array>) {
  const catalog = await SkillCatalog.load(memoryStorage(files), { onWarning: () => undefined });
  t.after(() => catalog.close());
  const recorder = { catalog, reads: 0 };
  const read = catalog.read.bind(catalog);
  catalog.read = (uri) => {
    recorder.reads++;
    return read(uri);
  };
  return recorder;
}

interface Proxy {
  origin: string;
  /** Upstream connections the proxy opened. */
  upstreamSockets: Set<Socket>;
  close(): Promise<void>;
}

/** A reverse proxy that sends every user's request to `upstream` over one kept-alive connection, as nginx `keepalive` does. */
async function oneConnectionProxy(upstream: string): Promise<Proxy> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const upstreamSockets = new Set<Socket>();
  const target = new URL(upstream);
  const server = http.createServer((req, res) => {
    // Hop-by-hop: the user's `Connection: close` is not the upstream connection's.
    const { connection: _hop, ...headers } = req.headers;
    const forward = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...headers, host: target.host }, agent },
      (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('socket', (socket) => upstreamSockets.add(socket));
    forward.on('error', (error) => res.destroy(error));
    req.pipe(forward);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    upstreamSockets,
    async close() {
      agent.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** An answer through `fetch` on a connection of its own (a new user). */
async function fetchOnce(url: string, init: RequestInit = {}) {
  const response = await fetch(url, { ...init, headers: { ...(init.headers as Record<string, string>), connection: 'close' } });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

// The archive (random bytes do not compress) is over the 4 MiB one connection may hold unsent.
const BIG_TREE = { 'bulky/SKILL.md': skillMd('bulky'), 'bulky/data.bin': randomBytes(5 * MiB) };

for (const kind of KINDS satisfies Kind[]) {
  test(`${kind}: a HEAD and a 304 count no body against the connection, so the next user's request on it is answered`, async (t) => {
    const { catalog } = await recordingCatalog(t, BIG_TREE);
    const server = await serveWellKnown(kind, catalog);
    t.after(server.close);
    const proxy = await oneConnectionProxy(server.origin);
    t.after(proxy.close);
    const archive = `${proxy.origin}${PREFIX}bulky.zip`;

    const full = await fetchOnce(archive);
    assert.equal(full.status, 200);
    assert.ok(full.bytes.byteLength > 5 * MiB);
    const head = await fetchOnce(archive, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-length'), String(full.bytes.byteLength));
    assert.equal(head.bytes.byteLength, 0);
    // Before, the connection held the HEAD's 5 MiB as unsent: this waited 30 s, then got 503.
    const next = await fetchOnce(`${proxy.origin}${PREFIX}index.json`);
    assert.equal(next.status, 200, next.bytes.toString());

    const revalidated = await fetchOnce(archive, { headers: { 'if-none-match': full.headers.get('etag')! } });
    assert.equal(revalidated.status, 304);
    const after = await fetchOnce(`${proxy.origin}${PREFIX}index.json`);
    assert.equal(after.status, 200, after.bytes.toString());
    assert.equal(proxy.upstreamSockets.size, 1, 'every request went over the one upstream connection');
  });
}

test('a HEAD and a conditional GET build no archive whose digest is known; a GET of one not kept builds it', async (t) => {
  // Over 8 MiB: built for each download, never kept.
  const recorder = await recordingCatalog(t, { 'huge/SKILL.md': skillMd('huge'), 'huge/data.bin': randomBytes(9 * MiB) });
  const server = await serveWellKnown('handler', recorder.catalog);
  t.after(server.close);
  const archive = `${server.origin}${PREFIX}huge.zip`;

  const listed = JSON.parse((await fetchOnce(`${server.origin}${PREFIX}index.json`)).bytes.toString());
  assert.equal(listed.skills[0].name, 'huge');
  recorder.reads = 0;
  const head = await fetchOnce(archive, { method: 'HEAD' });
  assert.equal(head.status, 200);
  assert.equal(head.headers.get('etag'), `"${listed.skills[0].digest}"`);
  const revalidated = await fetchOnce(archive, { headers: { 'if-none-match': `"${listed.skills[0].digest}"` } });
  assert.equal(revalidated.status, 304);
  assert.equal(recorder.reads, 0, 'no file read for the HEAD or the 304');

  const body = await fetchOnce(archive);
  assert.equal(body.status, 200);
  assert.equal(Number(head.headers.get('content-length')), body.bytes.byteLength);
  assert.equal(recorder.reads, 2, 'the GET built the archive from its two files');
});

test("the first requester's hang-up leaves a shared build running, and the others are served", async (t) => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let readStarted!: () => void;
  const started = new Promise<void>((resolve) => {
    readStarted = resolve;
  });
  const recorder = await recordingCatalog(t, { 'pair/SKILL.md': skillMd('pair'), 'pair/notes.md': 'notes\n' });
  const read = recorder.catalog.read;
  const listed: ((value?: unknown) => void)[] = [];
  let lists = 0;
  const source: SkillSource = {
    baseUri: recorder.catalog.baseUri,
    list: async (params) => {
      const page = await recorder.catalog.list(params);
      listed[lists++]?.();
      return page;
    },
    get: (uri) => recorder.catalog.get(uri),
    read: async (uri) => {
      readStarted();
      await gate;
      return read(uri);
    },
  };
  const handle = createWellKnownHandler({ source, onWarning: () => undefined });
  const server = http.createServer((req, res) => void handle(req, res));
  const closed: Promise<unknown>[] = [];
  server.on('connection', (socket) => closed.push(once(socket, 'close')));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.after(() => {
    server.closeAllConnections();
    server.close();
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}${PREFIX}pair.zip`;
  const whenListed = (n: number) => new Promise((resolve) => (listed[n] = resolve));

  // The first requester starts the build and hangs up while its first file is being read.
  const first = http.get(url, { agent: false });
  first.on('error', () => undefined);
  await started;
  // The second joins the build (its listing done, nothing but in-memory steps is left before it waits).
  const secondListed = whenListed(1);
  const second = fetchOnce(url);
  await secondListed;
  await new Promise(setImmediate);
  first.destroy();
  await closed[0];
  await new Promise(setImmediate);
  // A third comes while the build still waits on its read.
  const thirdListed = whenListed(2);
  const third = fetchOnce(url);
  await thirdListed;
  release();
  const answers = await Promise.all([second, third]);
  assert.deepEqual(
    answers.map((a) => a.status),
    [200, 200],
    JSON.stringify(answers.map((a) => a.bytes.toString())),
  );
  assert.deepEqual(answers[0]!.bytes, answers[1]!.bytes);
});

test('an artifact, or a name no skill has, is looked up by its name: visible() is asked about a few skills, not the catalog', async (t) => {
  const recorder = await recordingCatalog(t, { ...manySkills('many', 300), 'lone/SKILL.md': skillMd('lone') });
  let asked = 0;
  const visible = (entry: SkillEntry) => {
    asked++;
    return entry.frontmatter.name !== 'many-7';
  };
  const server = await serveWellKnown('handler', recorder.catalog, { visible });
  t.after(server.close);
  const missing = await fetchOnce(`${server.origin}${PREFIX}made-up-name.zip`);
  const hidden = await fetchOnce(`${server.origin}${PREFIX}many-7.zip`);
  assert.equal(missing.status, 404);
  assert.deepEqual(hidden.bytes, missing.bytes, 'a hidden skill answers as a missing one');
  assert.ok(asked <= 2, `the two 404s asked visible() ${asked} times`);
  assert.equal((await fetchOnce(`${server.origin}${PREFIX}many-42.zip`)).status, 200);
  assert.equal((await fetchOnce(`${server.origin}${PREFIX}lone/SKILL.md`)).status, 200);
  assert.equal((await fetchOnce(`${server.origin}${PREFIX}lone.zip`)).status, 404, 'a one-file skill is published as its SKILL.md alone');
  assert.ok(asked <= 12, `five artifact requests asked visible() ${asked} times`);
  asked = 0;
  const listed = JSON.parse((await fetchOnce(`${server.origin}${PREFIX}index.json`)).bytes.toString()).skills as { name: string }[];
  assert.equal(listed.length, 300);
  assert.ok(asked >= 301, `the index asks about every skill (${asked})`);
});

/** `count` skills of two files each, named `<prefix>-<i>`. */
function manySkills(prefix: string, count: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    files[`${prefix}-${i}/SKILL.md`] = skillMd(`${prefix}-${i}`);
    files[`${prefix}-${i}/notes.md`] = `notes ${i}\n`;
  }
  return files;
}

test("an index of 4600 multi-file skills asked twice builds nothing the second time; a noisy tenant's index leaves a quiet tenant's cache alone", async (t) => {
  const noisy = await recordingCatalog(t, manySkills('noisy', 4600));
  const quiet = await recordingCatalog(t, manySkills('quiet', 3));
  const tenants = tenantCatalogs({
    key: (ctx) => ctx.tenant as string | undefined,
    load: async (key) => (key === 'noisy' ? noisy.catalog : quiet.catalog),
    onWarning: () => undefined,
  });
  const server = await serveWellKnown('handler', tenants, { context: (req) => ({ tenant: req.headers['x-tenant'] }) });
  t.after(server.close);
  const indexOf = async (tenant: string) => {
    const answer = await fetchOnce(`${server.origin}${PREFIX}index.json`, { headers: { 'x-tenant': tenant } });
    assert.equal(answer.status, 200);
    return JSON.parse(answer.bytes.toString()).skills as unknown[];
  };

  assert.equal((await indexOf('quiet')).length, 3);
  assert.equal(quiet.reads, 6, 'the quiet index built its three archives');
  assert.equal((await indexOf('noisy')).length, 4600);
  assert.equal(noisy.reads, 9200);
  noisy.reads = 0;
  assert.equal((await indexOf('noisy')).length, 4600);
  assert.equal(noisy.reads, 0, `the second index built ${noisy.reads / 2} archives again (hit rate ${(1 - noisy.reads / 9200) * 100}%)`);
  assert.equal((await indexOf('quiet')).length, 3);
  assert.equal(quiet.reads, 6, "the quiet tenant's archives were still remembered after the noisy tenant's index");
});
