/**
 * Express 4, a declared peer (`^4.21.0 || ^5.0.0`): the adapter as an Express 4 app loads it. The
 * workspace's `express` is Express 5, so the built adapter is copied into a folder whose
 * `express` is the `express4` dev dependency (Express 4), and the app there runs in a child
 * process: both the app and the adapter must report Express 4, or the test proves nothing.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { startChildServer, type ChildServer } from '../support/child-server.js';
import { checkSkillsEndpoint, EXAMPLES } from '../support/skills-suite.js';
import { tempDir } from '../support/trees.js';
import { within } from '../support/wait.js';
import { post } from './post.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'skills/list', params: {} });

/** A folder where `express` is Express 4 for the app and for a copy of the built adapter. */
function express4Folder(): { dir: string; remove: () => void } {
  const folder = tempDir('skillmount-express4-');
  const modules = path.join(folder.dir, 'node_modules');
  mkdirSync(path.join(modules, '@skillmount/express'), { recursive: true });
  symlinkSync(realpathSync(path.join(REPO, 'node_modules/express4')), path.join(modules, 'express'), 'dir');
  // Copied, not linked: a link would resolve the adapter's `express` from the workspace (Express 5).
  cpSync(path.join(REPO, 'packages/express/package.json'), path.join(modules, '@skillmount/express/package.json'));
  cpSync(path.join(REPO, 'packages/express/dist'), path.join(modules, '@skillmount/express/dist'), { recursive: true });
  for (const name of ['core', 'storage-fs']) symlinkSync(path.join(REPO, 'packages', name), path.join(modules, '@skillmount', name), 'dir');
  cpSync(path.join(import.meta.dirname, 'express4-server.mjs'), path.join(folder.dir, 'server.mjs'));
  return folder;
}

let folder: { dir: string; remove: () => void };
let server: ChildServer;
let base: string;

before(async () => {
  folder = express4Folder();
  server = await startChildServer(['server.mjs', EXAMPLES], /^\{.*\}$/m, 'the Express 4 app', 30_000, { cwd: folder.dir });
  const started = JSON.parse(server.ready[0]) as { url: string; versions: { app: string; adapter: string } };
  assert.match(started.versions.app, /^4\./, 'the app runs on Express 4');
  assert.match(started.versions.adapter, /^4\./, 'the adapter loads Express 4');
  base = started.url;
});

after(async () => {
  await server?.stop();
  folder?.remove();
});

test('Express 4: the whole skills suite, stateless', async () => {
  await checkSkillsEndpoint(`${base}/mcp`);
});

test('Express 4: the whole skills suite, with sessions', async () => {
  await checkSkillsEndpoint(`${base}/sessions/mcp`);
});

test("Express 4: the app's middleware before the skills still answers first", async () => {
  const res = await post(`${base}/mcp`, LIST, { 'x-deny': '1' });
  assert.equal(res.status, 403);
  assert.deepEqual(res.json, { denied: true });
});

test("Express 4: a failing context reaches the app's error handler instead of hanging", async () => {
  const res = await within(post(`${base}/mcp`, LIST, { 'x-throw': '1' }), 10_000, 'the answer');
  assert.equal(res.status, 500);
  assert.deepEqual(res.json, { appError: 'no such tenant' });
});
