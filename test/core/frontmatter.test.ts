import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SkillCatalog, isValidSkillName, memoryStorage, parseFrontmatter } from '@skillmount/core';
import { warnings } from './helpers.js';
import { skillMd } from '../support/skill-md.js';

/** Parse and insist on success, for the tests that look at values. */
function fields(yaml: string, body = 'body'): Record<string, unknown> {
  const r = parseFrontmatter(`---\n${yaml}\n---\n${body}`);
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r.frontmatter;
}

function refused(text: string): string {
  const r = parseFrontmatter(text);
  assert.equal(r.ok, false, `expected ${JSON.stringify(text)} to be refused`);
  return (r as { error: string }).error;
}

describe('parseFrontmatter: YAML 1.2 core schema typing', () => {
  test('yes/no/on stay strings under YAML 1.2 core schema', () => {
    const r = parseFrontmatter('---\nname: a\ndescription: d\nflag: yes\nother: on\n---\nbody');
    assert.ok(r.ok);
    assert.equal(r.frontmatter.flag, 'yes');
    assert.equal(r.frontmatter.other, 'on');
    assert.equal(r.body, 'body');
  });

  test('YAML 1.1 booleans and null spellings that 1.2 core does not know stay strings', () => {
    const f = fields('a: yes\nb: no\nc: on\nd: off\ne: Yes\nf: Off\ng: y\nh: n\ni: None\nj: nil\nk: "null"\nl: NO');
    assert.deepEqual(f, { a: 'yes', b: 'no', c: 'on', d: 'off', e: 'Yes', f: 'Off', g: 'y', h: 'n', i: 'None', j: 'nil', k: 'null', l: 'NO' });
  });

  test('core-schema null and booleans are typed', () => {
    const f = fields('a: null\nb: ~\nc: NULL\nd:\ne: true\nf: False');
    assert.deepEqual(f, { a: null, b: null, c: null, d: null, e: true, f: false });
  });

  test('numbers stay numbers: 1.0, hex, octal, exponent; underscores and sexagesimal stay strings', () => {
    const f = fields('version: 1.0\nhex: 0x1f\noct: 0o17\nexp: 1e3\nint: 42\nunder: 1_000\nclock: 12:30');
    assert.equal(typeof f.version, 'number');
    assert.equal(f.version, 1);
    assert.equal(f.hex, 31);
    assert.equal(f.oct, 15);
    assert.equal(f.exp, 1000);
    assert.equal(f.int, 42);
    assert.equal(f.under, '1_000');
    assert.equal(f.clock, '12:30');
  });

  test('dates and timestamps stay strings', () => {
    const f = fields('date: 2024-01-01\nwhen: 2024-01-01T10:00:00Z');
    assert.equal(f.date, '2024-01-01');
    assert.equal(f.when, '2024-01-01T10:00:00Z');
  });

  test('nested metadata arrives as plain JSON objects and arrays', () => {
    const f = fields('name: a\ndescription: d\nmetadata:\n  author: me\n  tags: [x, y]\n  nested:\n    deep: 1\n    list:\n      - k: v');
    assert.deepEqual(f.metadata, { author: 'me', tags: ['x', 'y'], nested: { deep: 1, list: [{ k: 'v' }] } });
    assert.equal(Object.getPrototypeOf(f.metadata), Object.prototype);
    // survives a JSON round trip unchanged: it is what goes on the wire
    assert.deepEqual(JSON.parse(JSON.stringify(f)), f);
  });

  test('block scalars keep their line breaks', () => {
    assert.equal(fields('description: |\n  line one\n  line two').description, 'line one\nline two\n');
    assert.equal(fields('description: >\n  folded\n  text').description, 'folded text\n');
  });

  test('a __proto__ key is an own field, not a prototype change', () => {
    const f = fields('__proto__: x\nname: n');
    assert.ok(Object.hasOwn(f, '__proto__'));
    assert.equal(Object.getPrototypeOf(f), Object.prototype);
    assert.deepEqual(Object.keys(f), ['__proto__', 'name']);
  });
});

