/**
 * Storages with the optional extras: a whole-tree `listAll()` and size + digest vouched for by the
 * storage. The catalog must use them without trusting them further than the wire rules allow.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { SkillCatalog, createSkillsEndpoint, entryProblems, memoryStorage, type SkillFileListing, type SkillFiles, type SkillResource } from '@skillmount/core';
import { connectClient, errorCode } from '../support/client.js';
import { demoTree, warnings } from './helpers.js';
import { listenHttp } from '../support/apps.js';
import { skillMd } from '../support/skill-md.js';

const sha = (content: string | Uint8Array) => 'sha256:' + createHash('sha256').update(content).digest('hex');

/** A storage with `listAll()` over a record of files; `extra` adds or overrides listing items. */
function flatStorage(files: Record<string, string>, extra: (listing: SkillFileListing[]) => SkillFileListing[] = (l) => l) {
  const inner = memoryStorage(files);
  const calls = { list: 0, listAll: 0, reads: [] as string[] };
  const storage: SkillFiles = {
    async list(dir) {
      calls.list++;
      return inner.list(dir);
    },
    async read(path) {
      calls.reads.push(path);
      return inner.read(path);
    },
    async listAll() {
      calls.listAll++;
      return extra(Object.keys(files).map((path) => ({ path, kind: 'file' as const, token: `t:${sha(files[path]!)}` })));
    },
  };
  return { storage, calls, inner };
}

describe('listAll(): one whole-tree listing', () => {
  test('is used instead of per-folder listings and gives the same catalog, implied folders included', async () => {
    const { storage, calls } = flatStorage(demoTree());
    const flat = await SkillCatalog.load(storage);
    const walked = await SkillCatalog.load(memoryStorage(demoTree()));
    assert.equal(calls.listAll, 1);
    assert.equal(calls.list, 0);
    assert.deepEqual(flat.entries, walked.entries);
    assert.deepEqual(await flat.readDirectory('skill://pdf-processing'), await walked.readDirectory('skill://pdf-processing'));
    assert.deepEqual(await flat.readDirectory('skill://acme/billing/refunds/templates'), await walked.readDirectory('skill://acme/billing/refunds/templates'));
  });

  test('paths with "..", ".", empty segments or a leading slash are never walked into or read', async () => {
    const weird = [
      '../outside/SKILL.md',
      'git-workflow/../pdf-processing/x.md',
      'git-workflow/./x.md',
      'git-workflow//x.md',
      '/etc/passwd',
      '',
      'pdf-processing/..',
    ];
    const { storage, calls } = flatStorage(demoTree(), (listing) => [...listing, ...weird.map((path) => ({ path, kind: 'file' as const }))]);
    const w = warnings();
    const catalog = await SkillCatalog.load(storage, { onWarning: w.onWarning });
    for (const p of calls.reads) assert.ok(Object.keys(demoTree()).includes(p), `read ${JSON.stringify(p)}`);
    for (const entry of catalog.entries) {
      assert.deepEqual(entryProblems(entry), []);
      for (const r of entry.resources as SkillResource[]) assert.ok(!r.uri.includes('..') && !r.uri.includes('//', 'skill://'.length), r.uri);
    }
    assert.ok(w.list.length > 0, 'the odd paths are reported');
  });

  test('a failing listAll rejects the load with a StorageError', async () => {
    const storage: SkillFiles = {
      list: async () => [],
      read: async () => new Uint8Array(),
      listAll: async () => {
        throw new Error('bucket unreachable');
      },
    };
    await assert.rejects(SkillCatalog.load(storage), (e: Error) => e.name === 'StorageError' && /bucket unreachable/.test(e.message));
  });
});

