import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  OptionError,
  SEARCH_LIMITS,
  SkillCatalog,
  SkillSearchError,
  memoryStorage,
  searchEntries,
  type SkillEntry,
  type SkillFiles,
  type SkillSearchOptions,
} from '@skillmount/core';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fsStorage } from '@skillmount/storage-fs';
import { instrumented } from './helpers.js';
import { skillMd } from '../support/skill-md.js';

/** A small seeded generator (mulberry32), so every run draws the same catalog, rules and queries. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

// Few words, many shared: frequencies, prefixes (deploy, deployment) and typos (kubernetes, kubernets) all meet.
const WORDS = (
  'deploy deployment deploys kubernetes kubernets docker container pdf pdfs table tables spreadsheet invoice refund refunds ' +
  'billing audit security review test tests testing graph chart plot python rust query queries cache caches'
).split(' ');

/** `count` skills with names, descriptions, some versions and bodies drawn from WORDS. */
function generatedTree(count: number, next: () => number): Record<string, string> {
  const pick = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(next() * WORDS.length)]!).join(' ');
  const tree: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    const name = `${WORDS[i % WORDS.length]}-${i}`;
    const version = i % 3 === 0 ? `metadata:\n  version: "${1 + (i % 4)}.${i % 7}"\n` : '';
    tree[`group-${i % 4}/${name}/SKILL.md`] = skillMd(name, { description: pick(3 + (i % 9)), frontmatter: version, body: `# ${name}\n${pick(i % 12)}\n` });
  }
  return tree;
}

const QUERIES = [
  'deploy',
  'kubernetes docker',
  'kubernets',
  'pdf tables',
  'tes',
  'refund billing audit',
  'cache query',
  'chart plot python',
  'spredsheet',
  '1.2',
  'security review tests',
  'depl cont',
];

/** Every result of a search, page after page (`limit` per page), as URIs. */
function allResults(
  search: (options: SkillSearchOptions) => { skills: SkillEntry[]; nextCursor?: string },
  limit: number,
  visible?: (e: SkillEntry) => boolean,
): string[] {
  const uris: string[] = [];
  let cursor: string | undefined;
  do {
    const page = search({ limit, ...(cursor ? { cursor } : {}), ...(visible ? { visible } : {}) });
    assert.ok(page.skills.length <= limit);
    uris.push(...page.skills.map((s) => s.uri));
    cursor = page.nextCursor;
  } while (cursor);
  return uris;
}

describe('search: results under a visibility rule', () => {
  test('random rules over a generated catalog: every result list is that of a catalog holding only the visible skills', async () => {
    const next = random(2640);
    const tree = generatedTree(240, next);
    const catalog = await SkillCatalog.load(memoryStorage(tree), { search: { text: true } });
    for (let rule = 0; rule < 6; rule++) {
      const share = 0.2 + next() * 0.7;
      const hidden = new Set(catalog.entries.filter(() => next() > share).map((e) => e.uri));
      const visible = (entry: SkillEntry) => !hidden.has(entry.uri);
      const visibleTree = Object.fromEntries(Object.entries(tree).filter(([path]) => !hidden.has(`skill://${path}`)));
      const alone = await SkillCatalog.load(memoryStorage(visibleTree), { search: { text: true } });
      assert.equal(alone.entries.length, catalog.entries.length - hidden.size);
      for (const query of QUERIES) {
        const expected = allResults((o) => alone.search(query, o), 50);
        assert.ok(expected.length > 0, `"${query}" finds something`);
        assert.deepEqual(
          allResults((o) => catalog.search(query, o), 7, visible),
          expected,
          `rule ${rule}, "${query}"`,
        );
      }
    }
  });

  test('a catalog searched without a rule, searchEntries over its entries and over a copy rank alike', async () => {
    const catalog = await SkillCatalog.load(memoryStorage(generatedTree(60, random(7))), { search: true });
    for (const query of QUERIES) {
      const expected = allResults((o) => catalog.search(query, o), 50);
      assert.deepEqual(
        allResults((o) => searchEntries(catalog.entries, query, o), 50),
        expected,
      );
      assert.deepEqual(
        allResults((o) => searchEntries([...catalog.entries].reverse(), query, o), 50),
        expected,
      );
    }
  });
});

