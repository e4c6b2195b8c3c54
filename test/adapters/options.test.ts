/**
 * Every option the adapters share, refused at start by both alike: Fastify when it registers the
 * plugin, Express when it creates the router. Each mistake fails with an OptionError of the same
 * code, option and detail on both (a RangeError for a value out of range, else a TypeError), its
 * message starting with the adapter's package name.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { memoryStorage, OptionError, SkillCatalog, type OptionErrorCode } from '@skillmount/core';
import { skillMd } from '../support/skill-md.js';
import { ADAPTERS, PACKAGE, startAdapter, type AdapterKind } from './support.js';

const storage = () => memoryStorage({ 'hello/SKILL.md': skillMd('hello') });
const source = { list: async () => ({ skills: [] }), get: async () => undefined, read: async () => undefined };

/** The OptionError `kind` refuses `options` with; fails the test when it starts. */
async function refusal(kind: AdapterKind, options: unknown): Promise<OptionError> {
  try {
    const started = await startAdapter(kind, options as never);
    await started.close();
  } catch (error) {
    assert.ok(error instanceof OptionError, `${kind}: ${String(error)}`);
    return error;
  }
  throw new Error(`${kind} started with ${JSON.stringify(options)}`);
}

/** Options, the option named, the code, and what the detail (the message after the option's name) says. */
type Case = [options: Record<string, unknown>, option: string, code: OptionErrorCode, detail: RegExp];

