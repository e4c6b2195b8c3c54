import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSkillUri, canonicalUri, parseUri } from '@skillmount/core';

const segmentsOf = (uri: string) => {
  const parsed = parseUri(uri);
  assert.ok(parsed.ok, `${uri}: ${parsed.ok ? '' : parsed.error}`);
  return parsed.segments;
};

describe('buildSkillUri: percent-encoding', () => {
  test('plain segments are joined as they are', () => {
    assert.equal(buildSkillUri(['acme', 'billing', 'refunds', 'SKILL.md']), 'skill://acme/billing/refunds/SKILL.md');
  });

  test('spaces, unicode, #, %, ? are percent-encoded with upper-case hex; & survives either way', () => {
    assert.equal(buildSkillUri(['my skill', 'a b.md']), 'skill://my%20skill/a%20b.md');
    assert.equal(buildSkillUri(['s', 'café.md']), 'skill://s/caf%C3%A9.md');
    assert.equal(buildSkillUri(['s', '#1.md']), 'skill://s/%231.md');
    assert.equal(buildSkillUri(['s', '100%.md']), 'skill://s/100%25.md');
    assert.equal(buildSkillUri(['s', 'why?.md']), 'skill://s/why%3F.md');
    // & is legal in a path segment (RFC 3986 sub-delims): it may be published as is or escaped
    assert.ok(['skill://s/Q&A.md', 'skill://s/Q%26A.md'].includes(buildSkillUri(['s', 'Q&A.md'])));
    assert.ok(['skill://Q&A/SKILL.md', 'skill://Q%26A/SKILL.md'].includes(buildSkillUri(['Q&A', 'SKILL.md'])));
    assert.equal(buildSkillUri(['s', '日本.md']), 'skill://s/%E6%97%A5%E6%9C%AC.md');
  });

  test('what it builds parses back to the same segments', () => {
    const names = ['my skill', 'café', 'Q&A #1 %?.md', '%2e%2e', 'a:b@c', '[x]', 'emoji 😀', "it's (ok)!~*", 'a+b=c;d,e$f', 'x|y^z', '%41', 'ü\u0301'];
    for (const name of names) {
      const uri = buildSkillUri(['s', name]);
      assert.deepEqual(segmentsOf(uri), ['s', name], uri);
      const first = buildSkillUri([name, 'SKILL.md']);
      assert.deepEqual(segmentsOf(first), [name, 'SKILL.md'], first);
      assert.equal(canonicalUri(uri), uri, 'what is published is already canonical');
    }
  });

  test('what it builds is left unchanged by WHATWG URL parsing (the SDK parses every resources/read URI)', () => {
    const names = [
      'my skill',
      'café',
      'Q&A #1 %?.md',
      'a:b@c',
      '[x]',
      'emoji 😀',
      'x|y^z',
      'tab\there',
      '"quoted"<>',
      'a+b=c;d,e$f!',
      "it's (ok)~*",
      '{}`',
      'ü\u0301',
      '%41',
    ];
    for (const name of names) {
      const uri = buildSkillUri(['s', name]);
      assert.equal(new URL(uri).href, uri, name);
      const first = buildSkillUri([name, 'SKILL.md']);
      assert.equal(new URL(first).href, first, `${name} as the authority`);
    }
  });

  test('a literal "%2e%2e" file name is escaped, so it can never read as ".."', () => {
    const uri = buildSkillUri(['s', '%2e%2e']);
    assert.equal(uri, 'skill://s/%252e%252e');
    assert.equal(new URL(uri).href, uri);
  });

  test('another scheme can be given', () => {
    assert.equal(buildSkillUri(['owner', 'repo', 'SKILL.md'], 'github'), 'github://owner/repo/SKILL.md');
  });
});

describe('any scheme, and an empty authority, as RFC 3986 allows', () => {
  test('file:///srv/skills/demo/SKILL.md parses with an empty first segment and keeps its spelling', () => {
    assert.deepEqual(parseUri('file:///srv/skills/demo/SKILL.md'), { ok: true, scheme: 'file', segments: ['', 'srv', 'skills', 'demo', 'SKILL.md'] });
    assert.equal(canonicalUri('file:///srv/skills/demo/SKILL.md'), 'file:///srv/skills/demo/SKILL.md');
    assert.equal(canonicalUri('FILE:///srv/%73kills/demo/SKILL.md'), 'file:///srv/skills/demo/SKILL.md');
    assert.equal(buildSkillUri(['', 'srv', 'SKILL.md'], 'file'), 'file:///srv/SKILL.md');
  });

  test('an empty authority is never the same URI as a named one', () => {
    assert.notEqual(canonicalUri('file:///srv/a/SKILL.md'), canonicalUri('file://srv/a/SKILL.md'));
    assert.deepEqual(parseUri('file://srv/a/SKILL.md'), { ok: true, scheme: 'file', segments: ['srv', 'a', 'SKILL.md'] });
  });

  test('github:// parses like skill://', () => {
    assert.deepEqual(parseUri('github://owner/repo/skills/refunds/SKILL.md'), {
      ok: true,
      scheme: 'github',
      segments: ['owner', 'repo', 'skills', 'refunds', 'SKILL.md'],
    });
  });

  test('the path rules hold after an empty authority', () => {
    for (const uri of ['file:///a/../b', 'file:///a/%2e%2e/b', 'file:///a//b', 'file:///a/b%2Fc', 'file:///a/b?x', 'file:///..']) {
      assert.equal(parseUri(uri).ok, false, uri);
      assert.equal(canonicalUri(uri), undefined, uri);
    }
  });
});

