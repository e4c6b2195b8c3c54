import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { CatalogError, SkillEntrySchema, buildSkillEntry, entryProblems, parseUri, sha256Digest, type SkillEntry, type SkillResource } from '@skillmount/core';
import { skillMd } from '../support/skill-md.js';

const sha = (content: string | Uint8Array) => 'sha256:' + createHash('sha256').update(content).digest('hex');

function catalogError(fn: () => unknown): CatalogError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof CatalogError, String(error));
    return error;
  }
  assert.fail('expected a CatalogError');
}

describe('sha256Digest', () => {
  test('is sha256: and 64 lowercase hex digits of the exact bytes', () => {
    assert.equal(sha256Digest(new Uint8Array()), 'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    assert.equal(sha256Digest(Buffer.from('abc')), sha('abc'));
    assert.match(sha256Digest(Buffer.from('x')), /^sha256:[0-9a-f]{64}$/);
  });
});

describe('buildSkillEntry', () => {
  test('builds a valid, frozen entry: digests and sizes of the exact bytes, sorted resources', () => {
    const md = skillMd('refunds', { description: 'Handle refunds — café.', frontmatter: 'license: MIT\nmetadata:\n  owner: billing\n' });
    const logo = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 255]);
    const entry = buildSkillEntry('acme/billing/refunds', {
      'templates/approved.md': 'Approved ✓\n',
      'SKILL.md': md,
      'assets/logo.png': logo,
    });
    assert.equal(entry.uri, 'skill://acme/billing/refunds/SKILL.md');
    assert.deepEqual(entry.frontmatter, { name: 'refunds', description: 'Handle refunds — café.', license: 'MIT', metadata: { owner: 'billing' } });
    assert.deepEqual(entry.resources, [
      { uri: 'skill://acme/billing/refunds/SKILL.md', digest: sha(md), size: Buffer.byteLength(md) },
      { uri: 'skill://acme/billing/refunds/assets/logo.png', digest: sha(logo), size: 6 },
      { uri: 'skill://acme/billing/refunds/templates/approved.md', digest: sha('Approved ✓\n'), size: Buffer.byteLength('Approved ✓\n') },
    ]);
    assert.equal((entry.resources as SkillResource[])[2]!.size, 13, 'sizes are bytes (✓ is 3), not characters (11)');
    assert.deepEqual(entryProblems(entry), []);
    assert.ok(SkillEntrySchema.safeParse(entry).success);
    assert.ok(Object.isFrozen(entry) && Object.isFrozen(entry.resources) && Object.isFrozen(entry.frontmatter));
  });

  test('percent-encodes file names in resource URIs', () => {
    const entry = buildSkillEntry('faq', { 'SKILL.md': skillMd('faq'), 'Q&A #1.md': 'q' });
    const uris = (entry.resources as SkillResource[]).map((r) => r.uri);
    assert.equal(uris.length, 2);
    const faq = uris.find((u) => u !== 'skill://faq/SKILL.md')!;
    assert.match(faq, /^skill:\/\/faq\/Q(&|%26)A%20%231\.md$/, 'space and # are escaped; & may stay, being legal in a path');
    assert.deepEqual(parseUri(faq), { ok: true, scheme: 'skill', segments: ['faq', 'Q&A #1.md'] });
    assert.deepEqual(uris, [...uris].sort(), 'sorted by URI');
    assert.deepEqual(entryProblems(entry), []);
  });

  test('throws a CatalogError on bad frontmatter', () => {
    const error = catalogError(() => buildSkillEntry('a', { 'SKILL.md': 'no frontmatter' }));
    assert.equal(error.problems.length, 1);
    assert.equal(error.problems[0]!.path, 'SKILL.md');
    assert.match(error.message, /skill a/);
    assert.match(catalogError(() => buildSkillEntry('a', { 'SKILL.md': new Uint8Array([0xff, 0xfe]) })).message, /UTF-8/);
  });

  test('throws a CatalogError when the name does not match the last path segment', () => {
    const error = catalogError(() => buildSkillEntry('acme/refunds', { 'SKILL.md': skillMd('returns') }));
    assert.match(error.message, /returns.*refunds/);
  });

  test('throws a CatalogError when SKILL.md is missing', () => {
    const error = catalogError(() => buildSkillEntry('a', { 'notes.md': 'x' }));
    assert.deepEqual(
      error.problems.map((p) => p.code),
      ['missing-skill-md'],
    );
    assert.match(error.message, /SKILL\.md/);
  });

  test('lists every problem at once: bad path segments, bad file paths, bad frontmatter', () => {
    const error = catalogError(() => buildSkillEntry('acme/../x', { 'SKILL.md': '---\nname: x\n---\n', 'a/../b.md': 'x', 'c\\d.md': 'y' }));
    assert.ok(error.problems.length >= 4, JSON.stringify(error.problems));
    assert.match(error.message, /\.\./);
    assert.match(error.message, /backslash/);
    assert.match(error.message, /description/);
  });
});