describe('search: index kept beside the catalog', () => {
  test('a reload updates the index to what a fresh load builds (added, removed, changed, body-only change)', async () => {
    const next = random(11);
    const tree = generatedTree(120, next);
    const storage = memoryStorage(tree);
    const catalog = await SkillCatalog.load(storage, { search: { text: true } });
    const paths = Object.keys(tree);
    const change = (path: string, text: string | undefined) => {
      if (text === undefined) {
        storage.remove(path.slice(0, -'/SKILL.md'.length));
        delete tree[path];
      } else {
        storage.write(path, text);
        tree[path] = text;
      }
    };
    for (const path of paths.slice(0, 5)) change(path, undefined);
    change('group-9/fresh-skill/SKILL.md', skillMd('fresh-skill', { description: 'kubernetes deployment for pdf tables' }));
    change(paths[10]!, skillMd(paths[10]!.split('/')[1]!, 'refund refund refund audit'));
    change(paths[11]!, skillMd(paths[11]!.split('/')[1]!, { description: 'unchanged words', body: '# kubernetes kubernetes deploy\n' }));
    const before = catalog.search('kubernetes', { limit: 1 });
    const report = await catalog.reload();
    assert.equal(report.added.length + report.removed.length + report.changed.length, 8);
    const fresh = await SkillCatalog.load(memoryStorage(tree), { search: { text: true } });
    assert.equal(fresh.entries.length, catalog.entries.length);
    for (const query of [...QUERIES, 'unchanged'])
      assert.deepEqual(
        allResults((o) => catalog.search(query, o), 50),
        allResults((o) => fresh.search(query, o), 50),
        query,
      );
    // A cursor from before the change is stale, not silently shifted.
    assert.throws(
      () => catalog.search('kubernetes', { cursor: before.nextCursor! }),
      (e: unknown) => e instanceof SkillSearchError && e.reason === 'cursor' && /stale/.test(e.message),
    );
  });

  test('search reads nothing more from storage, bodies included: the index takes the SKILL.md bytes the build read', async () => {
    const tree = generatedTree(30, random(3));
    const counted = async (search: boolean | { text: boolean }) => {
      const storage = instrumented(memoryStorage(tree));
      const catalog = await SkillCatalog.load(storage.files, { search });
      return { reads: storage.state.readCalls, catalog };
    };
    const plain = await counted(false);
    assert.ok(plain.reads >= 30, 'the build reads every SKILL.md');
    assert.equal((await counted(true)).reads, plain.reads);
    const text = await counted({ text: true });
    assert.equal(text.reads, plain.reads);
    // The bodies are indexed all the same: a word only a body holds finds its skill.
    const [path, body] = Object.entries(tree)[4]!;
    const word = /\b[a-z]{6,}\b/.exec(body.split('---')[2]!)?.[0];
    assert.ok(word, `${path} has a body word`);
    assert.ok(text.catalog.search(word).skills.length > 0, `"${word}" found through the bodies`);
  });

  test("a folder's first load (listed in batches) and a reload read no more with the bodies indexed than without", async (t) => {
    const root = await mkdtemp(path.join(tmpdir(), 'skillmount-search-bodies-'));
    t.after(() => rm(root, { recursive: true, force: true }));
    for (const name of ['alpha', 'beta', 'gamma']) {
      await mkdir(path.join(root, name));
      await writeFile(path.join(root, name, 'SKILL.md'), skillMd(name, { description: `The ${name} skill.`, body: `# ${name}\n\nzeppelin${name}\n` }));
    }
    /** A catalog of the folder with `search`, and the paths it asked the storage to read. */
    const counted = async (search: true | { text: true }) => {
      const storage = fsStorage(root);
      const reads: string[] = [];
      const counting = new Proxy(storage, {
        get(target, key) {
          if (key === 'read') {
            return (p: string, o?: { maxBytes?: number }) => {
              reads.push(p);
              return target.read(p, o);
            };
          }
          const value = Reflect.get(target, key);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      const catalog = await SkillCatalog.load(counting, { search });
      t.after(() => catalog.close());
      return { catalog, reads };
    };
    const names = await counted(true);
    const bodies = await counted({ text: true });
    assert.deepEqual(bodies.reads, names.reads, 'the load reads what it reads without the bodies');
    assert.deepEqual(
      bodies.catalog.search('zeppelinbeta').skills.map((s) => s.uri),
      ['skill://beta/SKILL.md'],
    );
    assert.deepEqual(names.catalog.search('zeppelinbeta').skills, [], 'without text, bodies are not searched');

    await writeFile(path.join(root, 'beta', 'SKILL.md'), skillMd('beta', { description: 'The beta skill.', body: '# beta\n\nairshipbeta\n' }));
    for (const { reads } of [names, bodies]) reads.length = 0;
    assert.deepEqual((await names.catalog.reload()).changed, ['skill://beta/SKILL.md']);
    assert.deepEqual((await bodies.catalog.reload()).changed, ['skill://beta/SKILL.md']);
    assert.deepEqual(bodies.reads, names.reads, 'the reload reads what it reads without the bodies');
    assert.deepEqual(
      bodies.catalog.search('airshipbeta').skills.map((s) => s.uri),
      ['skill://beta/SKILL.md'],
    );
    assert.deepEqual(bodies.catalog.search('zeppelinbeta').skills, []);
  });

  test('the SKILL.md bytes a load keeps for the index are bounded (32 MiB): beyond that, bodies are read again, and all indexed', async () => {
    // 40 SKILL.md of 1,000,000 bytes each: 33 fit in 32 MiB (33,554,432 bytes), 7 do not.
    const tree: Record<string, string> = {};
    for (let i = 0; i < 40; i++) {
      const head = skillMd(`big-${i}`, { body: `# big ${i}\n\nmarker${i}word\n` });
      tree[`big-${i}/SKILL.md`] = head + 'filler '.repeat(Math.ceil((1_000_000 - head.length) / 7)).slice(0, 1_000_000 - head.length);
    }
    const counted = async (search: true | { text: true }) => {
      const storage = instrumented(memoryStorage(tree));
      const catalog = await SkillCatalog.load(storage.files, { search });
      return { reads: storage.state.readCalls, catalog };
    };
    const names = await counted(true);
    const bodies = await counted({ text: true });
    assert.equal(bodies.catalog.entries.length, 40);
    assert.equal(bodies.reads - names.reads, 7, 'the 7 SKILL.md beyond the bound are read again for the index');
    for (const i of [0, 20, 39])
      assert.deepEqual(
        bodies.catalog.search(`marker${i}word`).skills.map((s) => s.uri),
        [`skill://big-${i}/SKILL.md`],
      );
  });

  test('a storage whose batched listing brings the bytes along: the bodies are indexed with no read at all', async () => {
    const tree = { 'alpha/SKILL.md': skillMd('alpha', { body: '# alpha\n\nzeppelinalpha\n' }), 'beta/SKILL.md': skillMd('beta') };
    const memory = memoryStorage(tree);
    let reads = 0;
    const bringing: SkillFiles = {
      list: (dir) => memory.list(dir),
      read: (p, o) => {
        reads++;
        return memory.read(p, o);
      },
      async *listAllBatches() {
        const encoder = new TextEncoder();
        yield [
          { path: 'alpha', kind: 'directory' },
          { path: 'beta', kind: 'directory' },
          ...Object.entries(tree).map(([p, text]) => ({ path: p, kind: 'file' as const, content: encoder.encode(text) })),
        ];
      },
    };
    const catalog = await SkillCatalog.load(bringing, { search: { text: true } });
    assert.equal(reads, 0, 'the listing brought every SKILL.md: none is read, for the build or for the index');
    assert.deepEqual(
      catalog.search('zeppelinalpha').skills.map((s) => s.uri),
      ['skill://alpha/SKILL.md'],
    );
  });

  test('search off, and bad search options, are refused', async () => {
    const catalog = await SkillCatalog.load(memoryStorage(generatedTree(3, random(1))));
    assert.throws(
      () => catalog.search('pdf'),
      (e: unknown) => e instanceof SkillSearchError && e.reason === 'off' && e.code === -32603,
    );
    for (const search of ['yes', { text: 1 }, { rerank: 'reverse' }] as never[]) {
      await assert.rejects(SkillCatalog.load(memoryStorage({}), { search }), OptionError);
    }
  });

  test('a rerank hook reorders the lexical candidates and cannot add skills', async () => {
    const tree = generatedTree(40, random(5));
    const outsider = {
      entry: { uri: 'skill://outsider/SKILL.md', frontmatter: { name: 'outsider', description: 'x' }, resources: 'dynamic' as const },
      score: 99,
    };
    const catalog = await SkillCatalog.load(memoryStorage(tree), {
      // The lexical order reversed (a later candidate scores higher), group-0 dropped, an outsider offered.
      search: {
        rerank: (candidates) => [outsider, ...candidates.map((c, i) => ({ entry: c.entry, score: i })).filter((c) => !c.entry.uri.includes('group-0'))],
      },
    });
    const plain = await SkillCatalog.load(memoryStorage(tree), { search: true });
    const lexical = allResults((o) => plain.search('deploy', o), 50);
    const reranked = allResults((o) => catalog.search('deploy', o), 50);
    assert.deepEqual(reranked, lexical.filter((uri) => !uri.includes('group-0')).reverse());
  });
});

describe('search: bounds and bad input', () => {
  const entries = (() => {
    const tree = generatedTree(80, random(9));
    return Object.entries(tree).map(([path, text]) => ({
      uri: `skill://${path}`,
      frontmatter: { name: path.split('/')[1]!, description: /description: (".*")/.exec(text)![1] ? JSON.parse(/description: (".*")/.exec(text)![1]!) : '' },
      resources: 'dynamic' as const,
    }));
  })();
  const refused = (query: unknown, options: SkillSearchOptions, reason: string, pattern: RegExp) =>
    assert.throws(
      () => searchEntries(entries, query as string, options),
      (e: unknown) => e instanceof SkillSearchError && e.reason === reason && e.code === -32602 && pattern.test(e.message),
      `${String(query).slice(0, 20)} ${JSON.stringify(options)}`,
    );

  test('bad queries and limits get an error naming the problem and the limit', () => {
    refused(42, {}, 'query', /must be a string, got number/);
    refused('', {}, 'query', /empty/);
    refused('   ', {}, 'query', /empty/);
    refused('x'.repeat(SEARCH_LIMITS.maxQueryLength + 1), {}, 'query', new RegExp(`at most ${SEARCH_LIMITS.maxQueryLength}`));
    refused('pdf\u0000tables', {}, 'query', /control character \(U\+0000\)/);
    refused('pdf\ttables', {}, 'query', /control character \(U\+0009\)/);
    refused(Array.from({ length: SEARCH_LIMITS.maxTerms + 1 }, (_, i) => `word${i}`).join(' '), {}, 'query', new RegExp(`at most ${SEARCH_LIMITS.maxTerms}`));
    for (const limit of [0, -1, 1.5, '5', Number.NaN]) refused('pdf', { limit: limit as number }, 'limit', /integer from 1 to 50/);
    // Repeated and stop words do not count against the limit; a query of stop words alone finds nothing.
    assert.ok(searchEntries(entries, `${'deploy '.repeat(20)}the and of`).skills.length > 0);
    assert.deepEqual(searchEntries(entries, 'the and of ?!').skills, []);
    assert.equal(
      searchEntries(entries, 'deploy', { limit: 500 }).skills.length,
      Math.min(SEARCH_LIMITS.maxLimit, allResults((o) => searchEntries(entries, 'deploy', o), 50).length),
    );
    assert.throws(() => searchEntries(entries, 'pdf', { visible: true as never }), TypeError);
  });

  test('cursors page through the results once each, and foreign or forged cursors are refused', () => {
    const all = allResults((o) => searchEntries(entries, 'deploy kubernetes', o), 50);
    assert.ok(all.length > 6);
    assert.deepEqual(
      allResults((o) => searchEntries(entries, 'deploy kubernetes', o), 3),
      all,
    );
    assert.equal(new Set(all).size, all.length);
    const first = searchEntries(entries, 'deploy kubernetes', { limit: 2 });
    refused('pdf tables', { cursor: first.nextCursor! }, 'cursor', /another query/);
    const forged = btoa(`s1.0.${SEARCH_LIMITS.maxResults.toString(36)}.${atob(first.nextCursor!).split('.')[3]}`).replace(/=+$/, '');
    refused('deploy kubernetes', { cursor: forged }, 'cursor', /not one this server gave/);
    for (const cursor of ['', 'x'.repeat(65), 'not a cursor!', btoa('a1:skill://x/SKILL.md')])
      refused('deploy kubernetes', { cursor }, 'cursor', /not one this server gave/);
    refused('deploy kubernetes', { cursor: 7 as never }, 'cursor', /must be a string/);
  });
});
