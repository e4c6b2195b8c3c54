/**
 * Where each adapter's warnings go: to the `onWarning` option when given, and nowhere else;
 * otherwise Fastify's to the app's logger (`app.log.warn`, with the warning object), Express's to
 * `console.warn`. Covered: a warning of the catalog the adapter loads, a request the endpoint
 * failed, and an internal error hidden from the client.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { memoryStorage, SkillCatalog, type SkillWarning } from '@skillmount/core';
import { skillMd } from '../support/skill-md.js';
import { connectClient, errorCode } from '../support/client.js';
import { ADAPTERS, PACKAGE, startAdapter, type AdapterKind, type AdapterOptions, type StartedAdapter } from './support.js';

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});

/** One skill, and one whose folder is not its name: skipped at load with a `name-mismatch` warning. */
const storageWithAMisnamedSkill = () => memoryStorage({ 'hello/SKILL.md': skillMd('hello'), 'wrong/SKILL.md': skillMd('right') });

/** A server factory that fails: the endpoint answers 500 and reports `request-failed`. */
const brokenServer = () => {
  throw new Error('the app server factory broke');
};

/** A source whose reads fail with a plain error, which the client must see only as an internal error. */
async function failingSource() {
  const catalog = await SkillCatalog.load(memoryStorage({ 'hello/SKILL.md': skillMd('hello') }));
  return {
    list: (params: { cursor?: string }) => catalog.list(params),
    get: (uri: string) => catalog.get(uri),
    read: async () => {
      throw new Error('disk on fire');
    },
  };
}

/** Cause the three warnings on `kind`, with `onWarning` or without; returns the two apps, closed when `t` ends. */
async function causeWarnings(t: { after(fn: () => Promise<void>): void }, kind: AdapterKind, onWarning?: (w: SkillWarning) => void): Promise<StartedAdapter[]> {
  const given: AdapterOptions = onWarning ? { onWarning } : {};
  const fromStorage = await startAdapter(kind, { storage: storageWithAMisnamedSkill(), server: brokenServer, ...given });
  t.after(() => fromStorage.close());
  const failed = await fetch(fromStorage.url, {
    method: 'POST',
    headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
    body: INITIALIZE,
  });
  assert.equal(failed.status, 500);
  assert.equal(((await failed.json()) as any).error.code, -32603);

  const fromSource = await startAdapter(kind, { source: await failingSource(), ...given });
  t.after(() => fromSource.close());
  const { client, close } = await connectClient(fromSource.url);
  try {
    assert.equal(await errorCode(client.readResource({ uri: 'skill://hello/SKILL.md' })), -32603);
  } finally {
    await close();
  }
  return [fromStorage, fromSource];
}

/** The warnings of `causeWarnings`, as code and the text each message must hold. */
const CAUSED = (kind: AdapterKind): [string, RegExp][] => [
  ['name-mismatch', /right/],
  ['request-failed', new RegExp(`${PACKAGE[kind]}: MCP request failed: the app server factory broke`)],
  ['internal-error', /disk on fire/],
];

const warnLines = (apps: StartedAdapter[]) => apps.flatMap((app) => app.logs.filter((line) => line.level === 40));

for (const kind of ADAPTERS) {
  test(`${kind}: with onWarning, every warning goes there and nowhere else`, async (t) => {
    const console = t.mock.method(globalThis.console, 'warn', () => undefined);
    const warnings: SkillWarning[] = [];
    const apps = await causeWarnings(t, kind, (warning) => warnings.push(warning));
    assert.deepEqual(
      warnings.map((w) => w.code),
      CAUSED(kind).map(([code]) => code),
    );
    for (const [i, [, message]] of CAUSED(kind).entries()) assert.match(warnings[i]!.message, message);
    assert.ok(warnings[1]!.message.startsWith(`${PACKAGE[kind]}: `), 'a warning of the adapter names it');
    assert.equal(console.mock.callCount(), 0, 'nothing on the console');
    assert.deepEqual(warnLines(apps), [], "nothing in Fastify's log");
  });

  test(`${kind}: without onWarning, ${kind === 'fastify' ? "warnings go to the app's logger, one line each with the warning object" : 'warnings go to console.warn'}`, async (t) => {
    const console = t.mock.method(globalThis.console, 'warn', () => undefined);
    const apps = await causeWarnings(t, kind);
    const caused = CAUSED(kind);
    if (kind === 'fastify') {
      // A Fastify plugin reports through the app's logger, which the app configures (level, destination, format).
      const lines = warnLines(apps);
      assert.deepEqual(
        lines.map((line) => line.warning.code),
        caused.map(([code]) => code),
      );
      for (const [i, [, message]] of caused.entries()) {
        assert.match(lines[i]!.msg, message);
        assert.equal(lines[i]!.msg, lines[i]!.warning.message);
      }
      assert.equal(lines[1]!.err?.message, 'the app server factory broke', "the failed request's cause, with its stack, beside the warning");
      assert.equal(console.mock.callCount(), 0, 'nothing on the console');
    } else {
      // Express has no logger of its own: the console, one line each.
      const printed = console.mock.calls.map((call) => String(call.arguments[0]));
      assert.equal(printed.length, caused.length, printed.join('\n'));
      for (const [i, [, message]] of caused.entries()) {
        assert.ok(printed[i]!.startsWith('[skillmount] '), printed[i]);
        assert.match(printed[i]!, message);
      }
      assert.deepEqual(warnLines(apps), []);
    }
  });

  test(`${kind}: a server with no request timeout`, async (t) => {
    const console = t.mock.method(globalThis.console, 'warn', () => undefined);
    const warnings: SkillWarning[] = [];
    const withHandler = await startAdapter(kind, { storage: storageWithAMisnamedSkill(), onWarning: (w) => warnings.push(w) }, { requestTimeout: 0 });
    t.after(() => withHandler.close());
    const withoutHandler = await startAdapter(kind, { storage: memoryStorage({ 'hello/SKILL.md': skillMd('hello') }) }, { requestTimeout: 0 });
    t.after(() => withoutHandler.close());
    const noTimeout = warnings.filter((w) => w.code === 'no-request-timeout');
    if (kind === 'fastify') {
      // Fastify's requestTimeout is 0 (none) by default: a client may hold a connection by sending its headers slowly.
      assert.equal(noTimeout.length, 1);
      assert.match(noTimeout[0]!.message, /^@skillmount\/fastify: this Fastify server has no requestTimeout.*Fastify\(\{ requestTimeout: 30000 \}\)/);
      const [line, ...more] = warnLines([withoutHandler]);
      assert.deepEqual(more, []);
      assert.equal(line?.warning.code, 'no-request-timeout');
      assert.equal(line?.msg, noTimeout[0]!.message);
    } else {
      // Express serves on Node's own HTTP server, whose requestTimeout (5 minutes) is on unless the app turns it off: nothing to say.
      assert.deepEqual(noTimeout, []);
      assert.equal(console.mock.callCount(), 0);
    }
  });
}
