/**
 * The test servers of apps.ts never close a kept-alive connection on their own. A client in the
 * same process (fetch, the SDK's client) may send its next request on an idle connection in the
 * same turn of the event loop whose timers would close it on the server side: on a loaded machine
 * a stalled loop runs the client's idle timer and the server's late, together. The request then
 * fails with ECONNRESET, HTTP/1.1's keep-alive race, which is about neither side's code and made
 * a test fail under load (`another client's skills/list failed … fetch failed`).
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs';
import { test } from 'node:test';
import express from 'express';
import { listenExpress, listenHttp } from './apps.js';

/** Block the event loop (asleep, no CPU) inside an I/O callback, then resolve in that same turn, before any timer runs. */
const stallFromIo = (ms: number) =>
  new Promise<void>((resolve) =>
    readFile(import.meta.filename, () => {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
      resolve();
    }),
  );

test('a request on a connection left idle across a stalled event loop is answered, by a bare handler and by Express', async () => {
  const bare = await listenHttp((req, res) => void req.resume().on('end', () => res.end('bare')));
  const app = express();
  app.post('/mcp', (_req, res) => void res.send('express'));
  const viaExpress = await listenExpress(app);
  try {
    const post = async (url: string) => (await fetch(url, { method: 'POST', body: '{}' })).text();
    assert.deepEqual(await Promise.all([post(bare.url), post(viaExpress.url)]), ['bare', 'express']);
    // Past Node's default keep-alive timeout (5 s) and its 1 s grace, from before the client's own idle timer (3 s).
    await stallFromIo(7000);
    assert.deepEqual(await Promise.all([post(bare.url), post(viaExpress.url)]), ['bare', 'express']);
  } finally {
    await bare.close();
    await viaExpress.close();
  }
});
