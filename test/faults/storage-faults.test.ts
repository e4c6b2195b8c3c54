import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { SkillCatalog, memoryStorage, type SkillWarning } from '@skillmount/core';
import { SkillsClient } from '@skillmount/core/client';
import { connectClient, errorCode } from '../support/client.js';
import { send } from '../hostile/raw-http.js';
import { FRAMEWORKS, serve } from '../hostile/servers.js';
import { faultyStorage, type FaultyStorage } from './faulty-storage.js';
import { tenantFromHeader, tenantRouter } from './tenants.js';

const TIMEOUT_MS = 300;

const skill = (name: string, body: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\n\n${body}\n`;

/** Keep one tenant's client busy (list, get, verified read) until stopped; every call must succeed. */
function keepBusy(skills: SkillsClient) {
  let running = true;
  const state = { calls: 0, failures: [] as unknown[] };
  const loop = (async () => {
    while (running) {
      try {
        const { skills: listed } = await skills.list();
        state.calls++;
        const { skill: entry } = await skills.get(listed[0]!.uri);
        state.calls++;
        const file = await skills.read(entry, 'notes.md');
        assert.equal(file.verified, true);
        state.calls++;
      } catch (error) {
        state.failures.push(error);
      }
    }
  })();
  return {
    /** Calls answered so far. */
    get calls() {
      return state.calls;
    },
    async stop() {
      running = false;
      await loop;
      return state;
    },
  };
}

async function rejectsWithin(promise: Promise<unknown>, ms: number): Promise<{ code: number; message: string; elapsed: number }> {
  const started = Date.now();
  try {
    await promise;
  } catch (error) {
    const { code, message } = error as { code: number; message: string };
    return { code, message, elapsed: Date.now() - started };
  }
  throw new Error(`expected a failure within ${ms} ms`);
}

for (const framework of FRAMEWORKS) {
  test(`${framework}: a storage that fails, hangs or returns garbage mid-run: -32603 for its reads, other tenants unaffected, recovery`, {
    timeout: 20_000,
  }, async () => {
    const warnings: SkillWarning[] = [];
    const onWarning = (w: SkillWarning) => warnings.push(w);
    const inner = memoryStorage({ 'docs/SKILL.md': skill('docs', 'Read notes.md.'), 'docs/notes.md': 'tenant a notes\n' });
    const storageA: FaultyStorage = faultyStorage(inner, 'tenant-a');
    const storageB = faultyStorage(memoryStorage({ 'ops/SKILL.md': skill('ops', 'Read notes.md.'), 'ops/notes.md': 'tenant b notes\n' }), 'tenant-b');
    // No bytes cache: every read goes to the storage under test.
    const catalogA = await SkillCatalog.load(storageA, { timeoutMs: TIMEOUT_MS, onWarning, cacheBytes: 0 });
    const catalogB = await SkillCatalog.load(storageB, { timeoutMs: TIMEOUT_MS, onWarning, cacheBytes: 0 });
    const served = await serve(framework, { source: tenantRouter({ a: catalogA, b: catalogB }), context: tenantFromHeader, onWarning });
    const a = await connectClient(served.url, { 'x-tenant': 'a' });
    const b = await connectClient(served.url, { 'x-tenant': 'b' });
    const skillsA = new SkillsClient(a.client);
    const busyB = keepBusy(new SkillsClient(b.client));
    try {
      const { skill: docs } = await skillsA.get('skill://docs/SKILL.md');
      assert.equal((await skillsA.read(docs, 'notes.md')).text, 'tenant a notes\n');
      const readA = () => a.client.readResource({ uri: 'skill://docs/notes.md' });

      // Fails: -32603 that names the file, not the storage; the cause goes to the log.
      storageA.mode = 'fail';
      const failed = await rejectsWithin(readA(), 5000);
      assert.equal(failed.code, -32603);
      assert.ok(!failed.message.includes(storageA.where) && !failed.message.includes('EIO'), failed.message);
      assert.match(failed.message, /skill:\/\/docs\/notes\.md/);
      assert.ok(
        warnings.some((w) => w.code === 'read-failed' && w.message.includes(storageA.where)),
        'the cause is logged',
      );
      assert.equal((await skillsA.list()).skills.length, 1, 'listing is served from memory meanwhile');
      await assert.rejects(catalogA.reload(), 'a reload against the failing storage fails');
      assert.equal((await skillsA.list()).skills.length, 1, 'and keeps the old catalog');
      storageA.mode = 'ok';
      assert.equal((await skillsA.read(docs, 'notes.md')).text, 'tenant a notes\n', 'recovered');

      // Hangs: -32603 once the storage call times out, not a hung request; tenant b is answered meanwhile.
      storageA.mode = 'hang';
      const callsBefore = busyB.calls;
      const hung = await rejectsWithin(readA(), 5000);
      assert.ok(busyB.calls > callsBefore, 'tenant b was answered while a read of tenant a hung');
      assert.equal(hung.code, -32603);
      assert.ok(hung.elapsed >= TIMEOUT_MS - 50 && hung.elapsed < TIMEOUT_MS + 2000, `answered after ${hung.elapsed} ms`);
      assert.ok(!hung.message.includes(storageA.where), hung.message);
      assert.ok(warnings.some((w) => w.code === 'read-failed' && /within 300 ms/.test(w.message)));
      storageA.mode = 'ok';
      assert.equal((await skillsA.read(docs, 'notes.md')).text, 'tenant a notes\n', 'recovered');

      // Garbage: refused, never served — not one byte of it in the raw answer.
      storageA.mode = 'garbage';
      assert.equal(await errorCode(readA()), -32603);
      const raw = await send(served.url, {
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'resources/read', params: { uri: 'skill://docs/notes.md' } }),
        headers: { 'x-tenant': 'a' },
      });
      assert.ok(raw.kind === 'response' && raw.status === 200);
      assert.ok(raw.text.includes('"code":-32603'), raw.text);
      assert.ok(!raw.text.includes(storageA.garbageMarker) && !raw.text.includes('GARBAGE'), 'no garbage byte is sent');
      assert.ok(warnings.some((w) => w.code === 'changed' && w.uri === 'skill://docs/notes.md'));
      storageA.mode = 'ok';
      assert.equal((await skillsA.read(docs, 'notes.md')).text, 'tenant a notes\n', 'the published bytes are served again');

      // Real new content: refused until the catalog reloads, then served with its new digest.
      inner.write('docs/notes.md', 'tenant a notes, second edition\n');
      assert.equal(await errorCode(readA()), -32603);
      const report = await catalogA.reload();
      assert.deepEqual(report.changed, ['skill://docs/SKILL.md']);
      const { skill: fresh } = await skillsA.get('skill://docs/SKILL.md');
      assert.equal((await skillsA.read(fresh, 'notes.md')).text, 'tenant a notes, second edition\n');

      const { calls, failures } = await busyB.stop();
      assert.deepEqual(failures, [], 'tenant b never saw an error');
      assert.ok(calls > 0, `tenant b kept being answered (${calls} calls)`);
    } finally {
      await busyB.stop();
      storageA.release();
      storageB.release();
      await a.close();
      await b.close();
      await served.close();
    }
  });
}

for (const framework of FRAMEWORKS) {
  test(`${framework}: the storage option's timeoutMs bounds each storage call; the app keeps answering meanwhile`, async () => {
    const warnings: SkillWarning[] = [];
    const storage = faultyStorage(memoryStorage({ 'docs/SKILL.md': skill('docs', 'Read notes.md.'), 'docs/notes.md': 'notes\n' }), 'single');
    const served = await serve(framework, { storage, timeoutMs: TIMEOUT_MS, onWarning: (w) => warnings.push(w) });
    const { client, close } = await connectClient(served.url);
    try {
      storage.mode = 'hang';
      const pending = rejectsWithin(client.readResource({ uri: 'skill://docs/notes.md' }), 5000);
      const listed = await client.request({ method: 'skills/list', params: {} } as never, ResultSchema);
      assert.equal((listed as { skills: unknown[] }).skills.length, 1, 'answered while a read hangs');
      const hung = await pending;
      assert.equal(hung.code, -32603);
      assert.ok(hung.elapsed < TIMEOUT_MS + 2000, `answered after ${hung.elapsed} ms`);
      assert.ok(warnings.some((w) => w.code === 'read-failed' && /within 300 ms/.test(w.message)));
      storage.mode = 'ok';
      const read = await client.readResource({ uri: 'skill://docs/notes.md' });
      assert.equal((read.contents[0] as { text: string }).text, 'notes\n');
    } finally {
      storage.release();
      await close();
      await served.close();
    }
  });
}
