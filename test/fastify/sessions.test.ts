import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { memoryStorage } from '@skillmount/core';
import type { FastifyInstance } from 'fastify';
import { connectClient } from '../support/client.js';
import { within } from '../support/wait.js';
import { startApp } from './app.js';
import { skillMd } from '../support/skill-md.js';

const sha = (text: string) => 'sha256:' + createHash('sha256').update(text).digest('hex');
const HELLO = 'skill://hello/SKILL.md';

/** Resolves once a session's standalone GET stream is open (its headers sent), so notifications have a way out. */
function streamOpened(app: FastifyInstance): Promise<void> {
  return new Promise((resolve) => {
    app.addHook('onRequest', async (request, reply) => {
      if (request.method !== 'GET') return;
      const raw: ServerResponse = reply.raw;
      const poll = setInterval(() => {
        if (raw.headersSent || raw.destroyed) {
          clearInterval(poll);
          resolve();
        }
      }, 5);
    });
  });
}

/** A connected session client with a promise for the next list_changed notification. */
async function sessionClient(url: string) {
  const session = await connectClient(url);
  let notified!: () => void;
  let next = new Promise<void>((resolve) => (notified = resolve));
  session.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => notified());
  const nextListChanged = async () => {
    await within(next, 5000, 'notifications/resources/list_changed');
    next = new Promise<void>((resolve) => (notified = resolve));
  };
  return { ...session, nextListChanged };
}

test('sessions: a reload that changes the catalog reaches connected clients as list_changed', async () => {
  const storage = memoryStorage({ 'hello/SKILL.md': skillMd('hello', { body: 'Version one.\n' }) });
  let opened!: Promise<void>;
  const { app, url } = await startApp({ storage, sessions: true }, (app) => {
    opened = streamOpened(app);
  });
  const session = await sessionClient(url);
  try {
    await within(opened, 5000, 'the GET event stream');
    const before = await session.call('skills/get', { uri: HELLO });
    assert.equal(before.skill.resources[0].digest, sha(skillMd('hello', { body: 'Version one.\n' })));

    // watch is off: writing alone changes nothing the client sees.
    storage.write('hello/SKILL.md', skillMd('hello', { body: 'Version two.\n' }));
    assert.equal((await session.call('skills/get', { uri: HELLO })).skill.resources[0].digest, before.skill.resources[0].digest);

    const report = await app.skills.reload();
    assert.deepEqual(report, { added: [], removed: [], changed: [HELLO], listChanged: true });
    await session.nextListChanged();
    const after = await session.call('skills/get', { uri: HELLO });
    assert.equal(after.skill.resources[0].digest, sha(skillMd('hello', { body: 'Version two.\n' })));
    const read = await session.client.readResource({ uri: HELLO });
    assert.equal((read.contents[0] as { text: string }).text, skillMd('hello', { body: 'Version two.\n' }));

    storage.write('bye/SKILL.md', skillMd('bye', { body: 'Goodbye.\n' }));
    assert.deepEqual((await app.skills.reload()).added, ['skill://bye/SKILL.md']);
    await session.nextListChanged();
    assert.deepEqual(
      app.skills.entries.map((e) => e.uri),
      ['skill://bye/SKILL.md', HELLO],
    );
    assert.equal((await session.call('skills/list')).skills.length, 2);
  } finally {
    await session.close();
    await app.close();
  }
});

test('sessions with watch: a storage change reloads and notifies without a call', async () => {
  const storage = memoryStorage({ 'hello/SKILL.md': skillMd('hello', { body: 'Version one.\n' }) });
  let opened!: Promise<void>;
  const { app, url } = await startApp({ storage, sessions: true, watch: true }, (app) => {
    opened = streamOpened(app);
  });
  const session = await sessionClient(url);
  try {
    await within(opened, 5000, 'the GET event stream');
    storage.write('hello/SKILL.md', skillMd('hello', { body: 'Watched.\n' }));
    await session.nextListChanged();
    const after = await session.call('skills/get', { uri: HELLO });
    assert.equal(after.skill.resources[0].digest, sha(skillMd('hello', { body: 'Watched.\n' })));
  } finally {
    await session.close();
    await app.close();
  }
  // After close the plugin's catalog no longer watches: a write reloads nothing.
  const entries = app.skills.entries;
  storage.write('late/SKILL.md', skillMd('late', { body: 'Too late.\n' }));
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(app.skills.entries, entries);
});

test('sessions: requests without a session are refused with JSON-RPC errors', async () => {
  const { app, url } = await startApp({ storage: memoryStorage({ 'hello/SKILL.md': skillMd('hello', { body: 'Hi.\n' }) }), sessions: true });
  try {
    const headers = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
    const noSession = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'skills/list' }) });
    assert.equal(noSession.status, 400);
    assert.equal(((await noSession.json()) as any).error.code, -32000);
    const unknown = await fetch(url, { method: 'GET', headers: { ...headers, 'mcp-session-id': 'no-such-session' } });
    assert.equal(unknown.status, 404);
    assert.equal(((await unknown.json()) as any).error.code, -32001);
  } finally {
    await app.close();
  }
});
