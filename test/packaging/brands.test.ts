// The public classes answer instanceof across copies of @skillmount/core: the ESM build and the
// CommonJS build are loaded side by side here, in one process, as an app that mixes import and
// require() gets them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import * as esm from '@skillmount/core';
import * as esmClient from '@skillmount/core/client';
import * as esmAdapter from '@skillmount/core/adapter';
import Fastify from 'fastify';
import skillsPlugin from '@skillmount/fastify';
import { skillsMiddleware } from '@skillmount/express';

const require = createRequire(import.meta.url);
const cjs = require('@skillmount/core') as typeof esm;
const cjsClient = require('@skillmount/core/client') as typeof esmClient;
const cjsAdapter = require('@skillmount/core/adapter') as typeof esmAdapter;

const tree = { 'demo/SKILL.md': '---\nname: demo\ndescription: A demo.\n---\nbody' };
const problem = { limit: 'files' as const, actual: 600, max: 512, message: 'too many files' };

/** One instance of every branded class, made by the given copy. */
async function instances(core: typeof esm, client: typeof esmClient): Promise<Record<string, unknown>> {
  return {
    SkillCatalog: await core.SkillCatalog.load(core.memoryStorage(tree)),
    SkillProtocolError: new core.SkillProtocolError(-32602, 'bad'),
    SkillNotFoundError: new core.SkillNotFoundError('missing', 'skill://x/SKILL.md'),
    CatalogError: new core.CatalogError([{ code: 'frontmatter', path: 'x/SKILL.md', message: 'bad' }]),
    StorageError: new core.StorageError('cannot read', 'x/SKILL.md'),
    OptionError: new core.OptionError('invalid-value', 'pageSize', 'must be positive'),
    SkillVerificationError: new client.SkillVerificationError('digest', 'skill://x/a.md', 'skill://x/SKILL.md', 'digest differs'),
    SkillLimitError: new client.SkillLimitError('skill://x/SKILL.md', problem),
    SkillResultError: new client.SkillResultError('skills/list', 'bad result'),
    SkillsUnsupportedError: new client.SkillsUnsupportedError('skills/list', 'no extension'),
  };
}

const classesOf = (core: typeof esm, client: typeof esmClient): Record<string, unknown> => ({
  SkillCatalog: core.SkillCatalog,
  SkillProtocolError: core.SkillProtocolError,
  SkillNotFoundError: core.SkillNotFoundError,
  CatalogError: core.CatalogError,
  StorageError: core.StorageError,
  OptionError: core.OptionError,
  SkillVerificationError: client.SkillVerificationError,
  SkillLimitError: client.SkillLimitError,
  SkillResultError: client.SkillResultError,
  SkillsUnsupportedError: client.SkillsUnsupportedError,
});

test('the two builds are separate copies (else this test proves nothing)', () => {
  assert.notEqual(esm.SkillCatalog, cjs.SkillCatalog);
  assert.notEqual(esm.OptionError, cjs.OptionError);
  assert.notEqual(esmClient.SkillVerificationError, cjsClient.SkillVerificationError);
});

test('every branded class answers instanceof for instances of the other build, both ways', async () => {
  const copies = [
    { name: 'ESM', made: await instances(esm, esmClient), classes: classesOf(esm, esmClient) },
    { name: 'CJS', made: await instances(cjs, cjsClient), classes: classesOf(cjs, cjsClient) },
  ];
  for (const from of copies) {
    for (const to of copies) {
      for (const [name, value] of Object.entries(from.made)) {
        const cls = to.classes[name] as new (...args: never[]) => unknown;
        assert.ok(value instanceof cls, `${from.name} ${name} instanceof ${to.name} ${name}`);
        // No class answers for another one's instances.
        for (const [other, otherCls] of Object.entries(to.classes)) {
          const related = other === name || (name === 'SkillNotFoundError' && other === 'SkillProtocolError');
          if (!related) assert.ok(!(value instanceof (otherCls as new () => unknown)), `${from.name} ${name} is not a ${to.name} ${other}`);
        }
      }
    }
  }
});