describe('size and digest vouched for by the storage', () => {
  const vouching = (
    files: Record<string, string>,
    vouch: (path: string, content: string) => { size?: unknown; digest?: unknown } = (_p, c) => ({ size: Buffer.byteLength(c), digest: sha(c) }),
  ) => flatStorage(files, (listing) => listing.map((item) => ({ ...item, ...(vouch(item.path, files[item.path]!) as { size?: number; digest?: string }) })));

  test('bodies other than SKILL.md are not read at load time; SKILL.md always is', async () => {
    const { storage, calls } = vouching(demoTree());
    const catalog = await SkillCatalog.load(storage);
    assert.deepEqual(
      calls.reads.sort(),
      Object.keys(demoTree())
        .filter((p) => p.endsWith('/SKILL.md'))
        .sort(),
    );
    assert.equal(catalog.bodiesRead, 3);
    const walked = await SkillCatalog.load(memoryStorage(demoTree()));
    assert.deepEqual(catalog.entries, walked.entries);
  });

  test('a wrong vouched digest is published, but the bytes are refused with -32603 when read', async () => {
    const files = demoTree();
    const { storage } = vouching(files, (p, c) =>
      p === 'git-workflow/references/commit-messages.md' ? { size: Buffer.byteLength(c), digest: sha('something else') } : {},
    );
    const w = warnings();
    const catalog = await SkillCatalog.load(storage, { onWarning: w.onWarning });
    const endpoint = createSkillsEndpoint({ source: catalog });
    const http = await listenHttp((req, res) => endpoint.handle(req, res, undefined));
    const client = await connectClient(http.url);
    try {
      assert.equal(await errorCode(client.client.readResource({ uri: 'skill://git-workflow/references/commit-messages.md' })), -32603);
      assert.equal(w.list.at(-1)?.code, 'changed');
      const ok = await client.client.readResource({ uri: 'skill://git-workflow/SKILL.md' });
      assert.equal((ok.contents[0] as { text: string }).text, skillMd('git-workflow'));
    } finally {
      await client.close();
      await endpoint.close();
      await http.close();
    }
  });

  test('a vouched digest that is not sha256:<64 lowercase hex> is ignored and the body is read', async () => {
    const files = demoTree();
    const { storage, calls } = vouching(files, (_p, c) => ({ size: Buffer.byteLength(c), digest: sha(c).toUpperCase() }));
    const catalog = await SkillCatalog.load(storage);
    assert.equal(calls.reads.length, Object.keys(files).length);
    for (const entry of catalog.entries) assert.deepEqual(entryProblems(entry), []);
  });

  test('a file listed again with the same token but another digest is taken from the digest (the storage read it again)', async () => {
    // A storage whose token cannot tell (a folder's, for an edit in the same timestamp tick) reads the file again and lists what it read.
    const files = demoTree();
    const { storage, inner } = flatStorage(files, (listing) =>
      listing.map((item) => ({ ...item, token: `same:${item.path}`, size: Buffer.byteLength(files[item.path]!), digest: sha(files[item.path]!) })),
    );
    const catalog = await SkillCatalog.load(storage);
    const reference = 'git-workflow/references/commit-messages.md';
    const digestOf = (path: string) =>
      (catalog.entries.find((e) => e.uri === 'skill://git-workflow/SKILL.md')!.resources as SkillResource[]).find((r) => r.uri === `skill://${path}`)!.digest;
    assert.equal((await catalog.reload()).listChanged, false, 'the same digests: nothing changed');
    for (const [path, content] of [
      [reference, 'Edited, and listed with the same token.\n'],
      ['git-workflow/SKILL.md', skillMd('git-workflow', 'Edited, with the same token.')],
    ] as const) {
      files[path] = content;
      inner.write(path, content);
      assert.deepEqual((await catalog.reload()).changed, ['skill://git-workflow/SKILL.md'], path);
      assert.equal(digestOf(path), sha(content), path);
      assert.equal(new TextDecoder().decode((await catalog.read(`skill://${path}`)).bytes), content, path);
    }
    assert.equal((await catalog.get('skill://git-workflow/SKILL.md')).frontmatter.description, 'Edited, with the same token.');
  });

  test('a vouched size that is not a non-negative integer never reaches an entry', async () => {
    for (const size of [-1, 1.5, NaN, Infinity, '9', null]) {
      const files = demoTree();
      const { storage } = vouching(files, (_p, c) => ({ size, digest: sha(c) }));
      let catalog: SkillCatalog;
      try {
        catalog = await SkillCatalog.load(storage, { onWarning: () => {} });
      } catch (error) {
        // refusing the storage outright is fine too, if the error says what was wrong
        assert.match(String(error), /size/, `size ${String(size)}`);
        continue;
      }
      for (const entry of catalog.entries) assert.deepEqual(entryProblems(entry), [], `size ${String(size)}: ${entry.uri}`);
    }
  });
});