describe('parseFrontmatter: fences, BOM, CRLF and body', () => {
  test('a leading BOM and CRLF line ends are accepted; the body keeps its own line ends', () => {
    const r = parseFrontmatter('\uFEFF---\r\nname: a\r\ndescription: d\r\n---\r\nbody\r\nline2');
    assert.ok(r.ok);
    assert.deepEqual(r.frontmatter, { name: 'a', description: 'd' });
    assert.equal(r.body, 'body\r\nline2');
    assert.ok(!String(r.frontmatter.description).includes('\r'));
  });

  test('the body is everything after the closing fence, including later --- lines', () => {
    const r = parseFrontmatter('---\nname: a\n---\n# Title\n\n---\nmore\n');
    assert.ok(r.ok);
    assert.equal(r.body, '# Title\n\n---\nmore\n');
  });

  test('a closing fence at the end of the text gives an empty body', () => {
    const r = parseFrontmatter('---\nname: a\n---');
    assert.ok(r.ok);
    assert.equal(r.body, '');
    const crlf = parseFrontmatter('---\r\nname: a\r\n---');
    assert.ok(crlf.ok);
    assert.equal(crlf.body, '');
  });

  test('trailing blanks after a fence are tolerated', () => {
    const r = parseFrontmatter('---  \nname: a\n---\t\nbody');
    assert.ok(r.ok);
    assert.equal(r.frontmatter.name, 'a');
    assert.equal(r.body, 'body');
  });

  test('a missing opening fence is refused', () => {
    assert.match(refused('name: a\ndescription: d\n---\nbody'), /frontmatter/);
    assert.match(refused('\n---\nname: a\n---\nbody'), /frontmatter/, 'the fence must be the first line');
    assert.match(refused('# just markdown\n'), /frontmatter/);
    assert.match(refused(''), /frontmatter/);
  });

  test('a missing closing fence is refused', () => {
    assert.match(refused('---\nname: a\ndescription: d\n'), /frontmatter/);
    assert.match(refused('---\nname: a\n----\nbody'), /frontmatter/, '---- is not a fence');
    assert.match(refused('---\nname: a\n...\nbody'), /frontmatter/, 'a YAML document end marker is not a fence');
    assert.match(refused('---'), /frontmatter/);
  });
});

describe('parseFrontmatter: refusals', () => {
  test('duplicate keys are refused', () => {
    assert.match(refused('---\nname: a\nname: b\n---\n'), /unique|duplicate/i);
    assert.match(refused('---\nmetadata:\n  k: 1\n  k: 2\n---\n'), /unique|duplicate/i);
  });

  test('YAML that is not a mapping is refused', () => {
    for (const yaml of ['- a\n- b', 'just a string', '42', '', 'null']) {
      assert.match(refused(`---\n${yaml}\n---\nbody`), /mapping/, JSON.stringify(yaml));
    }
  });

  test('invalid YAML is refused with the parser message', () => {
    assert.match(refused('---\nname: [unclosed\n---\n'), /invalid YAML/);
    assert.match(refused('---\na: "x\n---\n'), /invalid YAML/);
    assert.match(refused('---\n\tname: x\n---\n'), /invalid YAML/);
  });

  test('values JSON cannot carry are refused, naming the field', () => {
    assert.match(refused('---\nname: a\nr: .inf\n---\n'), /\$\.r/);
    assert.match(refused('---\nname: a\nr: .nan\n---\n'), /\$\.r/);
    assert.match(refused('---\nname: a\nmetadata:\n  when: !!timestamp 2024-01-01\n---\n'), /\$\.metadata\.when/);
    assert.match(refused('---\nname: a\nb: !!binary aGVsbG8=\n---\n'), /\$\.b/);
  });

  test('keys that differ only in YAML type (1 and "1") are refused rather than merged', () => {
    // Both would become the JSON key "1", and one value would silently replace the other.
    assert.match(refused('---\nname: a\n1: one\n"1": uno\n---\n'), /"1"/);
    assert.match(refused('---\nname: a\ntrue: x\n"true": y\n---\n'), /"true"/);
  });

  test('scalar keys that are not strings read as their text', () => {
    assert.deepEqual(fields('1: a\ntrue: b\n2.5: c'), { '1': 'a', true: 'b', '2.5': 'c' });
  });

  test('a mapping key that is a collection is refused rather than stringified', () => {
    // JSON object keys are strings; "[ a, b ]" would be a key the author never wrote.
    assert.match(refused('---\nname: a\n? [a, b]\n: c\n---\n'), /key/);
  });
});

describe('parseFrontmatter: aliases', () => {
  test('aliases are resolved to their values', () => {
    const f = fields('a: &x foo\nb: *x\nlist: &l [1, 2]\ncopy: *l');
    assert.deepEqual(f, { a: 'foo', b: 'foo', list: [1, 2], copy: [1, 2] });
  });

  test('alias expansion bombs are refused', () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]',
      'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]',
      'd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]',
      'e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]',
    ].join('\n');
    assert.match(refused(`---\n${bomb}\n---\n`), /invalid YAML/);
  });

  test('an undefined alias is refused', () => {
    assert.match(refused('---\na: *nope\n---\n'), /invalid YAML/);
  });
});

