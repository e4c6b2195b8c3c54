/**
 * An SDK v2 app serving a skillmount catalog (`sdkV2Skills`) reports what skillmount's own server
 * reports: the read hooks (`onSkillLoad`, `onFileRead`) with the era and, on 2026-07-28, the
 * client's name, and one `skillmount:request` trace per skills request. Through a real SDK v2 app
 * over HTTP: the SDK v1 client for 2025-11-25, raw 2026-07-28 requests for the other era.
 */
import assert from 'node:assert/strict';
import { tracingChannel } from 'node:diagnostics_channel';
import { test } from 'node:test';
import { memoryStorage, SKILLS_CHANNELS, SkillCatalog, type SkillReadEvent, type SkillRequestMessage } from '@skillmount/core';
import { connectClient } from '../support/client.js';
import { skillMd } from '../support/skill-md.js';
import { modern } from '../modern/support.js';
import { serveSdkV2 } from './support.js';

test('the read hooks and the request trace, on both eras, behind the SDK v2', async (t) => {
  const catalog = await SkillCatalog.load(memoryStorage({ 'alpha/SKILL.md': skillMd('alpha', 'First.'), 'alpha/notes.md': '# Notes\n' }));
  const loads: SkillReadEvent[] = [];
  const files: SkillReadEvent[] = [];
  const app = await serveSdkV2('express', catalog, { onSkillLoad: (e) => void loads.push(e), onFileRead: (e) => void files.push(e) });
  t.after(app.close);
  const requests: [string, string][] = [];
  const listen = { start: (m: SkillRequestMessage) => void requests.push([m.method, m.era]) };
  const channel = tracingChannel<unknown, SkillRequestMessage>(SKILLS_CHANNELS.request);
  channel.subscribe(listen as never);
  t.after(() => channel.unsubscribe(listen as never));

  const { client, close } = await connectClient(app.url);
  await client.readResource({ uri: 'skill://alpha/SKILL.md' });
  await client.readResource({ uri: 'skill://alpha/notes.md' });
  await close();
  assert.equal((await modern(app.url, 'resources/read', { uri: 'skill://alpha/SKILL.md' })).status, 200);
  assert.equal((await modern(app.url, 'resources/read', { uri: 'skill://nothing/SKILL.md' })).status, 200, 'the SDK v2 answers a miss in its body');

  assert.deepEqual(
    loads.map((e) => [e.skill, e.uri, e.via, e.era, e.client?.name]),
    [
      ['alpha', 'skill://alpha/SKILL.md', 'resources/read', '2025-11-25', undefined],
      ['alpha', 'skill://alpha/SKILL.md', 'resources/read', '2026-07-28', 'skillmount-modern-tests'],
    ],
  );
  assert.deepEqual(
    files.map((e) => [e.uri, e.era]),
    [['skill://alpha/notes.md', '2025-11-25']],
  );
  assert.deepEqual(
    requests.filter(([method]) => method === 'resources/read'),
    [
      ['resources/read', '2025-11-25'],
      ['resources/read', '2025-11-25'],
      ['resources/read', '2026-07-28'],
      ['resources/read', '2026-07-28'],
    ],
  );
});
