/**
 * `subscriptions/listen` on the modern path: a client that opts in to `resourcesListChanged`
 * hears of catalog reloads on its stream, and the stream ends with its closing result when the
 * server shuts down.
 */
import assert from 'node:assert/strict';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fsStorage } from '@skillmount/storage-fs';
import { EXAMPLES } from '../support/skills-suite.js';
import { listen, startTestApp } from './support.js';

const TAG = 'io.modelcontextprotocol/subscriptionId';

async function skillsCopy(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'skillmount-listen-'));
  await cp(EXAMPLES, dir, { recursive: true });
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

for (const framework of ['fastify', 'express'] as const) {
  describe(`subscriptions/listen, ${framework}`, () => {
    test('acknowledges resourcesListChanged, reports each reload that changed the list, and ends cleanly on shutdown', async (t) => {
      const dir = await skillsCopy(t);
      const app = await startTestApp(framework, { storage: fsStorage(dir), sessions: false });
      let closed = false;
      t.after(() => (closed ? undefined : app.close()));
      const stream = await listen(app.url, { resourcesListChanged: true, toolsListChanged: true, resourceSubscriptions: ['skill://git-workflow/SKILL.md'] });
      assert.equal(stream.status, 200);
      const ack = await stream.frame(1);
      assert.deepEqual(ack, {
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: { notifications: { resourcesListChanged: true }, _meta: { [TAG]: 'listen:0' } },
      });

      await writeFile(path.join(dir, 'git-workflow/SKILL.md'), '---\nname: git-workflow\ndescription: Changed while a client listens.\n---\n# Git\n');
      await app.reload();
      const changed = await stream.frame(2);
      assert.deepEqual(changed, { jsonrpc: '2.0', method: 'notifications/resources/list_changed', params: { _meta: { [TAG]: 'listen:0' } } });

      // A reload that changes nothing says nothing.
      await app.reload();
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(stream.frames.length, 2);

      await app.close();
      closed = true;
      await stream.ended;
      const last = stream.frames.at(-1);
      assert.equal(last.id, 'listen:0');
      assert.equal(last.result.resultType, 'complete');
      assert.equal(last.result._meta[TAG], 'listen:0');
      assert.equal(last.result._meta['io.modelcontextprotocol/serverInfo'].name, 'calculator-app');
    });

    test('nothing to honour: the acknowledgement and the closing result at once; bad params: -32602', async (t) => {
      const app = await startTestApp(framework, { sessions: false });
      t.after(() => app.close());
      const empty = await listen(app.url, { toolsListChanged: true }, {}, 7);
      await empty.ended;
      assert.equal(empty.frames.length, 2);
      assert.deepEqual(empty.frames[0].params.notifications, {});
      assert.equal(empty.frames[1].id, 7);
      assert.equal(empty.frames[1].result.resultType, 'complete');

      for (const notifications of [undefined, null, 'all', [true]]) {
        const bad = await listen(app.url, notifications);
        await bad.ended;
        assert.equal(bad.status, 200);
        assert.equal(bad.frames[0].error?.code, -32602, JSON.stringify(bad.frames));
      }
    });

    test('a client that leaves is forgotten: its stream closes and the server keeps serving', async (t) => {
      const app = await startTestApp(framework, { sessions: false });
      t.after(() => app.close());
      const streams = await Promise.all(Array.from({ length: 5 }, (_, i) => listen(app.url, { resourcesListChanged: true }, {}, i)));
      for (const s of streams) await s.frame(1);
      for (const s of streams) s.close();
      await Promise.all(streams.map((s) => s.ended));
      const again = await listen(app.url, { resourcesListChanged: true });
      assert.equal((await again.frame(1)).method, 'notifications/subscriptions/acknowledged');
      again.close();
    });
  });
}
