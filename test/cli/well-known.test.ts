/**
 * `skillmount ls --well-known <site>` and `get --well-known <site> <name> [file]` read a site's
 * /.well-known/agent-skills index (a skillmount server here), verify every artifact's digest,
 * and refuse a site whose artifact does not match its digest or whose archive holds unsafe paths.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { zipSync } from 'fflate';
import { SkillCatalog } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import { listenHttp } from '../support/apps.js';
import { tempTree } from '../support/trees.js';
import { serveWellKnown } from '../well-known/fixture.js';
import { INVOICE_VERSION, TREE } from '../well-known/tree.js';

const BIN = path.resolve(import.meta.dirname, '../../packages/cli/dist/bin.js');
const run = promisify(execFile);

async function cli(...args: string[]): Promise<{ code: number; stdout: Buffer; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { encoding: 'buffer', timeout: 60_000 });
    return { code: 0, stdout, stderr: stderr.toString() };
  } catch (error) {
    const e = error as { code: number; stdout: Buffer; stderr: Buffer };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr.toString() };
  }
}

test('ls and get --well-known: every skill listed after its digest is checked; files come out byte for byte', { timeout: 120_000 }, async (t) => {
  const root = tempTree(t, TREE);
  const catalog = await SkillCatalog.load(fsStorage(root), { onWarning: () => undefined });
  t.after(() => catalog.close());
  const server = await serveWellKnown('fastify', catalog);
  t.after(server.close);

  const listed = await cli('ls', '--well-known', '--json', server.origin);
  assert.equal(listed.code, 0, listed.stderr);
  const rows = JSON.parse(listed.stdout.toString()) as { name: string; type: string; files: number; version?: string }[];
  // invoice names its version (metadata.version, published in the index); the others have none, and no version key.
  assert.deepEqual(rows.map((r) => [r.name, r.type, r.files, 'version' in r ? r.version : 'none']).sort(), [
    ['hello', 'skill-md', 1, 'none'],
    ['invoice', 'archive', 6, INVOICE_VERSION],
    ['tax-rules', 'archive', 2, 'none'],
  ]);
  const table = await cli('ls', '--well-known', `${server.origin}/.well-known/agent-skills/index.json`);
  assert.equal(table.code, 0);
  assert.match(table.stdout.toString(), /^NAME +VERSION +TYPE +FILES +SIZE +DESCRIPTION\n/);
  assert.match(table.stdout.toString(), /\ninvoice +2\.1\.0 +archive +6 /);
  assert.match(table.stdout.toString(), /\nhello +- +skill-md +1 /);
  assert.match(table.stderr, /3 skills, every digest verified/);

  for (const [name, file, stored] of [
    ['invoice', 'assets/logo.bin', 'acme/billing/invoice/assets/logo.bin'],
    ['invoice', 'données/résumé.md', 'acme/billing/invoice/données/résumé.md'],
    ['hello', undefined, 'hello/SKILL.md'],
  ] as const) {
    const got = await cli('get', '--well-known', server.origin, name, ...(file ? [file] : []));
    assert.equal(got.code, 0, got.stderr);
    assert.deepEqual(got.stdout, readFileSync(path.join(root, stored)), `${name} ${file ?? 'SKILL.md'}`);
  }
  const unknown = await cli('get', '--well-known', server.origin, 'nowhere');
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /no skill named "nowhere"/);
});

test('ls and get --well-known refuse an artifact that does not match its digest, and an archive with an unsafe path', { timeout: 120_000 }, async (t) => {
  const skillMd = Buffer.from('---\nname: tampered\ndescription: x\n---\n');
  const evil = zipSync({ 'SKILL.md': skillMd, '../escape.sh': Buffer.from('rm -rf ~\n') });
  const digest = (bytes: Uint8Array) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
  const index = {
    $schema: 'https://schemas.agentskills.io/discovery/0.2.0/schema.json',
    skills: [
      { name: 'tampered', description: 'Its bytes changed.', type: 'skill-md', url: 'tampered/SKILL.md', digest: digest(Buffer.from('something else')) },
      { name: 'escape', description: 'Climbs out.', type: 'archive', url: 'escape.zip', digest: digest(evil) },
      { name: 'Bad Name', description: 'Skipped.', type: 'skill-md', url: 'x', digest: digest(skillMd) },
    ],
  };
  const site = await listenHttp((req, res) => {
    const files: Record<string, Uint8Array> = {
      '/.well-known/agent-skills/index.json': Buffer.from(JSON.stringify(index)),
      '/.well-known/agent-skills/tampered/SKILL.md': skillMd,
      '/.well-known/agent-skills/escape.zip': evil,
    };
    const body = files[req.url ?? ''];
    res.writeHead(body ? 200 : 404).end(body);
  }, '');
  t.after(site.close);

  const listed = await cli('ls', '--well-known', site.url);
  assert.equal(listed.code, 1);
  assert.match(listed.stderr, /refused: tampered: .* has digest sha256:[0-9a-f]{64}, not the sha256:[0-9a-f]{64} the index publishes/);
  assert.match(listed.stderr, /refused: escape: the archive holds an unsafe path "\.\.\/escape\.sh"/);
  assert.match(listed.stderr, /skills\[2\]: invalid name, skipped/);
  const got = await cli('get', '--well-known', site.url, 'tampered');
  assert.equal(got.code, 1);
  assert.equal(got.stdout.length, 0, 'nothing unverified reaches stdout');
});