describe('parseUri and canonicalUri: one key per file, whatever the spelling', () => {
  test('decodes segments and lower-cases the scheme, keeping the authority case', () => {
    assert.deepEqual(parseUri('SKILL://Acme/x.md'), { ok: true, scheme: 'skill', segments: ['Acme', 'x.md'] });
    assert.equal(canonicalUri('SKILL://Acme/x.md'), 'skill://Acme/x.md');
  });

  test('Q&A.md and Q%26A.md are the same file, published in one spelling', () => {
    assert.equal(canonicalUri('skill://s/Q&A.md'), canonicalUri('skill://s/Q%26A.md'));
    assert.equal(canonicalUri('skill://s/Q&A.md'), buildSkillUri(['s', 'Q&A.md']));
    assert.equal(canonicalUri('skill://Q&A/x.md'), canonicalUri('skill://Q%26A/x.md'));
  });

  test('lower- and upper-case hex are the same file', () => {
    assert.equal(canonicalUri('skill://s/caf%c3%a9.md'), canonicalUri('skill://s/caf%C3%A9.md'));
    assert.equal(canonicalUri('skill://s/caf%c3%a9.md'), 'skill://s/caf%C3%A9.md');
    assert.equal(canonicalUri('skill://s/caf%c3%a9.md'), canonicalUri('skill://s/café.md'));
  });

  test('a raw space and %20 are the same file', () => {
    assert.equal(canonicalUri('skill://my skill/SKILL.md'), 'skill://my%20skill/SKILL.md');
    assert.equal(canonicalUri('skill://my%20skill/SKILL.md'), 'skill://my%20skill/SKILL.md');
  });

  test('needlessly escaped letters compare equal to the letters', () => {
    assert.equal(canonicalUri('skill://s/%41.md'), 'skill://s/A.md');
    assert.equal(canonicalUri('skill://s/x%2Emd'), 'skill://s/x.md');
  });

  test('distinct files keep distinct keys', () => {
    assert.notEqual(canonicalUri('skill://s/a.md'), canonicalUri('skill://s/A.md'));
    assert.notEqual(canonicalUri('skill://s/a%2520b'), canonicalUri('skill://s/a%20b'));
    assert.notEqual(canonicalUri('skill://a/b/c'), canonicalUri('skill://a/b%2Fc'));
  });
});

describe('parseUri refuses URIs that could name something else', () => {
  const cases: [string, RegExp][] = [
    ['skill://a/./b', /"\."/],
    ['skill://a/../b', /"\.\."/],
    ['skill://../b', /"\.\."/],
    ['skill://a/%2e%2e/b', /"\.\."/],
    ['skill://a/%2E%2E/b', /"\.\."/],
    ['skill://a/.%2e/b', /"\.\."/],
    ['skill://a/%2e/b', /"\."/],
    ['skill://a/b%2Fc', /"\/"/],
    ['skill://a/b%2fc', /"\/"/],
    ['skill://a/..%2Fb', /"\/"/],
    ['skill://a/b\\c', /backslash/],
    ['skill://a/b%5Cc', /backslash/],
    ['skill://a/b%5cc', /backslash/],
    ['skill://a/b%00', /NUL/],
    ['skill://a/b%00.md', /NUL/],
    ['skill://a/b?x=1', /query|fragment/],
    ['skill://a/b?', /query|fragment/],
    ['skill://a/b#f', /query|fragment/],
    ['skill://a/b#', /query|fragment/],
    ['skill://a//b', /empty/],
    ['skill://a/b/', /empty/],
    ['file:///', /path/],
    ['file:////a', /empty/],
    ['skill:///', /path/],
    ['skill://', /path/],
    ['skill://a/%zz', /malformed/],
    ['skill://a/%', /malformed/],
    ['skill://a/%4', /malformed/],
    ['skill://a/%E9', /malformed/],
    ['skill://a/%C3', /malformed/],
    ['skill://a/%ED%A0%80', /malformed/],
    ['skill:a/b', /scheme/],
    ['a/b', /scheme/],
    ['//a/b', /scheme/],
    ['', /scheme/],
  ];
  for (const [uri, reason] of cases) {
    test(JSON.stringify(uri), () => {
      const parsed = parseUri(uri);
      assert.equal(parsed.ok, false);
      assert.match((parsed as { error: string }).error, reason);
      assert.equal(canonicalUri(uri), undefined);
    });
  }

  test('a value that is not a string is refused, not thrown on', () => {
    assert.equal(parseUri(42 as never).ok, false);
    assert.equal(parseUri(undefined as never).ok, false);
    assert.equal(canonicalUri(null as never), undefined);
  });
});