test('subclasses: a SkillNotFoundError is a SkillProtocolError, not the reverse, across builds', () => {
  for (const [a, b] of [
    [esm, cjs],
    [cjs, esm],
  ] as const) {
    assert.ok(new a.SkillNotFoundError('missing', 'skill://x/SKILL.md') instanceof b.SkillProtocolError);
    assert.ok(!(new a.SkillProtocolError(-32602, 'bad') instanceof b.SkillNotFoundError));
  }
  // An app's own subclass, without a brand of its own, is checked the ordinary way.
  class AppError extends esm.SkillProtocolError {}
  assert.ok(new AppError(-32000, 'app') instanceof AppError);
  assert.ok(new AppError(-32000, 'app') instanceof cjs.SkillProtocolError);
  assert.ok(!(new esm.SkillProtocolError(-32000, 'core') instanceof AppError));
  assert.ok(!(new cjs.SkillProtocolError(-32000, 'core') instanceof AppError));
});

test('unrelated values are not instances', () => {
  for (const [core, client] of [
    [esm, esmClient],
    [cjs, cjsClient],
  ] as const) {
    for (const value of [
      new Error('x'),
      new RangeError('x'),
      new TypeError('x'),
      { name: 'OptionError', code: 'invalid-value', option: 'x' },
      null,
      undefined,
      'OptionError',
      7,
    ]) {
      for (const [name, cls] of Object.entries(classesOf(core, client))) {
        assert.ok(!(value instanceof (cls as new () => unknown)), `${String(value)} instanceof ${name}`);
      }
    }
  }
});

test('an OptionError is a TypeError or a RangeError by its code, and an OptionError from either build', () => {
  for (const [make, check] of [
    [esm, cjs],
    [cjs, esm],
  ] as const) {
    const range = new make.OptionError('invalid-value', 'maxSessions', 'must be a positive integer, got 0', '@skillmount/express');
    assert.ok(range instanceof RangeError && !(range instanceof TypeError));
    assert.ok(range instanceof check.OptionError);
    assert.equal(range.message, '@skillmount/express: option "maxSessions" must be a positive integer, got 0');
    assert.equal(String(range), 'OptionError: @skillmount/express: option "maxSessions" must be a positive integer, got 0');
    assert.deepEqual([range.code, range.option, range.detail], ['invalid-value', 'maxSessions', 'must be a positive integer, got 0']);
    for (const code of ['invalid-type', 'missing-option', 'conflicting-options', 'unknown-option'] as const) {
      const error = new make.OptionError(code, 'storage', 'is wrong');
      assert.ok(error instanceof TypeError && !(error instanceof RangeError), code);
      assert.ok(error instanceof check.OptionError, code);
      assert.equal(error.message, 'skillmount: option "storage" is wrong');
    }
    assert.equal(
      new make.OptionError('invalid-type', '', 'must be an object', '@skillmount/fastify').message,
      '@skillmount/fastify: options must be an object',
    );
  }
  // The client subpath's OptionError is the same brand.
  assert.ok(new cjsClient.OptionError('invalid-type', 'x', 'y') instanceof esm.OptionError);
  assert.throws(() => cjsAdapter.checkAdapterOptions({}, '@skillmount/test'), esm.OptionError);
  assert.throws(() => esmAdapter.checkAdapterOptions({}, '@skillmount/test'), cjs.OptionError);
});

test('the adapters take a catalog from the other build as a catalog', async () => {
  const catalog = await cjs.SkillCatalog.load(cjs.memoryStorage(tree));
  assert.equal(esmAdapter.checkAdapterOptions({ catalog }, '@skillmount/test').origin.kind, 'catalog');

  const app = Fastify();
  try {
    await app.register(skillsPlugin, { source: catalog, path: false });
    assert.equal(app.skills.catalog, catalog, 'a catalog passed as source is recognised');
    assert.deepEqual(
      app.skills.entries.map((e) => e.uri),
      ['skill://demo/SKILL.md'],
    );
  } finally {
    await app.close();
  }

  const router = skillsMiddleware({ catalog });
  try {
    assert.equal(await router.ready, catalog);
  } finally {
    await router.close();
  }
});
