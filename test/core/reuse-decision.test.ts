// The per-file reuse decision of a catalog build, on its own: which of the four ways a build gets
// a file's record (previous record, listed bytes, vouched digest, read).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decideFile } from '../../packages/core/src/catalog/reuse.js';
import type { FileRecord, ParsedSkillMd } from '../../packages/core/src/catalog/snapshot.js';

const DIGEST = `sha256:${'a'.repeat(64)}`;
const record = (token?: string): FileRecord => ({
  path: 'a/x.md',
  resource: { uri: 'skill://a/x.md', digest: DIGEST, size: 3 },
  ...(token !== undefined ? { token } : {}),
});
const parsed: ParsedSkillMd = { ok: true, frontmatter: { name: 'a', description: 'd' }, portability: [], frontmatterDigest: `sha256:${'0'.repeat(64)}` };

describe('decideFile', () => {
  test('an unchanged change token reuses the previous record, and for a SKILL.md its parse', () => {
    const before = record('t1');
    assert.deepEqual(decideFile({ listed: { name: 'x.md', kind: 'file', token: 't1' }, before, parsedBefore: undefined, skillMd: false }), {
      take: 'previous',
      record: before,
      parsed: undefined,
    });
    const decision = decideFile({ listed: { name: 'SKILL.md', kind: 'file', token: 't1' }, before, parsedBefore: parsed, skillMd: true });
    assert.equal(decision.take, 'previous');
    assert.equal(decision.take === 'previous' && decision.record, before, 'the same object, not a copy');
    assert.equal(decision.take === 'previous' && decision.parsed, parsed);
  });

  test('no reuse without a token, with another token, without a previous record, or for a SKILL.md never parsed', () => {
    const listed = { name: 'x.md', kind: 'file' as const, token: 't1' };
    assert.equal(
      decideFile({ listed: { name: 'x.md', kind: 'file' }, before: record(), parsedBefore: undefined, skillMd: false }).take,
      'read',
      'no token on either side',
    );
    assert.equal(decideFile({ listed, before: record('t0'), parsedBefore: undefined, skillMd: false }).take, 'read');
    assert.equal(decideFile({ listed, before: undefined, parsedBefore: undefined, skillMd: false }).take, 'read');
    assert.equal(decideFile({ listed, before: record('t1'), parsedBefore: undefined, skillMd: true }).take, 'read');
  });

  test('bytes the listing brought come next, even for a SKILL.md', () => {
    const bytes = new Uint8Array([1, 2, 3]);
    assert.deepEqual(
      decideFile({
        listed: { name: 'SKILL.md', kind: 'file', content: bytes, digest: DIGEST, size: 3 },
        before: undefined,
        parsedBefore: undefined,
        skillMd: true,
      }),
      { take: 'content', bytes },
    );
  });

  test('a well-formed vouched size and digest is trusted for any file but a SKILL.md (its frontmatter is needed)', () => {
    const listed = { name: 'x.md', kind: 'file' as const, digest: DIGEST, size: 3 };
    assert.deepEqual(decideFile({ listed, before: undefined, parsedBefore: undefined, skillMd: false }), { take: 'vouched', size: 3, digest: DIGEST });
    assert.deepEqual(decideFile({ listed, before: undefined, parsedBefore: undefined, skillMd: true }), { take: 'read', maxBytes: 3 });
  });

  test('a malformed digest or size is not trusted: the body is read, bounded by a plain listed size only', () => {
    const read = (listed: Record<string, unknown>) =>
      decideFile({ listed: { name: 'x.md', kind: 'file', ...listed }, before: undefined, parsedBefore: undefined, skillMd: false });
    assert.deepEqual(read({ digest: 'sha256:ABC', size: 3 }), { take: 'read', maxBytes: 3 });
    assert.deepEqual(read({ digest: DIGEST.toUpperCase(), size: 3 }), { take: 'read', maxBytes: 3 });
    assert.deepEqual(read({ digest: DIGEST, size: -1 }), { take: 'read', maxBytes: undefined });
    assert.deepEqual(read({ digest: DIGEST, size: 1.5 }), { take: 'read', maxBytes: undefined });
    assert.deepEqual(read({ digest: DIGEST, size: '3' }), { take: 'read', maxBytes: undefined });
    assert.deepEqual(read({}), { take: 'read', maxBytes: undefined });
    assert.deepEqual(decideFile({ listed: undefined, before: undefined, parsedBefore: undefined, skillMd: false }), { take: 'read', maxBytes: undefined });
  });
});
