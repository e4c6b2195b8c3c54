/**
 * Protocol 2025-11-25 with `sessions: true` behind each adapter: the skills methods, and catalog
 * changes (a reload, a watched storage) reaching connected clients as list_changed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { memoryStorage, SkillCatalog } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import { connectClient } from '../support/client.js';
import { checkSkillsEndpoint, EXAMPLES } from '../support/skills-suite.js';
import { skillMd } from '../support/skill-md.js';
import { sleep, waitFor, within } from '../support/wait.js';
import { ADAPTERS, startAdapter } from './support.js';

const HELLO = 'skill://hello/SKILL.md';
const helloMd = (body: string) => skillMd('hello', { body: `${body}\n` });
const sha = (text: string) => 'sha256:' + createHash('sha256').update(text).digest('hex');

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

for (const kind of ADAPTERS) {
  test(`${kind}: sessions: every skills method over examples/skills, two skills per page`, async (t) => {
    const started = await startAdapter(kind, { storage: fsStorage(EXAMPLES), pageSize: 2, sessions: true });
    t.after(() => started.close());
    await checkSkillsEndpoint(started.url, { pageSize: 2 });
  });

  test(`${kind}: sessions: a catalog the app loaded, watched`, async (t) => {
    const catalog = await SkillCatalog.load(fsStorage(EXAMPLES), { pageSize: 2 });
    t.after(() => catalog.close());
    const started = await startAdapter(kind, { catalog, sessions: true, watch: true });
    t.after(() => started.close());
    await checkSkillsEndpoint(started.url, { pageSize: 2 });
  });

  test(`${kind}: sessions: a reload that changes the catalog reaches connected clients as list_changed, with the new digest and bytes`, async (t) => {
    const storage = memoryStorage({ 'hello/SKILL.md': helloMd('Version one.') });
    const started = await startAdapter(kind, { storage, sessions: true });
    t.after(() => started.close());
    const opened = started.streamOpened();
    const session = await sessionClient(started.url);
    t.after(() => session.close());
    await within(opened, 5000, 'the GET event stream');
    const before = await session.call('skills/get', { uri: HELLO });
    assert.equal(before.skill.resources[0].digest, sha(helloMd('Version one.')));

    // watch is off: writing alone changes nothing the client sees.
    storage.write('hello/SKILL.md', helloMd('Version two.'));
    assert.equal((await session.call('skills/get', { uri: HELLO })).skill.resources[0].digest, before.skill.resources[0].digest);

    assert.deepEqual(await started.skills.reload(), { added: [], removed: [], changed: [HELLO], listChanged: true });
    await session.nextListChanged();
    assert.equal((await session.call('skills/get', { uri: HELLO })).skill.resources[0].digest, sha(helloMd('Version two.')));
    const read = await session.client.readResource({ uri: HELLO });
    assert.equal((read.contents[0] as { text: string }).text, helloMd('Version two.'));

    storage.write('bye/SKILL.md', skillMd('bye'));
    assert.deepEqual((await started.skills.reload()).added, ['skill://bye/SKILL.md']);
    await session.nextListChanged();
    assert.deepEqual(
      started.skills.entries.map((e) => e.uri),
      ['skill://bye/SKILL.md', HELLO],
    );
    assert.equal((await session.call('skills/list')).skills.length, 2);
    assert.equal((await started.skills.reload()).listChanged, false, 'nothing changed since');
  });

  test(`${kind}: sessions with watch: a storage change reloads and notifies without a call; once closed, nothing is watched`, async (t) => {
    const storage = memoryStorage({ 'hello/SKILL.md': helloMd('Version one.') });
    const started = await startAdapter(kind, { storage, sessions: true, watch: true });
    t.after(() => started.close());
    const opened = started.streamOpened();
    const session = await sessionClient(started.url);
    try {
      await within(opened, 5000, 'the GET event stream');
      storage.write('hello/SKILL.md', helloMd('Watched.'));
      await session.nextListChanged();
      assert.equal((await session.call('skills/get', { uri: HELLO })).skill.resources[0].digest, sha(helloMd('Watched.')));
      storage.write('wave/SKILL.md', skillMd('wave'));
      await waitFor(() => started.skills.entries.length === 2, 'the watched write to be served');
      assert.equal((await session.call('skills/list')).skills.length, 2);
    } finally {
      await session.close();
      await started.closeAdapter();
    }
    const entries = started.skills.entries;
    storage.write('late/SKILL.md', skillMd('late'));
    await sleep(50);
    assert.equal(started.skills.entries, entries, 'the catalog the adapter loaded is closed with it');
  });
}