async function cases(): Promise<Case[]> {
  const catalog = await SkillCatalog.load(storage());
  const { watch: _, ...unwatchable } = storage();
  const s = storage();
  return [
    // Where the skills come from: exactly one, of the right shape.
    [{}, 'storage', 'missing-option', /^is missing: give exactly one of the options "storage", "catalog" or "source" \(none was given\)/],
    [{ storage: s, source: catalog }, 'source', 'conflicting-options', /^cannot be combined with "storage": .*\(got storage and source\)$/],
    [{ storage: s, catalog }, 'catalog', 'conflicting-options', /\(got storage and catalog\)$/],
    [{ catalog, source: catalog }, 'source', 'conflicting-options', /\(got catalog and source\)$/],
    [{ storage: { list() {} } }, 'storage', 'invalid-type', /^must be a SkillFiles storage with list\(dir\) and read\(path\) methods/],
    [{ source: { list() {} } }, 'source', 'invalid-type', /^must be a SkillSource: an object with list\(params, ctx\), get\(uri, ctx\) and read\(uri, ctx\)/],
    [{ catalog: { list() {}, get() {}, read() {} } }, 'catalog', 'invalid-type', /^must be a SkillCatalog, from await SkillCatalog\.load\(storage\)/],
    // Functions.
    [{ storage: s, server: {} }, 'server', 'invalid-type', /^must be a function that returns a new McpServer or Server.*, got an object$/],
    [{ storage: s, context: 'tenant' }, 'context', 'invalid-type', /^must be a function \(request\) => \(\{ \.\.\.fields \}\).*, got "tenant"$/],
    [{ storage: s, onWarning: 'log' }, 'onWarning', 'invalid-type', /^must be a function \(warning\) => void/],
    // Switches.
    [{ storage: s, sessions: 'yes' }, 'sessions', 'invalid-type', /^must be true or false, got "yes"$/],
    [{ storage: s, watch: 1 }, 'watch', 'invalid-type', /^must be true or false, got 1$/],
    [{ storage: s, wellKnown: 'yes' }, 'wellKnown', 'invalid-type', /^must be true or false, got "yes"$/],
    // Sessions.
    [{ storage: s, sessions: true, sessionIdleMs: 0 }, 'sessionIdleMs', 'invalid-value', /^must be a positive integer \(milliseconds\), got 0$/],
    [{ storage: s, sessionIdleMs: 1000 }, 'sessionIdleMs', 'conflicting-options', /^applies only with sessions: true$/],
    [{ storage: s, sessions: true, maxSessions: 1.5 }, 'maxSessions', 'invalid-value', /^must be a positive integer, got 1\.5$/],
    [{ storage: s, sessions: true, maxSessions: '10' }, 'maxSessions', 'invalid-type', /^must be a positive integer, got "10"$/],
    [{ storage: s, maxSessions: 10 }, 'maxSessions', 'conflicting-options', /^applies only with sessions: true$/],
    [{ storage: s, sessions: true, maxSessionsPerClient: 0 }, 'maxSessionsPerClient', 'invalid-value', /^must be a positive integer, got 0$/],
    [{ storage: s, maxSessionsPerClient: 5 }, 'maxSessionsPerClient', 'conflicting-options', /^applies only with sessions: true$/],
    // Listen streams (protocol 2026-07-28).
    [{ storage: s, maxListenStreams: 0 }, 'maxListenStreams', 'invalid-value', /^must be a positive integer, got 0$/],
    [{ storage: s, maxListenStreamsPerClient: 'x' }, 'maxListenStreamsPerClient', 'invalid-type', /^must be a positive integer, got "x"$/],
    [{ storage: s, listenLifetimeMs: 2 ** 31 }, 'listenLifetimeMs', 'invalid-value', /^must be at most 2147483647 \(about 24 days\), got 2147483648$/],
    // Request checks.
    [{ storage: s, allowedHosts: 'localhost' }, 'allowedHosts', 'invalid-type', /^must be a list of host names/],
    [{ storage: s, allowedHosts: [] }, 'allowedHosts', 'invalid-value', /^is an empty list/],
    [{ storage: s, allowedOrigins: 'https://app.example.com' }, 'allowedOrigins', 'invalid-type', /^must be a list of origins/],
    [{ storage: s, allowedOrigins: [42] }, 'allowedOrigins', 'invalid-type', /^entry 0 must be a string/],
    [{ storage: s, allowedOrigins: ['*'] }, 'allowedOrigins', 'invalid-value', /^entry 0 is "\*", which would let any web page/],
    [{ storage: s, allowedOrigins: ['null'] }, 'allowedOrigins', 'invalid-value', /^entry 0 is "null"/],
    [
      { storage: s, allowedOrigins: ['https://app.example.com/mcp'] },
      'allowedOrigins',
      'invalid-value',
      /^entry 0 \("https:\/\/app\.example\.com\/mcp"\) is not an origin/,
    ],
    [{ storage: s, allowedOrigins: ['app.example.com'] }, 'allowedOrigins', 'invalid-value', /is not an origin: give a scheme/],
    [{ storage: s, allowedOrigins: ['ftp://app.example.com'] }, 'allowedOrigins', 'invalid-value', /is not an origin/],
    [{ storage: s, bodyLimit: 0 }, 'bodyLimit', 'invalid-value', /^must be a positive integer/],
    [{ storage: s, bodyTimeout: -5 }, 'bodyTimeout', 'invalid-value', /^must be a positive integer/],
    // The skills named in instructions.
    [
      { storage: s, instructions: 'always' },
      'instructions',
      'invalid-type',
      /^must be 'auto', true, false or \{ maxBytes\?: number, intro\?: string \}, got "always"$/,
    ],
    [{ storage: s, instructions: { maxBytes: 100 } }, 'instructions.maxBytes', 'invalid-value', /^must be an integer from 512 to 65536 .*, got 100$/],
    [{ storage: s, instructions: { intro: 'a\nb' } }, 'instructions.intro', 'invalid-value', /^must be one line without control characters or line breaks/],
    [{ storage: s, instructions: { max: 1 } }, 'instructions.max', 'unknown-option', /^is not an option of instructions: it takes maxBytes and intro$/],
    // Catalog options, with storage.
    [{ storage: s, pageSize: 0 }, 'pageSize', 'invalid-value', /^must be a positive integer or Infinity, got 0$/],
    [{ storage: s, pageSize: '2' }, 'pageSize', 'invalid-type', /^must be a positive integer or Infinity/],
    [{ storage: s, limits: { files: -1 } }, 'limits.files', 'invalid-value', /-1/],
    [{ storage: s, prefix: '../up' }, 'prefix', 'invalid-value', /\.\./],
    [{ storage: s, baseUri: 'skill:' }, 'baseUri', 'invalid-value', /skill:/],
    [{ storage: s, cacheHint: { cacheScope: 'shared' } }, 'cacheHint.cacheScope', 'invalid-value', /shared/],
    [{ storage: s, strict: 'yes' }, 'strict', 'invalid-type', /^must be true or false/],
    [{ storage: s, concurrency: 0 }, 'concurrency', 'invalid-value', /got 0/],
    [{ storage: s, timeoutMs: 0 }, 'timeoutMs', 'invalid-value', /got 0/],
    [{ storage: s, cacheBytes: -1 }, 'cacheBytes', 'invalid-value', /^must be a non-negative integer/],
    [{ storage: s, retainMs: -1 }, 'retainMs', 'invalid-value', /^must be a non-negative integer \(milliseconds; 0 keeps no earlier bytes\), got -1$/],
    [{ storage: s, retainMs: '1m' }, 'retainMs', 'invalid-type', /^must be a non-negative integer/],
    [{ storage: s, cacheHint: { ttlMs: 120_000 }, retainMs: 60_000 }, 'retainMs', 'conflicting-options', /^must be at least cacheHint\.ttlMs \(120000\)/],
    [{ storage: s, trust: { keys: [], requireSignature: true } }, 'trust.keys', 'invalid-value', /^is empty, so requireSignature would refuse every skill/],
    [{ storage: s, trust: { keys: [{ name: 'k.pub', publicKey: 'nope' }] } }, 'trust.keys[0].publicKey', 'invalid-value', /holds no PEM "PUBLIC KEY" block/],
    // Options that would do nothing with what was given.
    [
      { catalog, pageSize: 2 },
      'pageSize',
      'conflicting-options',
      /^applies only with storage; pass pageSize to SkillCatalog\.load\(storage, options\) instead$/,
    ],
    [{ catalog, cacheBytes: 0 }, 'cacheBytes', 'conflicting-options', /^applies only with storage; pass cacheBytes to SkillCatalog\.load/],
    [{ catalog, trust: { keys: [] } }, 'trust', 'conflicting-options', /^applies only with storage; pass trust to SkillCatalog\.load/],
    [{ source, pageSize: 2 }, 'pageSize', 'conflicting-options', /^applies only with storage; a custom source answers that itself$/],
    [{ source: catalog, strict: true }, 'strict', 'conflicting-options', /^applies only with storage or a custom source; pass strict to SkillCatalog\.load/],
    [{ source, strict: 'yes' }, 'strict', 'invalid-type', /^must be true or false, got "yes"$/],
    [{ source, watch: true }, 'watch', 'conflicting-options', /^needs storage or catalog; a custom source reports its own changes/],
    [
      { storage: unwatchable, watch: true },
      'watch',
      'conflicting-options',
      /^needs a storage with a watch\(\) method, and this storage has none; call reload\(\) yourself/,
    ],
  ];
}

