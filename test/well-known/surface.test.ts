/**
 * /.well-known/agent-skills over HTTP on the endpoint, Fastify and Express: the index in the
 * discovery 0.2.0 shape, artifacts whose bytes match their digests and the catalog's files,
 * deterministic archives, ETag / 304 / HEAD / Cache-Control, skills left out with a warning, the
 * visible() rule, the option checks.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import express from 'express';
import Fastify from 'fastify';
import { createSkillsEndpoint, OptionError, SkillCatalog, type SkillSource, type SkillWarning } from '@skillmount/core';
import skillsPlugin from '@skillmount/fastify';
import { skillsMiddleware } from '@skillmount/express';
import { fsStorage } from '@skillmount/storage-fs';
import { listenFastify } from '../support/apps.js';
import { skillMd } from '../support/skill-md.js';
import { tempTree } from '../support/trees.js';
import { readTree } from '../support/skills-installer.js';
import { get, index, KINDS, PREFIX, serveWellKnown, sha256, WITH_HANDLER } from './fixture.js';
import { FOLDERS, INVOICE_VERSION, TREE } from './tree.js';

const SCHEMA = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';

for (const kind of KINDS) {
  test(`${kind}: the index lists every skill; each artifact's bytes match its digest and the storage's files`, async (t) => {
    const root = tempTree(t, TREE);
    const catalog = await SkillCatalog.load(fsStorage(root), { cacheHint: { ttlMs: 60_000, cacheScope: 'public' }, onWarning: () => undefined });
    t.after(() => catalog.close());
    const server = await serveWellKnown(kind, catalog);
    t.after(server.close);

    const listed = await index(server.origin);
    assert.equal(listed.$schema, SCHEMA);
    assert.deepEqual(listed.skills.map((s) => s.name).sort(), Object.keys(FOLDERS).sort());
    for (const entry of listed.skills) {
      // A version only where the skill names one (metadata.version); an entry without one is as before.
      const versioned = entry.name === 'invoice';
      assert.deepEqual(Object.keys(entry).sort(), ['description', 'digest', 'name', 'type', 'url', ...(versioned ? ['version'] : [])].sort());
      if (versioned) assert.equal(entry.version, INVOICE_VERSION);
      const artifact = await get(new URL(entry.url, `${server.origin}${PREFIX}index.json`).href);
      assert.equal(artifact.status, 200, entry.url);
      assert.equal(sha256(artifact.bytes), entry.digest, `${entry.name}: the digest is of the bytes served`);
      assert.equal(artifact.headers.get('etag'), `"${entry.digest}"`);
      assert.equal(artifact.headers.get('cache-control'), 'public, max-age=60', "the catalog's cache hint");
      const files = readTree(path.join(root, FOLDERS[entry.name]!));
      if (entry.type === 'skill-md') {
        assert.equal(entry.url, `${entry.name}/SKILL.md`);
        assert.deepEqual([...files.keys()], ['SKILL.md']);
        assert.deepEqual(artifact.bytes, files.get('SKILL.md'));
      } else {
        assert.equal(entry.url, `${entry.name}.zip`);
        assert.equal(artifact.headers.get('content-type'), 'application/zip');
        const unzipped = unzipSync(artifact.bytes);
        const names = Object.keys(unzipped);
        assert.deepEqual(new Map(names.map((name) => [name, Buffer.from(unzipped[name]!)])), new Map([...files].filter(([name]) => names.includes(name))));
        assert.deepEqual(names.sort(), [...files.keys()].sort(), `${entry.name}: every file, nested skills' included, SKILL.md at the root`);
      }
    }
  });
}

test('archives are deterministic: the same files give the same bytes on another server and after a reload', async (t) => {
  const root = tempTree(t, TREE);
  const copy = mkdtempSync(path.join(tmpdir(), 'skillmount-wk-copy-'));
  t.after(() => rmSync(copy, { recursive: true, force: true }));
  cpSync(root, copy, { recursive: true });
  const a = await SkillCatalog.load(fsStorage(root), { onWarning: () => undefined });
  const b = await SkillCatalog.load(fsStorage(copy), { onWarning: () => undefined });
  t.after(() => {
    a.close();
    b.close();
  });
  const one = await serveWellKnown('endpoint', a);
  const two = await serveWellKnown('fastify', b);
  t.after(one.close);
  t.after(two.close);
  const first = await get(`${one.origin}${PREFIX}invoice.zip`);
  const second = await get(`${two.origin}${PREFIX}invoice.zip`);
  assert.deepEqual(first.bytes, second.bytes);
  // Entries in byte order of their paths.
  const order = Object.keys(unzipSync(first.bytes));
  assert.deepEqual(
    order,
    [...order].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y))),
  );
  await a.reload();
  assert.deepEqual((await get(`${one.origin}${PREFIX}invoice.zip`)).bytes, first.bytes);
  writeFileSync(path.join(root, 'hello/SKILL.md'), skillMd('hello', 'Says hello, changed.'));
  await a.reload();
  const listed = await index(one.origin);
  assert.deepEqual((await get(`${one.origin}${PREFIX}invoice.zip`)).bytes, first.bytes, 'an unchanged skill keeps its bytes');
  assert.equal(listed.skills.find((s) => s.name === 'hello')!.description, 'Says hello, changed.', 'the reload is followed');
});

test('ETag, If-None-Match (304), HEAD and Cache-Control on the index and on artifacts', async (t) => {
  const root = tempTree(t, TREE);
  const catalog = await SkillCatalog.load(fsStorage(root), { onWarning: () => undefined });
  t.after(() => catalog.close());
  const server = await serveWellKnown('express', catalog);
  t.after(server.close);
  for (const file of ['index.json', 'invoice.zip', 'hello/SKILL.md']) {
    const url = `${server.origin}${PREFIX}${file}`;
    const full = await get(url);
    const etag = full.headers.get('etag')!;
    assert.match(etag, /^"sha256:[0-9a-f]{64}"$/);
    assert.equal(etag, `"${sha256(full.bytes)}"`, `${file}: the ETag is the digest of the body`);
    assert.equal(full.headers.get('cache-control'), 'private, max-age=0', 'the default cache hint');
    const head = await get(url, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.bytes.length, 0);
    assert.equal(head.headers.get('content-length'), String(full.bytes.length));
    assert.equal(head.headers.get('etag'), etag);
    for (const match of [etag, `W/${etag}`, `"sha256:nope", ${etag}`, '*']) {
      const cached = await get(url, { headers: { 'if-none-match': match } });
      assert.equal(cached.status, 304, `${file}: If-None-Match ${match}`);
      assert.equal(cached.bytes.length, 0);
      assert.equal(cached.headers.get('etag'), etag);
    }
    const stale = await get(url, { headers: { 'if-none-match': '"sha256:0000"' } });
    assert.equal(stale.status, 200);
    assert.deepEqual(stale.bytes, full.bytes);
  }
});

test('left out with a well-known-skipped warning: a second skill with a taken name, a skill over 1000 files; hidden skills answer as missing; a hostile version is one bounded line', async (t) => {
  const files: Record<string, string> = {
    // A hostile version: a screen clear, a line break and 200 more characters; the index shows it as one line of 32.
    'team-a/greet/SKILL.md': skillMd('greet', {
      description: 'Greets, from team A.',
      frontmatter: `metadata:\n  version: ${JSON.stringify(`1.0\x1b[2J\n- and obey ${'x'.repeat(200)}`)}\n`,
    }),
    'team-b/greet/SKILL.md': skillMd('greet', 'Greets, from team B.'),
    'big/SKILL.md': skillMd('big', 'Too many files for the installer.'),
    'secret/SKILL.md': skillMd('secret', 'Hidden by visible().'),
    'secret/notes.md': 'classified\n',
  };
  for (let i = 0; i < 1000; i++) files[`big/f/${i}.txt`] = `${i}\n`;
  const root = tempTree(t, files);
  const warnings: SkillWarning[] = [];
  const catalog = await SkillCatalog.load(fsStorage(root), { limits: { files: Number.POSITIVE_INFINITY }, onWarning: () => undefined });
  t.after(() => catalog.close());
  const server = await serveWellKnown('fastify', catalog, { onWarning: (w) => warnings.push(w), visible: (entry) => entry.frontmatter.name !== 'secret' });
  t.after(server.close);

  const listed = await index(server.origin);
  assert.deepEqual(
    listed.skills.map((s) => [s.name, s.description, s.version]),
    [['greet', 'Greets, from team A.', `1.0 [2J - and obey ${'x'.repeat(12)}…`]],
  );
  await index(server.origin);
  const skipped = warnings.filter((w) => w.code === 'well-known-skipped');
  assert.deepEqual(skipped.map((w) => w.uri).sort(), ['skill://big/SKILL.md', 'skill://team-b/greet/SKILL.md'], 'each told once, over two index requests');
  assert.match(skipped.find((w) => w.uri === 'skill://big/SKILL.md')!.message, /1001 files, over the 1000 the installer unpacks/);
  assert.match(
    skipped.find((w) => w.uri === 'skill://team-b/greet/SKILL.md')!.message,
    /skill:\/\/team-a\/greet\/SKILL\.md is published under the same name "greet"/,
  );
  assert.ok(!warnings.some((w) => w.uri?.includes('secret')), 'a hidden skill is not even mentioned');

  const missing = await get(`${server.origin}${PREFIX}nowhere.zip`);
  assert.equal(missing.status, 404);
  for (const url of ['secret.zip', 'secret/SKILL.md', 'big.zip', 'greet/SKILL.md', 'greet.zip']) {
    const answer = await get(`${server.origin}${PREFIX}${url}`);
    assert.equal(answer.status, url === 'greet/SKILL.md' ? 200 : 404, url);
    if (answer.status === 404) assert.deepEqual(answer.bytes, missing.bytes, `${url}: the same 404 as a skill that does not exist`);
  }
});

test('a failing source: the same 500 and the same one warning behind the endpoint, Fastify, Express and createWellKnownHandler', async (t) => {
  const catalog = await SkillCatalog.load(fsStorage(tempTree(t, TREE)), { onWarning: () => undefined });
  t.after(() => catalog.close());
  // Listing works; reading a file fails as a storage would, with a path the client must not see.
  const failing: SkillSource = {
    list: (params) => catalog.list(params),
    get: (uri) => catalog.get(uri),
    read: async () => {
      throw new Error('EIO: i/o error, read /srv/private/skills/invoice/scripts/run.sh');
    },
  };
  const seen: { status: number; type: string | null; body: string; warnings: string[] }[] = [];
  for (const kind of WITH_HANDLER) {
    const warnings: SkillWarning[] = [];
    const server = await serveWellKnown(kind, failing, { onWarning: (w) => warnings.push(w) });
    const answer = await get(`${server.origin}${PREFIX}invoice.zip`);
    await server.close();
    const failed = warnings.filter((w) => w.code === 'request-failed').map((w) => w.message);
    seen.push({ status: answer.status, type: answer.headers.get('content-type'), body: answer.bytes.toString(), warnings: failed });
  }
  for (const [i, kind] of WITH_HANDLER.entries()) assert.deepEqual(seen[i], seen[0], `${kind} answers and warns as ${WITH_HANDLER[0]} does`);
  assert.deepEqual(seen[0]!.status, 500);
  assert.equal(seen[0]!.body, 'Internal error\n');
  assert.equal(seen[0]!.warnings.length, 1);
  assert.match(seen[0]!.warnings[0]!, /^\/\.well-known\/agent-skills request failed: .*EIO/);
});

test("Fastify: the app's hooks' headers (@fastify/cors) go out with every .well-known answer, a 404 included", async (t) => {
  const catalog = await SkillCatalog.load(fsStorage(tempTree(t, TREE)), { onWarning: () => undefined });
  t.after(() => catalog.close());
  const app = Fastify();
  const origin = 'https://app.example.com';
  const { default: fastifyCors } = await import('@fastify/cors');
  await app.register(fastifyCors, { origin: [origin] });
  await app.register(skillsPlugin, { source: catalog, wellKnown: true, allowedOrigins: [origin], onWarning: () => undefined });
  const http = await listenFastify(app, '');
  t.after(http.close);
  for (const file of ['index.json', 'invoice.zip', 'nowhere.zip']) {
    const answer = await get(`${http.url}${PREFIX}${file}`, { headers: { origin } });
    assert.equal(answer.status, file === 'nowhere.zip' ? 404 : 200, file);
    assert.equal(answer.headers.get('access-control-allow-origin'), origin, file);
  }
});

test('methods other than GET and HEAD get 405; without wellKnown nothing is answered; a wrong option fails at creation', async (t) => {
  const root = tempTree(t, TREE);
  const catalog = await SkillCatalog.load(fsStorage(root), { onWarning: () => undefined });
  t.after(() => catalog.close());
  const server = await serveWellKnown('endpoint', catalog);
  t.after(server.close);
  const post = await get(`${server.origin}${PREFIX}index.json`, { method: 'POST', body: '{}' });
  assert.equal(post.status, 405);
  assert.equal(post.headers.get('allow'), 'GET, HEAD');

  const off = createSkillsEndpoint({ source: catalog });
  assert.equal(await off.handleWellKnown({ url: `${PREFIX}index.json`, headers: {} } as never, {} as never), false);
  const app = Fastify();
  await app.register(skillsPlugin, { catalog });
  const plain = await listenFastify(app, '');
  t.after(plain.close);
  assert.equal((await get(`${plain.url}${PREFIX}index.json`)).status, 404, "Fastify's own 404: no route");

  for (const make of [
    () => createSkillsEndpoint({ source: catalog, wellKnown: 'yes' as never }),
    () => skillsMiddleware({ catalog, wellKnown: 1 as never }),
    () => Fastify().register(skillsPlugin, { catalog, wellKnown: 'on' as never }),
  ]) {
    await assert.rejects(
      async () => {
        const made = make();
        if (made && typeof (made as { then?: unknown }).then === 'function') await made;
      },
      (error: unknown) => error instanceof OptionError && error.code === 'invalid-type' && /wellKnown.*true or false/.test(error.message),
    );
  }
  void express;
});

test('Fastify: the routes at the root and under path, including path "/" and path: false', async (t) => {
  const root = tempTree(t, TREE);
  const catalog = await SkillCatalog.load(fsStorage(root), { onWarning: () => undefined });
  t.after(() => catalog.close());
  for (const mcpPath of ['/', '/mcp', '/deep/mcp/', false] as const) {
    const app = Fastify();
    await app.register(skillsPlugin, { catalog, wellKnown: true, path: mcpPath });
    const http = await listenFastify(app, '');
    try {
      assert.equal((await index(http.url)).skills.length, 3, `path ${mcpPath}: at the root`);
      if (mcpPath !== false && mcpPath !== '/') {
        assert.equal((await index(`${http.url}${mcpPath.replace(/\/$/, '')}`)).skills.length, 3, `under ${mcpPath}`);
      }
    } finally {
      await http.close();
    }
  }
});

test('left out with a warning: an archive over the 10 MiB the installer downloads, and a skill with "dynamic" files', async (t) => {
  const root = tempTree(t, {
    'huge/SKILL.md': skillMd('huge', 'Incompressible data over 10 MiB.'),
    'huge/data.bin': randomBytes(11 * 1024 * 1024),
    'small/SKILL.md': skillMd('small', 'Fits.'),
  });
  const catalog = await SkillCatalog.load(fsStorage(root), { onWarning: () => undefined });
  t.after(() => catalog.close());
  const dynamic: SkillSource = {
    list: async (params) => {
      const page = await catalog.list(params);
      const entry = { uri: 'skill://live/SKILL.md', frontmatter: { name: 'live', description: 'Generated per request.' }, resources: 'dynamic' as const };
      return { ...page, skills: [...page.skills, entry] };
    },
    get: (uri) => catalog.get(uri),
    read: (uri) => catalog.read(uri),
  };
  const warnings: SkillWarning[] = [];
  const server = await serveWellKnown('endpoint', dynamic, { onWarning: (w) => warnings.push(w) });
  t.after(server.close);
  assert.deepEqual(
    (await index(server.origin)).skills.map((s) => s.name),
    ['small'],
  );
  const skipped = warnings.filter((w) => w.code === 'well-known-skipped');
  assert.match(
    skipped.find((w) => w.uri === 'skill://huge/SKILL.md')?.message ?? '',
    /its archive is \d+ bytes, over the 10485760 bytes the installer downloads/,
  );
  assert.match(skipped.find((w) => w.uri === 'skill://live/SKILL.md')?.message ?? '', /its files are "dynamic"/);
  const huge = await get(`${server.origin}${PREFIX}huge.zip`);
  assert.equal(huge.status, 404);
  assert.deepEqual(huge.bytes, (await get(`${server.origin}${PREFIX}nowhere.zip`)).bytes);
});
