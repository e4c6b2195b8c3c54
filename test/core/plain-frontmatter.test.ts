/**
 * Frontmatter of one `key: value` line per field is read without building a YAML document
 * (skillmd/plain.ts). Every such answer must be the YAML parser's: each generated frontmatter is
 * parsed as it is and again with a comment line added at its end, which means nothing to YAML but
 * always sends it through the full parser. The two results must agree.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFrontmatter } from '@skillmount/core';

const KEYS = ['name', 'description', 'license', 'a', 'b-c', 'x_y', 'K9', 'true', 'Null', 'null', 'FALSE', '1', '_k', 'k k', 'k:', '-k', 'k?', '"q"', '~'];
const VALUES = [
  'plain text',
  'Handle refunds.',
  'Use when: a customer asks',
  'a #b',
  'a#b',
  'https://example.com/a?b=c#d',
  'true',
  'True',
  'TRUE',
  'false',
  'yes',
  'no',
  'on',
  'off',
  '1',
  '1.5',
  '0x1F',
  '0o17',
  '1e3',
  '.inf',
  '-.inf',
  '.NaN',
  '~',
  'null',
  'NULL',
  '"quoted"',
  "'single'",
  'it\'s "fine"',
  'x: y',
  'x:',
  'x :y',
  'x:y',
  '[a, b]',
  'a, [b], {c}',
  '{a: b}',
  '&anchor v',
  'v &anchor',
  '*alias',
  '!tag v',
  '!!str 1',
  '|',
  '>',
  '- item',
  '? key',
  'v\t',
  'v ',
  'v  w',
  'é ü — “q” 漢字',
  'x\u2028y',
  'x\u2029y',
  'a\u00a0',
  'a\ufeffb',
  'a\u0085b',
  'a\u007fb',
  'a\rb',
  '%x',
  '@x',
  '`x',
  'x---',
  'x...',
  '2024-01-01',
  'v # comment',
  '',
  ' leading',
];

/** A deterministic generator (mulberry32): the same cases on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function generated(count: number): string[] {
  const next = random(2640);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const cases: string[] = [];
  for (let i = 0; i < count; i++) {
    const lines: string[] = [];
    const fields = 1 + Math.floor(next() * 4);
    for (let f = 0; f < fields; f++) {
      // Mostly plain fields, so that many whole frontmatters take the short way.
      const key = next() < 0.7 ? pick(KEYS.slice(0, 7)) : pick(KEYS);
      const value = next() < 0.5 ? pick(VALUES.slice(0, 2)) : pick(VALUES);
      const separator = next() < 0.9 ? ': ' : pick([':', ':  ', ' : ', ':\t']);
      lines.push(`${key}${separator}${value}`);
      if (next() < 0.05) lines.push(pick(['', '  indented: more', '# comment', '- item', '  continued text']));
    }
    cases.push(`${lines.join('\n')}\n`);
  }
  return cases;
}

test('frontmatter read the short way is exactly what the YAML parser reads, on 20 000 generated frontmatters', () => {
  let accepted = 0;
  for (const yaml of generated(20_000)) {
    const direct = parseFrontmatter(`---\n${yaml}---\nbody\n`);
    const full = parseFrontmatter(`---\n${yaml}# end\n---\nbody\n`);
    const shown = JSON.stringify(yaml);
    assert.equal(
      direct.ok,
      full.ok,
      `${shown}: ${direct.ok ? 'read' : (direct as { error: string }).error} / ${full.ok ? 'read' : (full as { error: string }).error}`,
    );
    if (direct.ok && full.ok) {
      accepted++;
      assert.deepEqual(direct.frontmatter, full.frontmatter, shown);
      assert.equal(Object.getPrototypeOf(direct.frontmatter), Object.getPrototypeOf(full.frontmatter), shown);
      assert.deepEqual(Object.keys(direct.frontmatter), Object.keys(full.frontmatter), `${shown}: field order`);
      assert.deepEqual(direct.portability, full.portability, shown);
      assert.equal(direct.body, full.body);
    } else if (!direct.ok && !full.ok) assert.equal(direct.code, full.code, shown);
  }
  // Both kinds must be well represented, or the comparison proves little.
  assert.ok(accepted > 5_000 && accepted < 19_000, `${accepted} of 20 000 read`);
});

test('frontmatter the short way: a key named like an object property is an own field, and a repeated key is refused', () => {
  const read = parseFrontmatter('---\nname: a\nconstructor: b\ntoString: c\n---\n');
  assert.ok(read.ok);
  assert.deepEqual(Object.keys(read.frontmatter), ['name', 'constructor', 'toString']);
  assert.equal(read.frontmatter.constructor, 'b');
  const repeated = parseFrontmatter('---\nname: a\ndescription: b\nname: c\n---\n');
  assert.equal(repeated.ok, false);
  assert.match((repeated as { error: string }).error, /duplicate key "name" at SKILL\.md line 4 \(first given at line 2\)/);
});