describe('description length, checked by the catalog', () => {
  test('a 1024-character description loads; 1025 is refused with a warning naming the file', async () => {
    const w = warnings();
    const catalog = await SkillCatalog.load(
      memoryStorage({
        'ok/SKILL.md': skillMd('ok', 'x'.repeat(1024)),
        'long/SKILL.md': skillMd('long', 'x'.repeat(1025)),
      }),
      { onWarning: w.onWarning },
    );
    assert.deepEqual(
      catalog.entries.map((e) => e.uri),
      ['skill://ok/SKILL.md'],
    );
    const warning = w.list.find((x) => x.path === 'long/SKILL.md');
    assert.ok(warning, JSON.stringify(w.list));
    assert.match(warning.message, /1025/);
    assert.match(warning.message, /1024/);
  });

  test('lengths are code points: 1024 emoji load, 1025 are refused as 1025 characters', async () => {
    const w = warnings();
    const catalog = await SkillCatalog.load(
      memoryStorage({
        'emoji/SKILL.md': skillMd('emoji', '😀'.repeat(1024)),
        'more/SKILL.md': skillMd('more', '😀'.repeat(1025)),
        'compat/SKILL.md': `---\nname: compat\ndescription: d\ncompatibility: ${'🧪'.repeat(501)}\n---\n`,
      }),
      { onWarning: w.onWarning },
    );
    assert.deepEqual(
      catalog.entries.map((e) => e.uri),
      ['skill://emoji/SKILL.md'],
    );
    assert.deepEqual(w.list.map((x) => [x.path, x.message]).sort(), [
      ['compat/SKILL.md', 'skill skipped: frontmatter "compatibility" is 501 characters long; at most 500'],
      ['more/SKILL.md', 'skill skipped: frontmatter "description" is 1025 characters long; at most 1024'],
    ]);
  });

  test('a 75-character name is called too long', async () => {
    const name = 'a'.repeat(75);
    const w = warnings();
    await SkillCatalog.load(memoryStorage({ [`${name}/SKILL.md`]: skillMd(name) }), { onWarning: w.onWarning });
    assert.deepEqual(
      w.list.map((x) => [x.code, x.message]),
      [['frontmatter', 'skill skipped: frontmatter name is 75 characters long; at most 64']],
    );
  });

  test('an empty or blank description is refused', async () => {
    const w = warnings();
    const catalog = await SkillCatalog.load(
      memoryStorage({
        'blank/SKILL.md': '---\nname: blank\ndescription: "   "\n---\n',
        'number/SKILL.md': '---\nname: number\ndescription: 42\n---\n',
      }),
      { onWarning: w.onWarning },
    );
    assert.equal(catalog.entries.length, 0);
    assert.deepEqual(w.list.map((x) => x.path).sort(), ['blank/SKILL.md', 'number/SKILL.md']);
    for (const x of w.list) assert.match(x.message, /description/);
  });
});

describe('isValidSkillName', () => {
  test('accepts lowercase letters, digits and single hyphens', () => {
    for (const name of ['a', 'pdf-processing', 'git-workflow', 'v2', '2fa', 'a-b-c-1']) assert.equal(isValidSkillName(name), true, name);
  });

  test('refuses uppercase, edge and doubled hyphens, underscores, spaces, dots and slashes', () => {
    for (const name of ['PDF', 'Pdf-processing', '-a', 'a-', 'a--b', '-', 'a_b', 'a b', 'a.b', 'a/b', '', ' a']) {
      assert.equal(isValidSkillName(name), false, JSON.stringify(name));
    }
  });

  test('64 characters are allowed, 65 are not', () => {
    assert.equal(isValidSkillName('a'.repeat(64)), true);
    assert.equal(isValidSkillName('a'.repeat(65)), false);
    assert.equal(isValidSkillName(`${'ab-'.repeat(21)}a`), true, '64 with hyphens');
    assert.equal(isValidSkillName(`${'ab-'.repeat(21)}ab`), false, '65 with hyphens');
  });

  test('refuses unicode letters, digits and look-alikes', () => {
    for (const name of ['café', 'ｓｋｉｌｌ', 'skіll' /* Cyrillic і */, 'ß', 'a\u200bb', '١٢٣', 'a\u2010b' /* hyphen look-alike */]) {
      assert.equal(isValidSkillName(name), false, name);
    }
  });

  test('refuses values that are not strings', () => {
    for (const value of [undefined, null, 42, ['a'], { name: 'a' }]) assert.equal(isValidSkillName(value), false);
  });
});
