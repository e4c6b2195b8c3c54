/**
 * SKILL.md frontmatter parsing is bounded: SKILL.md and frontmatter size, nesting depth and node
 * count are checked before each costly step, and duplicate keys are found in one pass. Every
 * attack from the review (key floods, 3000-level nesting, a 15 MiB scalar) is refused with its
 * reason, by the parser, by a catalog load and by the entry builder.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CatalogError,
  MAX_FRONTMATTER_BYTES,
  MAX_FRONTMATTER_DEPTH,
  MAX_FRONTMATTER_NODES,
  MAX_SKILL_MD_BYTES,
  SkillCatalog,
  buildSkillEntry,
  memoryStorage,
  parseFrontmatter,
} from '@skillmount/core';
import { HOSTILE_SKILL_MDS } from '../support/hostile-skillmd.js';
import { warnings } from './helpers.js';
import { skillMd } from '../support/skill-md.js';

function refusal(text: string): { code: string; error: string } {
  const r = parseFrontmatter(text);
  assert.equal(r.ok, false, 'expected a refusal');
  return r as { ok: false; code: string; error: string };
}

const accepted = (text: string) => {
  const r = parseFrontmatter(text);
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r.frontmatter;
};

describe('hostile SKILL.md files are refused with their reason', () => {
  for (const [key, hostile] of Object.entries(HOSTILE_SKILL_MDS)) {
    test(`parseFrontmatter: ${hostile.label}`, () => {
      const r = refusal(hostile.text('evil'));
      assert.match(r.error, hostile.refusal);
      assert.equal(r.code, key === 'lateDuplicate' ? 'frontmatter' : 'limit');
    });
  }

  test('a catalog skips each one with a warning naming its file and the limit, and serves the others', async () => {
    const cases = Object.entries(HOSTILE_SKILL_MDS).map(([key, hostile], i) => ({ key, hostile, name: `evil-${i}` }));
    const files: Record<string, string> = { 'good/SKILL.md': skillMd('good') };
    for (const { hostile, name } of cases) files[`${name}/SKILL.md`] = hostile.text(name);
    const w = warnings();
    const catalog = await SkillCatalog.load(memoryStorage(files), { onWarning: w.onWarning });
    assert.deepEqual(
      catalog.entries.map((e) => e.uri),
      ['skill://good/SKILL.md'],
    );
    assert.equal(w.list.length, cases.length, JSON.stringify(w.list.map((x) => [x.path, x.message.slice(0, 100)])));
    for (const { key, hostile, name } of cases) {
      const warning = w.list.find((x) => x.path === `${name}/SKILL.md`);
      assert.ok(warning, `${hostile.label}: a warning for ${name}/SKILL.md`);
      assert.match(warning.message, /^skill skipped: /);
      assert.match(warning.message, hostile.refusal, hostile.label);
      assert.equal(warning.code, key === 'lateDuplicate' ? 'frontmatter' : 'limit');
      assert.equal(warning.uri, `skill://${name}/SKILL.md`);
    }
  });

  test('under strict, the load fails with one CatalogError naming every hostile file', async () => {
    const files = {
      'good/SKILL.md': skillMd('good'),
      'deep/SKILL.md': HOSTILE_SKILL_MDS.flowSeqNesting!.text('deep'),
      'flood/SKILL.md': HOSTILE_SKILL_MDS.keys60k!.text('flood'),
      'huge/SKILL.md': HOSTILE_SKILL_MDS.scalar15MiB!.text('huge'),
    };
    await assert.rejects(SkillCatalog.load(memoryStorage(files), { strict: true }), (error: unknown) => {
      assert.ok(error instanceof CatalogError, String(error));
      assert.deepEqual(error.problems.map((p) => p.path).sort(), ['deep/SKILL.md', 'flood/SKILL.md', 'huge/SKILL.md']);
      assert.match(error.message, /deep\/SKILL\.md: skill skipped: .*32 levels deep/);
      assert.match(error.message, /flood\/SKILL\.md: skill skipped: the frontmatter is \d+ bytes; the limit is 64 KiB/);
      assert.match(error.message, /huge\/SKILL\.md: skill skipped: SKILL\.md is \d+ bytes; the limit is 1 MiB/);
      return true;
    });
  });

  test('buildSkillEntry refuses them too, with the limit code', () => {
    assert.throws(
      () => buildSkillEntry('team/deep', { 'SKILL.md': HOSTILE_SKILL_MDS.blockNesting!.text('deep') }),
      (error: unknown) => error instanceof CatalogError && error.problems[0]?.code === 'limit' && /32 levels deep/.test(error.message),
    );
  });
});

describe('the limits, exactly', () => {
  const withBody = (bytes: number) => {
    const start = '---\nname: a\ndescription: d\n---\n';
    return start + 'x'.repeat(bytes - start.length);
  };
  const withFrontmatter = (bytes: number) => {
    const start = 'name: a\ndescription: d\nfiller: ';
    return `---\n${start}${'x'.repeat(bytes - start.length - 1)}\n---\nbody\n`;
  };
  const flowNesting = (levels: number) => `---\nname: a\nx: ${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}\n---\n`;
  const blockNesting = (levels: number) => {
    const lines = ['name: a', 'x:'];
    for (let i = 1; i < levels - 1; i++) lines.push(`${' '.repeat(i)}a:`);
    lines.push(`${' '.repeat(levels - 1)}v: 1`);
    return `---\n${lines.join('\n')}\n---\n`;
  };
  // The top mapping, name and description (4 nodes), the key x and its list: 7 nodes besides the items.
  const nodes = (count: number) => `---\nname: a\ndescription: d\nx: [${'1,'.repeat(count - 7)}]\n---\n`;

  test(`SKILL.md: ${MAX_SKILL_MD_BYTES} bytes are read, one more is refused`, () => {
    assert.equal(MAX_SKILL_MD_BYTES, 1024 * 1024);
    assert.equal(Buffer.byteLength(withBody(MAX_SKILL_MD_BYTES)), MAX_SKILL_MD_BYTES);
    accepted(withBody(MAX_SKILL_MD_BYTES));
    assert.match(refusal(withBody(MAX_SKILL_MD_BYTES + 1)).error, /SKILL\.md is 1048577 bytes; the limit is 1 MiB/);
    // Counted in bytes, not characters: 'é' is two.
    assert.match(refusal(withBody(MAX_SKILL_MD_BYTES).replace('x', 'é')).error, /SKILL\.md is 1048577 bytes/);
  });

  test(`frontmatter: ${MAX_FRONTMATTER_BYTES} bytes are parsed, one more is refused`, () => {
    assert.equal(MAX_FRONTMATTER_BYTES, 64 * 1024);
    assert.equal(String(accepted(withFrontmatter(MAX_FRONTMATTER_BYTES)).filler).length, MAX_FRONTMATTER_BYTES - 'name: a\ndescription: d\nfiller: \n'.length);
    const r = refusal(withFrontmatter(MAX_FRONTMATTER_BYTES + 1));
    assert.equal(r.code, 'limit');
    assert.match(r.error, /the frontmatter is 65537 bytes; the limit is 64 KiB/);
  });

  test(`nesting: ${MAX_FRONTMATTER_DEPTH} levels are parsed, one more is refused, in flow and block style`, () => {
    assert.equal(MAX_FRONTMATTER_DEPTH, 32);
    let value: unknown = accepted(flowNesting(32)).x;
    let depth = 1;
    while (Array.isArray(value)) [value, depth] = [value[0], depth + 1];
    assert.equal(depth, 32);
    assert.match(refusal(flowNesting(33)).error, /more than 32 levels deep \(the limit\) at SKILL\.md line 3/);
    accepted(blockNesting(32));
    assert.match(refusal(blockNesting(33)).error, /more than 32 levels deep \(the limit\) at SKILL\.md line 35/);
  });

  test(`nodes: ${MAX_FRONTMATTER_NODES} are parsed, one more is refused`, () => {
    assert.equal(MAX_FRONTMATTER_NODES, 10_000);
    assert.equal((accepted(nodes(10_000)).x as unknown[]).length, 10_000 - 7);
    const r = refusal(nodes(10_001));
    assert.equal(r.code, 'limit');
    assert.match(r.error, /more than 10000 YAML nodes/);
  });

  test('aliases cannot stack collections past the depth limit', () => {
    // 20 levels written once, then nested again through an alias: 39 levels once expanded.
    const deep = `${'['.repeat(19)}${']'.repeat(19)}`;
    const text = `---\nname: a\nbase: &b ${deep}\ncopy: ${'['.repeat(19)}*b${']'.repeat(19)}\n---\n`;
    const r = refusal(text);
    assert.equal(r.code, 'limit');
    assert.match(r.error, /frontmatter field \$\.copy(\[0\])+ cannot be sent as JSON: it nests more than 32 levels deep once aliases are expanded/);
  });
});

describe('duplicate keys, found in one pass', () => {
  test('the message names the key and both lines of SKILL.md', () => {
    assert.match(
      refusal('---\nname: a\ndescription: d\nname: b\n---\n').error,
      /^invalid YAML frontmatter: duplicate key "name" at SKILL\.md line 4 \(first given at line 2\); keys of a mapping must be unique, keep one$/,
    );
    assert.match(
      refusal('---\nname: a\nmetadata:\n  owner: x\n  team: y\n  owner: z\n---\n').error,
      /duplicate key "owner" at SKILL\.md line 6 \(first given at line 4\)/,
    );
    // Two on one line are told apart by column.
    assert.match(refusal('---\nname: a\nx: [{k: 1, k: 2}]\n---\n').error, /duplicate key "k" at SKILL\.md line 3, column 12 \(first given at column 6\)/);
  });

  test('keys are compared as YAML 1.2 core values: 1 and 1.0, null and ~, 0x1f and 31 are the same key', () => {
    for (const [yaml, key] of [
      ['1: a\n1.0: b', '1.0'],
      ['null: a\n~: b', '~'],
      ['0x1f: a\n31: b', '31'],
      ['a: 1\n"a": 2', 'a'],
    ] as const) {
      assert.match(refusal(`---\n${yaml}\n---\n`).error, new RegExp(`duplicate key "${key.replace('.', '\\.')}"`), yaml);
    }
  });

  test('.nan given twice is refused, not merged into one field', () => {
    assert.match(refusal('---\nname: a\n.nan: 1\n.nan: 2\n---\n').error, /duplicate key "\.nan"/);
  });

  test('a key written with control characters is shown escaped', () => {
    assert.match(refusal('---\n"a\\u001b[31m": 1\n"a\\u001b[31m": 2\n---\n').error, /duplicate key "a\\u001b\[31m"/);
  });

  test('other YAML errors name their line too', () => {
    assert.match(refusal('---\nname: a\n\tdescription: d\n---\n').error, /^invalid YAML frontmatter at SKILL\.md line 3, column 1: .*[Tt]ab/);
    assert.match(refusal('---\nname: a\n...\nb: 2\n---\n').error, /^invalid YAML frontmatter at SKILL\.md line 4: a second YAML document starts there/);
  });

  test('a YAML error inside a field names the field', () => {
    // The error is in the value of description (line 3 of SKILL.md, line 2 of the frontmatter).
    assert.match(
      refusal('---\nname: a\ndescription: x\n  bad: indent\n---\n').error,
      /^invalid YAML frontmatter at SKILL\.md line 3, column 14 \(in "description"\): Nested mappings/,
    );
    assert.match(refusal('---\nname: a\nmetadata:\n  owner: [x\n  b: c\n---\n').error, /at SKILL\.md line 5, column 3 \(in "metadata"\)/);
    // Lines count from the file's first line even after a BOM and CRLF line ends.
    assert.match(refusal('\uFEFF---\r\nname: a\r\nname: b\r\n---\r\n').error, /duplicate key "name" at SKILL\.md line 3 \(first given at line 2\)/);
  });
});
