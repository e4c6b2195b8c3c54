/**
 * A live reload as an SDK v2 client sees it: listening on `subscriptions/listen` (2026-07-28), it
 * hears `notifications/resources/list_changed` when a file is added to a served storage holding
 * `numberedSkills(2)`, and gets the new file's digest and bytes, then a new skill in the listing.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SkillsClient as V2SkillsClient } from '@modelcontextprotocol/client/ext/skills';

const sha256 = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;
export const MODERN = { version: '2026-07-28', options: { versionNegotiation: { mode: 'auto' as const } } };

export async function connect(url: string, options: object, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'sdk-v2-host', version: '1.0.0' }, options);
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

export /** `heard` counts calls; `next()` resolves once a call not yet taken has come, or rejects after `ms`. */
function calls(ms: number): { heard: () => void; next: () => Promise<void> } {
  let count = 0;
  let taken = 0;
  let wake: (() => void) | undefined;
  return {
    heard: () => {
      count++;
      wake?.();
    },
    next: async () => {
      const deadline = Date.now() + ms;
      while (count <= taken) {
        if (Date.now() > deadline) throw new Error(`no notifications/resources/list_changed within ${ms} ms`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 100);
        });
      }
      taken++;
    },
  };
}

/** `add` writes files into the storage the app at `url` serves (which holds `numberedSkills(2)` and follows changes). */
export async function assertReloadReachesClient(url: string, add: (files: Record<string, string>) => Promise<void>): Promise<void> {
  const client = await connect(url, MODERN.options);
  try {
    const changes = calls(15_000);
    client.setNotificationHandler('notifications/resources/list_changed', changes.heard);
    const subscription = await client.listen({ resourcesListChanged: true });
    assert.equal(subscription.honoredFilter.resourcesListChanged, true);
    const skills = new V2SkillsClient(client);
    const before = (await skills.get('skill://skill-0/SKILL.md')).skill;
    assert.ok(Array.isArray(before.resources) && !before.resources.some((r) => r.uri.endsWith('/added.md')));

    const added = '# Added while serving\n';
    await add({ 'skill-0/refs/added.md': added });
    await changes.next();
    const { skill } = await skills.get('skill://skill-0/SKILL.md');
    const listed = (skill.resources as { uri: string; digest: string; size: number }[]).find((r) => r.uri === 'skill://skill-0/refs/added.md');
    assert.deepEqual(listed, { uri: 'skill://skill-0/refs/added.md', digest: sha256(added), size: Buffer.byteLength(added) });
    const file = await skills.read(skill, 'refs/added.md');
    assert.equal(file.verified, true);
    assert.equal(Buffer.from(file.bytes).toString('utf8'), added);

    await add({ 'skill-7/SKILL.md': '---\nname: skill-7\ndescription: Added while serving.\n---\n# skill-7\n' });
    await changes.next();
    assert.deepEqual(
      (await skills.list()).skills.map((s) => s.uri),
      ['skill://skill-0/SKILL.md', 'skill://skill-1/SKILL.md', 'skill://skill-7/SKILL.md'],
    );
    await subscription.close();
  } finally {
    await client.close();
  }
}
