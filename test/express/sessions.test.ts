import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import express from 'express';
import { ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { SkillCatalog, memoryStorage } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import { skillsMiddleware, type SkillsMiddlewareOptions } from '@skillmount/express';
import { EXAMPLES, checkSkillsEndpoint } from '../support/skills-suite.js';
import { connectClient } from '../support/client.js';
import { listenExpress } from '../support/apps.js';
import { post } from './post.js';
import { skillMd } from '../support/skill-md.js';

const greetMd = (text: string) => skillMd('greet', { description: 'Greets the user by name.', body: `${text}\n` });
const sha = (text: string) => 'sha256:' + createHash('sha256').update(text).digest('hex');

async function serve(t: { after: (fn: () => Promise<void>) => void }, options: SkillsMiddlewareOptions, withJsonParser = false) {
  const app = express();
  const gets: (() => void)[] = [];
  // Lets a test wait until the client has opened its GET stream for server-sent notifications.
  app.use('/mcp', (req, _res, next) => {
    if (req.method === 'GET') for (const resolve of gets.splice(0)) resolve();
    next();
  });
  if (withJsonParser) app.use(express.json());
  const skills = skillsMiddleware(options);
  app.use('/mcp', skills);
  const http = await listenExpress(app);
  t.after(async () => {
    await skills.close();
    await http.close();
  });
  const streamOpened = () => new Promise<void>((resolve) => gets.push(resolve));
  return { skills, url: http.url, streamOpened };
}

test('sessions: the whole endpoint check passes, with and without express.json()', async (t) => {
  for (const withJsonParser of [false, true]) {
    const { url } = await serve(t, { storage: fsStorage(EXAMPLES), pageSize: 2, sessions: true }, withJsonParser);
    await checkSkillsEndpoint(url, { pageSize: 2 });
  }
});

test('sessions: an app-loaded catalog, watched, with no body parser', async (t) => {
  const catalog = await SkillCatalog.load(fsStorage(EXAMPLES), { pageSize: 2 });
  t.after(() => catalog.close());
  const { url } = await serve(t, { catalog, sessions: true, watch: true });
  await checkSkillsEndpoint(url, { pageSize: 2 });
});

test('sessions: a reload that changes the catalog sends list_changed, and skills/get has the new digest', async (t) => {
  const storage = memoryStorage({ 'greet/SKILL.md': greetMd('Say hello.') });
  const { skills, url, streamOpened } = await serve(t, { storage, sessions: true });
  const opened = streamOpened();
  const { client, call, close } = await connectClient(url);
  try {
    const before = await call('skills/get', { uri: 'skill://greet/SKILL.md' });
    assert.equal(before.skill.resources[0].digest, sha(greetMd('Say hello.')));
    let notified = 0;
    let wake: () => void = () => {};
    client.setNotificationHandler(ResourceListChangedNotificationSchema, async () => {
      notified++;
      wake();
    });
    await opened;

    // The GET stream is registered just after the request arrives: change until a notice gets through.
    let text = '';
    for (let attempt = 0; attempt < 20 && notified === 0; attempt++) {
      text = `Say hello, version ${attempt}.`;
      storage.write('greet/SKILL.md', greetMd(text));
      const heard = new Promise<void>((resolve) => (wake = resolve));
      const report = await skills.reload();
      assert.deepEqual(report, { added: [], removed: [], changed: ['skill://greet/SKILL.md'], listChanged: true });
      await Promise.race([heard, new Promise((resolve) => setTimeout(resolve, 100))]);
    }
    assert.ok(notified > 0, 'notifications/resources/list_changed received');

    const after = await call('skills/get', { uri: 'skill://greet/SKILL.md' });
    assert.equal(after.skill.resources[0].digest, sha(greetMd(text)));
    const read = await client.readResource({ uri: 'skill://greet/SKILL.md' });
    assert.equal((read.contents[0] as { text: string }).text, greetMd(text));

    const unchanged = await skills.reload();
    assert.equal(unchanged.listChanged, false);
  } finally {
    await close();
  }
});

test('sessions: watch reloads when the storage changes', async (t) => {
  const storage = memoryStorage({ 'greet/SKILL.md': greetMd('Say hello.') });
  const { skills, url } = await serve(t, { storage, sessions: true, watch: true });
  await skills.ready;
  storage.write('wave/SKILL.md', '---\nname: wave\ndescription: Waves.\n---\nWave.\n');
  for (let i = 0; i < 100 && skills.entries.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(
    skills.entries.map((e) => e.uri),
    ['skill://greet/SKILL.md', 'skill://wave/SKILL.md'],
  );
  const { call, close } = await connectClient(url);
  try {
    assert.equal((await call('skills/list')).skills.length, 2);
  } finally {
    await close();
  }
});

test('sessions: a malformed opening request gets a JSON-RPC error; unknown sessions get 404', async (t) => {
  const { url } = await serve(t, { storage: fsStorage(EXAMPLES), sessions: true });
  const bad = await post(url, '{"jsonrpc": "2.0", "id": 1, "method": "initialize", ');
  assert.equal(bad.status, 400);
  assert.equal(bad.json.error.code, -32700);
  const notInit = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'skills/list' }));
  assert.equal(notInit.status, 400);
  assert.equal(notInit.json.error.code, -32000);
  const stale = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'skills/list' }), { 'mcp-session-id': 'no-such-session' });
  assert.equal(stale.status, 404);
  assert.equal(stale.json.error.code, -32001);
});
