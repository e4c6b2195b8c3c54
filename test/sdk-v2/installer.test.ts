/**
 * The real `skills` installer (npm `skills`) installs every skill an SDK v2 app publishes with
 * `createWellKnownHandler` on its own Express app, byte for byte, and not the skill `visible`
 * hides. The installer reaches nothing beyond 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { lockedDigests, readTree, skillsAdd } from '../support/skills-installer.js';
import { tempTree } from '../support/trees.js';
import { FOLDERS } from '../well-known/tree.js';
import { loadCatalog, serveApp } from './surfaces-app.js';

const TIMEOUT = 600_000;

test('skills add from an SDK v2 app on Express: every visible skill, byte for byte; the hidden one is not installed', { timeout: TIMEOUT }, async (t) => {
  const { root, catalog } = await loadCatalog(t);
  const app = await serveApp('express', catalog);
  t.after(app.close);
  const project = tempTree(t, {}, 'skillmount-project-');
  const home = tempTree(t, {}, 'skillmount-home-');
  const run = await skillsAdd(app.origin, project, home);
  assert.deepEqual([...new Set(run.hosts)], ['127.0.0.1'], `the installer connected only to 127.0.0.1, got ${run.hosts.join(', ')}`);
  for (const [name, folder] of Object.entries(FOLDERS)) {
    assert.deepEqual(readTree(path.join(project, '.claude/skills', name)), readTree(path.join(root, folder)), `${name}: every file byte-identical`);
  }
  assert.deepEqual(Object.keys(lockedDigests(project)).sort(), Object.keys(FOLDERS).sort());
  assert.equal(existsSync(path.join(project, '.claude/skills/secret')), false, 'the hidden skill is not installed');
});
