/**
 * What `@skillmount/core/client` (and the root) export for hosts and source authors: the limits
 * object, the digest pattern, the wire schemas (keeping `_meta`), and the capability helpers.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import * as root from '@skillmount/core';
import {
  GetSkillResultSchema,
  ListSkillsResultSchema,
  MAX_BYTES_PER_SKILL,
  MAX_FILES_PER_SKILL,
  SKILL_DIGEST_PATTERN,
  SKILL_LIMITS,
  SkillEntrySchema,
  SkillResourceSchema,
  serverSupportsSkills,
  skillsCapability,
  skillsCapabilityOf,
} from '@skillmount/core/client';

const digest = `sha256:${'ab'.repeat(32)}`;
const entry = {
  uri: 'skill://demo/SKILL.md',
  frontmatter: { name: 'demo', description: 'A demo.', metadata: { 'io.modelcontextprotocol/x': 1 } },
  resources: [{ uri: 'skill://demo/SKILL.md', digest, size: 10, _meta: { 'example.com/scan': 'clean' } }],
  _meta: { 'io.modelcontextprotocol.skills/source': 'git' },
};

describe('limits and the digest pattern', () => {
  test('SKILL_LIMITS holds the extension limits and the SKILL.md parsing limits, frozen', () => {
    assert.deepEqual(SKILL_LIMITS, {
      files: 512,
      bytes: 16 * 1024 * 1024,
      skillMdBytes: 1024 * 1024,
      frontmatterBytes: 64 * 1024,
      frontmatterDepth: 32,
      frontmatterNodes: 10_000,
      frontmatterAliases: 100,
    });
    assert.equal(SKILL_LIMITS.files, MAX_FILES_PER_SKILL);
    assert.equal(SKILL_LIMITS.bytes, MAX_BYTES_PER_SKILL);
    assert.ok(Object.isFrozen(SKILL_LIMITS));
    assert.equal(root.SKILL_LIMITS, SKILL_LIMITS, 'the root exports the same object');
  });

  test('SKILL_DIGEST_PATTERN takes sha256 and 64 lowercase hex digits only', () => {
    assert.equal(String(SKILL_DIGEST_PATTERN), String(/^sha256:[0-9a-f]{64}$/));
    assert.ok(SKILL_DIGEST_PATTERN.test(digest));
    for (const bad of [`sha256:${'AB'.repeat(32)}`, `sha256:${'a'.repeat(63)}`, `sha512:${'a'.repeat(64)}`, `${digest}\n`, ` ${digest}`])
      assert.equal(SKILL_DIGEST_PATTERN.test(bad), false, bad);
  });
});

describe('wire schemas keep _meta and what a later revision adds', () => {
  test('an entry and its resources keep _meta', () => {
    const parsed = SkillEntrySchema.parse(entry);
    assert.deepEqual(parsed, entry);
    assert.deepEqual(SkillResourceSchema.parse(entry.resources[0]), entry.resources[0]);
  });

  test('skills/list and skills/get results keep _meta, cache fields and every entry', () => {
    const list = {
      resultType: 'complete',
      skills: [entry, { ...entry, uri: 'skill://live/SKILL.md', frontmatter: { name: 'live', description: 'Live.' }, resources: 'dynamic' }],
      nextCursor: 'c',
      ttlMs: 0,
      cacheScope: 'private',
      _meta: { trace: 'x' },
    };
    assert.deepEqual(ListSkillsResultSchema.parse(list), list);
    const get = { resultType: 'complete', skill: entry, ttlMs: 5, cacheScope: 'public', _meta: { trace: 'y' } };
    assert.deepEqual(GetSkillResultSchema.parse(get), get);
  });

  test('a bad digest, a negative size or a missing resources field is refused', () => {
    assert.equal(SkillEntrySchema.safeParse({ ...entry, resources: [{ ...entry.resources[0], digest: 'sha256:x' }] }).success, false);
    assert.equal(SkillEntrySchema.safeParse({ ...entry, resources: [{ ...entry.resources[0], size: -1 }] }).success, false);
    const { resources: _, ...noResources } = entry;
    assert.equal(SkillEntrySchema.safeParse(noResources).success, false);
    assert.equal(ListSkillsResultSchema.safeParse({ skills: [noResources] }).success, false);
  });
});

describe('capability helpers', () => {
  test('skillsCapability builds what a server declares, resources included', () => {
    assert.deepEqual(skillsCapability(), { resources: {}, extensions: { 'io.modelcontextprotocol/skills': {} } });
    assert.deepEqual(skillsCapability({ directoryRead: true }), { resources: {}, extensions: { 'io.modelcontextprotocol/skills': { directoryRead: true } } });
    assert.throws(
      () => skillsCapability({ directoryRead: 'yes' as never }),
      /^TypeError: skillmount: skillsCapability: directoryRead must be true or false, not "yes"/,
    );
  });

  test('serverSupportsSkills reads capabilities as the client does, strict or not', () => {
    const both = skillsCapability({ directoryRead: true });
    assert.equal(serverSupportsSkills(both), true);
    assert.equal(serverSupportsSkills(both, { enforceStrictCapabilities: true }), true);
    const noResources = { extensions: both.extensions };
    assert.equal(serverSupportsSkills(noResources), true);
    assert.equal(serverSupportsSkills(noResources, { enforceStrictCapabilities: true }), false);
    assert.equal(serverSupportsSkills({ resources: {} }), false);
    assert.equal(serverSupportsSkills(undefined), false);
    assert.equal(serverSupportsSkills({ resources: {}, extensions: { 'io.modelcontextprotocol/skills': true } }), false, 'a declaration is an object');
    assert.deepEqual(skillsCapabilityOf(both), { directoryRead: true });
  });
});
