/**
 * Our storage adapters plugged into the official SDK v2 catalog (`SkillsExtension.load` from
 * @modelcontextprotocol/server): it must build the same skill entries from them as our own
 * `SkillCatalog` does, and as it builds from its own adapters.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { SkillsExtension, memorySkillFiles } from '@modelcontextprotocol/server/ext/skills';
import { nodeSkillFiles } from '@modelcontextprotocol/server/ext/skills/node';
import { SkillCatalog, memoryStorage, type SkillFiles } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import { EXAMPLES, exampleFiles } from '../support/skills-suite.js';

interface Comparable {
  uri: string;
  frontmatter: Record<string, unknown>;
  resources: unknown;
}

/** The parts of an entry both catalogs publish, with entries and files in URI order (order is not part of the contract). */
function comparable(entries: readonly Comparable[]): Comparable[] {
  const byUri = (a: { uri: string }, b: { uri: string }) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0);
  return entries
    .map(({ uri, frontmatter, resources }) => ({
      uri,
      frontmatter,
      resources: Array.isArray(resources) ? resources.map(({ uri, digest, size }) => ({ uri, digest, size })).sort(byUri) : resources,
    }))
    .sort(byUri);
}

/** One line per difference, so a failure says where the two catalogs part ways. */
function differences(ours: Comparable[], theirs: Comparable[]): string[] {
  const lines: string[] = [];
  const theirsByUri = new Map(theirs.map((e) => [e.uri, e]));
  const oursByUri = new Map(ours.map((e) => [e.uri, e]));
  for (const e of ours) if (!theirsByUri.has(e.uri)) lines.push(`entry only in SkillCatalog: ${e.uri}`);
  for (const e of theirs) if (!oursByUri.has(e.uri)) lines.push(`entry only in SkillsExtension: ${e.uri}`);
  for (const o of ours) {
    const t = theirsByUri.get(o.uri);
    if (!t) continue;
    if (JSON.stringify(o.frontmatter) !== JSON.stringify(t.frontmatter)) {
      lines.push(`${o.uri} frontmatter: SkillCatalog ${JSON.stringify(o.frontmatter)}, SkillsExtension ${JSON.stringify(t.frontmatter)}`);
    }
    const files = (r: unknown) => (Array.isArray(r) ? r.map((x) => `${x.uri} ${x.size} ${x.digest}`) : [JSON.stringify(r)]);
    const [of, tf] = [files(o.resources), files(t.resources)];
    for (const f of of) if (!tf.includes(f)) lines.push(`${o.uri} resource only in SkillCatalog: ${f}`);
    for (const f of tf) if (!of.includes(f)) lines.push(`${o.uri} resource only in SkillsExtension: ${f}`);
  }
  return lines;
}

type Options = { prefix?: string };

/** Load the same storage into both catalogs and assert they publish the same entries. */
async function assertSameEntries(makeStorage: () => SkillFiles, options: Options = {}): Promise<Comparable[]> {
  const warnings: string[] = [];
  const ours = comparable(
    (await SkillCatalog.load(makeStorage(), { ...options, onWarning: (w) => warnings.push(`SkillCatalog: ${w.path ?? w.uri ?? ''}: ${w.message}`) })).entries,
  );
  const theirs = comparable(
    (await SkillsExtension.load(makeStorage(), { ...options, onWarning: (w) => warnings.push(`SkillsExtension: ${w.path}: ${w.message}`) })).entries,
  );
  const diff = differences(ours, theirs);
  assert.ok(diff.length === 0, `SkillCatalog and SkillsExtension disagree:\n${diff.join('\n')}\nwarnings:\n${warnings.join('\n') || '(none)'}`);
  assert.deepEqual(ours, theirs);
  return ours;
}

/** The examples folder as an in-memory record. */
const exampleRecord = (): Record<string, Uint8Array> =>
  Object.fromEntries(exampleFiles().map((f) => [f, new Uint8Array(readFileSync(path.join(EXAMPLES, f)))]));