test('every shared option mistake is refused at start by both adapters with the same OptionError', async () => {
  for (const [options, option, code, detail] of await cases()) {
    const errors = {} as Record<AdapterKind, OptionError>;
    for (const kind of ADAPTERS) {
      const error = await refusal(kind, options);
      const where = `${kind} ${option}: ${error.message}`;
      assert.equal(error.code, code, where);
      assert.equal(error.option, option, where);
      assert.ok(code === 'invalid-value' ? error instanceof RangeError : error instanceof TypeError, where);
      assert.equal(error.message, `${PACKAGE[kind]}: option "${option}" ${error.detail}`, where);
      assert.match(error.detail, detail, where);
      errors[kind] = error;
    }
    assert.equal(errors.express.detail, errors.fastify.detail, `${option}: the same detail on both`);
  }
});

test('pinned difference: no options at all', async () => {
  // Fastify hands a plugin registered without options an empty object, so what is missing is where the skills come from.
  const fastify = await refusal('fastify', undefined);
  assert.equal(fastify.code, 'missing-option');
  assert.equal(fastify.option, 'storage');
  // skillsMiddleware() is a plain call: Express has nothing to hand it, so the options object itself is what is wrong.
  const express = await refusal('express', undefined);
  assert.equal(express.code, 'invalid-type');
  assert.equal(express.option, '');
  assert.match(express.message, /^@skillmount\/express: options must be an object with one of storage, catalog or source/);
});