describe('entryProblems', () => {
  const base = (): SkillEntry => buildSkillEntry('acme/a', { 'SKILL.md': skillMd('a'), 'x.md': 'x' });
  const withResources = (resources: SkillResource[]): SkillEntry => ({ ...base(), resources });
  const skillMdResource = () => (base().resources as SkillResource[]).find((r) => r.uri.endsWith('/SKILL.md'))!;
  const file = (uri: string): SkillResource => ({ uri, digest: sha(uri), size: 1 });

  test('a valid entry, and a "dynamic" one, have no problems', () => {
    assert.deepEqual(entryProblems(base()), []);
    assert.deepEqual(entryProblems({ ...base(), resources: 'dynamic' }), []);
  });

  test('flags resources outside the skill folder, in every spelling', () => {
    for (const uri of [
      'skill://acme/a/../b/x',
      'skill://acme/a/%2e%2e/b/x',
      'skill://acme/a/%2E%2E/b/x',
      'skill://acme/b/x',
      'skill://acme/ab/x.md',
      'skill://acme/a',
      'skill://acme/x.md',
      'file://acme/a/x.md',
      'skill://acme/a/..%2Fb',
      'skill://acme/a/x?y',
      'skill://acme/a/x#y',
    ]) {
      const problems = entryProblems(withResources([skillMdResource(), file(uri)]));
      assert.ok(problems.length > 0, uri);
      assert.ok(
        problems.some((p) => p.includes(uri)),
        `${uri}: ${problems.join('; ')}`,
      );
    }
  });

  test('flags a missing SKILL.md resource', () => {
    const problems = entryProblems(withResources([file('skill://acme/a/x.md')]));
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, /SKILL\.md/);
  });

  test('flags a duplicate resource, also when spelled differently', () => {
    for (const twin of ['skill://acme/a/x.md', 'skill://acme/a/x%2Emd', 'SKILL://acme/a/x.md']) {
      const problems = entryProblems(withResources([skillMdResource(), file('skill://acme/a/x.md'), file(twin)]));
      assert.ok(
        problems.some((p) => /more than once/.test(p)),
        `${twin}: ${problems.join('; ')}`,
      );
    }
    const amp = entryProblems(withResources([skillMdResource(), file('skill://acme/a/Q&A.md'), file('skill://acme/a/Q%26A.md')]));
    assert.ok(
      amp.some((p) => /more than once/.test(p)),
      amp.join('; '),
    );
  });

  test('flags a digest that is not sha256: and 64 lowercase hex digits', () => {
    const good = sha('x');
    for (const digest of [
      good.toUpperCase(),
      'sha256:' + good.slice(7).toUpperCase(),
      good.slice(7),
      good.slice(0, -1),
      'sha1:' + good.slice(7),
      'md5:abc',
      '',
      good + '0',
    ]) {
      const problems = entryProblems(withResources([skillMdResource(), { uri: 'skill://acme/a/x.md', digest, size: 1 }]));
      assert.ok(
        problems.some((p) => p.includes('digest')),
        `${digest}: ${problems.join('; ')}`,
      );
    }
  });

  test('flags a size that is not a non-negative integer', () => {
    for (const size of [-1, 1.5, '1', NaN]) {
      const problems = entryProblems(withResources([skillMdResource(), { uri: 'skill://acme/a/x.md', digest: sha('x'), size: size as number }]));
      assert.ok(
        problems.some((p) => p.startsWith('resources')),
        `${size}: ${problems.join('; ')}`,
      );
    }
  });

  test('flags a name that is not the last skill-path segment, or not a valid name', () => {
    const mismatch = entryProblems({ ...base(), frontmatter: { name: 'b', description: 'd' } });
    assert.ok(
      mismatch.some((p) => /"b".*"a"/.test(p)),
      mismatch.join('; '),
    );
    const invalid = entryProblems({ ...base(), uri: 'skill://acme/A_B/SKILL.md', frontmatter: { name: 'A_B', description: 'd' }, resources: 'dynamic' });
    assert.ok(
      invalid.some((p) => /invalid/.test(p)),
      invalid.join('; '),
    );
  });

  test('flags a URI that is not a SKILL.md URI, and a missing or long description', () => {
    assert.ok(entryProblems({ ...base(), uri: 'skill://acme/a/README.md' }).some((p) => /SKILL\.md/.test(p)));
    assert.ok(entryProblems({ ...base(), uri: 'skill://SKILL.md' }).length > 0, 'no skill path');
    assert.ok(entryProblems({ ...base(), uri: 'skill://acme/../a/SKILL.md' }).length > 0);
    assert.ok(entryProblems({ ...base(), frontmatter: { name: 'a', description: '' } }).some((p) => /description/.test(p)));
    assert.ok(entryProblems({ ...base(), frontmatter: { name: 'a', description: 'x'.repeat(1025) } }).some((p) => /1024/.test(p)));
  });

  describe('lengths are counted in characters (Unicode code points), as the Agent Skills spec counts them', () => {
    const EMOJI = '😀'; // one code point, two UTF-16 units
    const ACUTE = '\u0301'; // a combining mark: a code point of its own
    const withFrontmatter = (frontmatter: Record<string, unknown>) =>
      entryProblems({ ...base(), frontmatter: { name: 'a', description: 'd', ...frontmatter } });

    test('description: 1024 emoji are within the limit, 1025 are over it and counted as 1025', () => {
      assert.equal(EMOJI.length, 2);
      assert.deepEqual(withFrontmatter({ description: EMOJI.repeat(1024) }), []);
      assert.deepEqual(withFrontmatter({ description: EMOJI.repeat(1025) }), ['frontmatter "description" is 1025 characters long; at most 1024']);
      // 600 emoji are 1200 UTF-16 units, but 600 characters.
      assert.deepEqual(withFrontmatter({ description: EMOJI.repeat(600) }), []);
    });

    test('compatibility: 500 emoji are within the limit, 501 are over it', () => {
      assert.deepEqual(withFrontmatter({ compatibility: EMOJI.repeat(500) }), []);
      assert.deepEqual(withFrontmatter({ compatibility: EMOJI.repeat(501) }), ['frontmatter "compatibility" is 501 characters long; at most 500']);
      assert.deepEqual(withFrontmatter({ compatibility: '' }), ['frontmatter "compatibility" must be a string of 1-500 characters']);
    });

    test('each combining mark counts as a character of its own', () => {
      // "é" written as e + U+0301 is two characters: 512 of them are 1024, 513 are 1026.
      assert.deepEqual(withFrontmatter({ description: `e${ACUTE}`.repeat(512) }), []);
      assert.deepEqual(withFrontmatter({ description: `e${ACUTE}`.repeat(513) }), ['frontmatter "description" is 1026 characters long; at most 1024']);
      // The precomposed é is one.
      assert.deepEqual(withFrontmatter({ description: '\u00e9'.repeat(1024) }), []);
    });

    test('a lone surrogate counts as one character', () => {
      assert.deepEqual(withFrontmatter({ description: '\ud83d'.repeat(1024) }), []);
      assert.deepEqual(withFrontmatter({ description: `${'\ud83d'.repeat(1024)}x` }), ['frontmatter "description" is 1025 characters long; at most 1024']);
    });

    test('a name over 64 characters is called too long, not only invalid', () => {
      const long = 'a'.repeat(75);
      const problems = entryProblems({ ...base(), uri: `skill://acme/${long}/SKILL.md`, frontmatter: { name: long, description: 'd' }, resources: 'dynamic' });
      assert.deepEqual(problems, ['frontmatter name is 75 characters long; at most 64']);
      // Too long and with characters a name cannot have: both are said, the name cut short.
      const both = entryProblems({
        ...base(),
        uri: `skill://acme/${'A'.repeat(70)}/SKILL.md`,
        frontmatter: { name: 'A'.repeat(70), description: 'd' },
        resources: 'dynamic',
      });
      assert.deepEqual(both, [
        'frontmatter name is 70 characters long; at most 64',
        `frontmatter name "${'A'.repeat(64)}…" is invalid: use 1-64 lowercase letters, digits and single hyphens, not starting or ending with a hyphen`,
      ]);
    });
  });

  test('flags entries of the wrong shape', () => {
    for (const bad of [
      null,
      42,
      {},
      { uri: 'skill://a/SKILL.md' },
      { ...base(), resources: 'static' },
      { ...base(), frontmatter: { name: 'a' } },
      { ...base(), resources: [{ uri: 'skill://acme/a/SKILL.md' }] },
    ]) {
      assert.ok(entryProblems(bad).length > 0, JSON.stringify(bad));
    }
  });
});
