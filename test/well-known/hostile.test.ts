/**
 * Attacks on /.well-known/agent-skills, reproduced over raw sockets on the endpoint, Fastify,
 * Express and createWellKnownHandler: traversal in every spelling, encoded dots and slashes, odd and oversized paths, the
 * Host check, HEAD and conditional abuse, and many requests at once within the response budget.
 * Nothing outside what the index publishes is ever served.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { SkillCatalog } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import { tempTree } from '../support/trees.js';
import { get, index, PREFIX, serveWellKnown, sha256, WITH_HANDLER } from './fixture.js';
import { TREE } from './tree.js';

interface Raw {
  status: number;
  head: string;
  body: Buffer;
}

/** One request written byte for byte on its own connection (no client normalises the path), read until the server closes it. */
function raw(origin: string, lines: string, body = ''): Promise<Raw> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const all = Buffer.concat(chunks);
      const end = all.indexOf('\r\n\r\n');
      const head = all.subarray(0, end).toString('latin1');
      resolve({ status: Number(head.split(' ')[1]), head, body: all.subarray(end + 4) });
    });
    socket.write(`${lines}\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n${body}`);
  });
}

const SECRET_CONTENT = ['echo invoice', 'Résumé', 'country,rate'];
const TRAVERSALS = [
  '../../../etc/passwd',
  '..%2f..%2f..%2fetc%2fpasswd',
  '%2e%2e/%2e%2e/etc/passwd',
  '%2E%2E%2F%2E%2E%2Fetc%2Fpasswd',
  'invoice/../hello/SKILL.md',
  'invoice%2fscripts%2frun.sh',
  'invoice/scripts/run.sh',
  'invoice/SKILL.md',
  'invoice.zip/../invoice.zip',
  'hello\\SKILL.md',
  'hello%5cSKILL.md',
  'hello/SKILL.md%00',
  'hello/SKILL.md%00.zip',
  'HELLO/SKILL.md',
  'hello/skill.md',
  'invoice.ZIP',
  'invoice.tar.gz',
  'invoice.zip.',
  '.zip',
  '-invoice.zip',
  'index.json/',
  'INDEX.JSON',
  '/hello/SKILL.md',
  './hello/SKILL.md',
  `${'a'.repeat(64)}b.zip`,
  `${'a'.repeat(5000)}.zip`,
  `${'a/'.repeat(1000)}SKILL.md`,
  '%',
  '%zz',
  '%C0%AE%C0%AE/etc/passwd',
];

for (const kind of WITH_HANDLER) {
  test(`${kind}: traversal, encodings and odd paths name nothing, and leak nothing`, async (t) => {
    const root = tempTree(t, TREE);
    const catalog = await SkillCatalog.load(fsStorage(root), { onWarning: () => undefined });
    t.after(() => catalog.close());
    const server = await serveWellKnown(kind, catalog);
    t.after(server.close);
    const missing = await raw(server.origin, `GET ${PREFIX}nowhere.zip HTTP/1.1`);
    assert.equal(missing.status, 404);
    for (const path of TRAVERSALS) {
      const answer = await raw(server.origin, `GET ${PREFIX}${path} HTTP/1.1`);
      const text = answer.body.toString('utf8');
      for (const secret of SECRET_CONTENT) assert.ok(!text.includes(secret), `${path}: leaked ${secret}`);
      assert.ok(!text.includes('root:'), `${path}: leaked /etc/passwd`);
      // The framework may refuse a malformed URL first (400); anything that reaches the surface is its one 404.
      assert.ok(answer.status === 404 || answer.status === 400, `${path}: ${answer.status}`);
      if (answer.status === 404 && answer.head.includes('no-store')) assert.deepEqual(answer.body, missing.body, `${path}: the one 404`);
    }
    // A query string changes nothing: the path alone names the artifact.
    const withQuery = await raw(server.origin, `GET ${PREFIX}hello/SKILL.md?x=../../etc/passwd HTTP/1.1`);
    assert.equal(withQuery.status, 200);
    assert.equal(withQuery.body.toString(), TREE['hello/SKILL.md']);
  });

  test(`${kind}: the Host check, HEAD with a body, conditional abuse, many requests at once`, async (t) => {
    const root = tempTree(t, TREE);
    const catalog = await SkillCatalog.load(fsStorage(root), { onWarning: () => undefined });
    t.after(() => catalog.close());
    const server = await serveWellKnown(kind, catalog);
    t.after(server.close);
    const { hostname, port } = new URL(server.origin);

    // DNS rebinding: another Host gets 403 before any skill is read.
    const rebound = await new Promise<Raw>((resolve, reject) => {
      const socket = net.connect(Number(port), hostname);
      const chunks: Buffer[] = [];
      socket.on('data', (c) => chunks.push(c));
      socket.on('error', reject);
      socket.on('close', () => {
        const all = Buffer.concat(chunks);
        resolve({ status: Number(all.toString('latin1').split(' ')[1]), head: '', body: all });
      });
      socket.write(`GET ${PREFIX}index.json HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n`);
    });
    assert.equal(rebound.status, 403);
    assert.ok(!rebound.body.toString().includes('invoice'));

    const listed = await index(server.origin);
    const invoice = listed.skills.find((s) => s.name === 'invoice')!;
    // HEAD with a body: headers only, and the connection still works.
    const head = await raw(server.origin, `HEAD ${PREFIX}invoice.zip HTTP/1.1\r\nContent-Length: 5`, 'hello');
    assert.equal(head.status, 200);
    assert.match(head.head, new RegExp(`etag: "${invoice.digest}"`, 'i'));
    // A long If-None-Match list (within Node's header limit) that holds the digest last: still one 304.
    const many = Array.from({ length: 150 }, (_, i) => `"sha256:${String(i).padStart(64, '0')}"`);
    const long = await get(`${server.origin}${PREFIX}invoice.zip`, { headers: { 'if-none-match': [...many, `"${invoice.digest}"`].join(', ') } });
    assert.equal(long.status, 304);
    const junk = await get(`${server.origin}${PREFIX}invoice.zip`, { headers: { 'if-none-match': `${'W/'.repeat(100)}"x", ,,, "` } });
    assert.equal(junk.status, 200);
    assert.equal(sha256(junk.bytes), invoice.digest);
    // Request bodies are bounded as on the MCP route: a declared length over the limit is refused first.
    const big = await raw(server.origin, `GET ${PREFIX}index.json HTTP/1.1\r\nContent-Length: ${10 * 1024 * 1024}`);
    assert.equal(big.status, 413);

    // Many requests at once, within the response budget: each gets the whole, verified archive.
    const answers = await Promise.all(Array.from({ length: 60 }, () => get(`${server.origin}${PREFIX}invoice.zip`)));
    for (const answer of answers) {
      assert.equal(answer.status, 200);
      assert.equal(sha256(answer.bytes), invoice.digest);
    }
  });
}
