/**
 * `resources/read` of a cached file makes no copy of its bytes per request and encodes them once,
 * when they are verified; what goes on the wire is that encoding, so it stays right even if a
 * caller writes into the shared bytes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SkillCatalog, createSkillsEndpoint } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import { connectClient } from '../support/client.js';
import { demoTree, warnings } from './helpers.js';
import { listenHttp } from '../support/apps.js';
import { tempDir, writeTree } from '../support/trees.js';

const URI = 'skill://pdf-processing/templates/invoice.md';

test('a cached file is served from one shared copy, encoded once, and mutating it changes nothing sent', async (t) => {
  const tmp = tempDir();
  t.after(tmp.remove);
  writeTree(tmp.dir, demoTree());
  const w = warnings();
  const catalog = await SkillCatalog.load(fsStorage(tmp.dir), { onWarning: w.onWarning });
  t.after(() => catalog.close());

  const first = await catalog.read(URI);
  const second = await catalog.read(URI);
  assert.equal(first.bytes, second.bytes, 'the same bytes, not a copy per read');
  const original = Buffer.from(first.bytes).toString('utf8');
  first.bytes.fill(0x21); // a careless caller

  const endpoint = createSkillsEndpoint({ source: catalog, sessions: false });
  const server = await listenHttp((req, res) => endpoint.handle(req, res, undefined));
  t.after(server.close);
  const { client, close } = await connectClient(server.url);
  t.after(close);
  const read = await client.readResource({ uri: URI });
  assert.equal((read.contents[0] as { text: string }).text, original);
  assert.deepEqual(w.list, []);
});