describe('official SDK v2 SkillsExtension on our storage adapters', () => {
  test('examples/skills through fsStorage: the same entries as SkillCatalog', async () => {
    const entries = await assertSameEntries(() => fsStorage(EXAMPLES));
    assert.equal(entries.length, 3);
  });

  test('examples/skills through memoryStorage: the same entries as SkillCatalog', async () => {
    const record = exampleRecord();
    const entries = await assertSameEntries(() => memoryStorage(record));
    assert.equal(entries.length, 3);
  });

  test('our adapters give SkillsExtension what its own adapters give it', async () => {
    const record = exampleRecord();
    const load = async (files: SkillFiles) => comparable((await SkillsExtension.load(files, { onWarning: () => {} })).entries);
    const own = await load(nodeSkillFiles(EXAMPLES));
    assert.ok(own.length > 0, 'SkillsExtension found skills in examples/skills');
    assert.deepEqual(await load(fsStorage(EXAMPLES)), own, 'fsStorage vs nodeSkillFiles');
    assert.deepEqual(await load(memoryStorage(record)), await load(memorySkillFiles(record)), 'memoryStorage vs memorySkillFiles');
    assert.deepEqual(await load(memoryStorage(record)), own, 'memoryStorage vs nodeSkillFiles');
  });

  describe('a generated tree: nesting, a prefix, unicode, spaces and & in names', () => {
    const tree: Record<string, string | Uint8Array> = {
      'alpha/SKILL.md':
        '---\nname: alpha\ndescription: >-\n  A folded description\n  over two lines.\nlicense: MIT\nmetadata:\n  author: "R&D team"\n  version: "1.0"\n---\n# Alpha\n\nSee [notes](docs/read me.md).\n',
      'alpha/docs/read me.md': 'a file name with a space\n',
      'alpha/docs/R&D notes.txt': 'a file name with an ampersand\n',
      'alpha/données/café.md': 'unicode folder and file names\n',
      'alpha/bin/data.bin': new Uint8Array([0, 0xff, 1, 0xfe, 0x80, 0xc3]),
      'alpha/.DS_Store': 'hidden files are not part of a skill',
      'alpha/inner/beta/SKILL.md': '---\nname: beta\ndescription: A skill nested inside alpha.\n---\nNested.\n',
      'alpha/inner/beta/ref.md': 'nested reference\n',
      'team/tools/gamma/SKILL.md':
        '\uFEFF---\r\nname: gamma\r\ndescription: "CRLF line ends, a BOM, and a colon: here"\r\nallowed-tools: Bash(git:*) Read\r\n---\r\nBody.\r\n',
      'team/tools/gamma/scripts/run.sh': '#!/bin/sh\necho gamma\n',
      'team/tools/gamma/日本語/ファイル.txt': 'CJK names\n',
      'r&d/delta/SKILL.md': '---\nname: delta\ndescription: A top folder with an ampersand, the URI authority without a prefix.\n---\nDelta.\n',
      '.git/HEAD': 'ref: refs/heads/main\n',
    };
    let dir: string;
    before(() => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'skillmount-peer-tree-'));
      for (const [file, content] of Object.entries(tree)) {
        mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        writeFileSync(path.join(dir, file), content);
      }
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    for (const options of [{}, { prefix: 'acme/billing' }] as Options[]) {
      const label = options.prefix ? ` with prefix ${options.prefix}` : '';
      test(`fsStorage${label}`, async () => {
        const entries = await assertSameEntries(() => fsStorage(dir), options);
        assert.equal(entries.length, 4, 'alpha, the nested beta, gamma and delta');
      });
      test(`memoryStorage${label}`, async () => {
        const entries = await assertSameEntries(() => memoryStorage(tree), options);
        assert.equal(entries.length, 4, 'alpha, the nested beta, gamma and delta');
      });
    }
  });

  // Valid YAML that the official parser does not read: we serve it, with a warning that such hosts
  // will not load the skill. Every other case must agree exactly.
  const SERVED_WITH_PORTABILITY_WARNING = new Set(['anchors and aliases', 'a flow mapping']);

  test('both catalogs serve and refuse the same SKILL.md frontmatter', async () => {
    const cases: Record<string, string> = {
      'folded and literal blocks': 'description: >-\n  a\n  b\nnotes: |\n  one\n  two',
      'YAML 1.2 core scalars': 'description: d\nflag: yes\nversion: 1.0\nempty: ~\ncreated: 2024-01-01',
      'nested values': 'description: d\nx:\n  y: [1, "2", {z: w}]',
      'escapes and quotes': "description: \"caf\\u00e9 \\t tab\"\nsingle: 'it''s'",
      comments: 'description: d # trailing\n# full line\nlicense: MIT',
      'string metadata': 'description: d\nmetadata:\n  a: "1"\n  b: x',
      'anchors and aliases': 'description: d\nbase: &b {k: v}\ncopy: *b',
      'a flow mapping': '{name: alpha, description: d}',
      'metadata with a number': 'description: d\nmetadata:\n  version: 1.0',
      'metadata with a list': 'description: d\nmetadata:\n  tags: [a, b]',
      'compatibility over 500 characters': `description: d\ncompatibility: ${'x'.repeat(501)}`,
      'description over 1024 characters': `description: ${'x'.repeat(1025)}`,
      'a duplicated key': 'description: d\ndescription: e',
    };
    const disagreements: string[] = [];
    for (const [label, yaml] of Object.entries(cases)) {
      const text = `---\n${yaml.startsWith('{') ? yaml : `name: alpha\n${yaml}`}\n---\nbody\n`;
      const files = { 'alpha/SKILL.md': text };
      const warnings: string[] = [];
      const ours = (await SkillCatalog.load(memoryStorage(files), { onWarning: (w) => warnings.push(`SkillCatalog: ${w.message}`) })).entries[0];
      const theirs = (await SkillsExtension.load(memoryStorage(files), { onWarning: (w) => warnings.push(`SkillsExtension: ${w.message}`) })).entries[0];
      const show = (e: { frontmatter: unknown } | undefined) => (e ? `serves ${JSON.stringify(e.frontmatter).slice(0, 120)}` : 'refuses it');
      if (SERVED_WITH_PORTABILITY_WARNING.has(label)) {
        assert.ok(ours && !theirs, `${label}: we serve it and the official catalog refuses it`);
        assert.ok(
          warnings.some((w) => w.startsWith('SkillCatalog: frontmatter uses')),
          `${label}: we warn that some hosts cannot parse it`,
        );
        continue;
      }
      if (JSON.stringify(ours?.frontmatter) !== JSON.stringify(theirs?.frontmatter)) {
        disagreements.push(`${label}: SkillCatalog ${show(ours)}; SkillsExtension ${show(theirs)} (${warnings.join('; ')})`);
      }
    }
    assert.ok(
      disagreements.length === 0,
      `the catalogs disagree on ${disagreements.length} of ${Object.keys(cases).length} cases:\n${disagreements.join('\n')}`,
    );
  });
});
