/**
 * What goes wrong stays on the server, behind the SDK v2 as behind skillmount's own server: a
 * source's unexpected failure reaches the client as a plain `-32603` (its message, with the
 * storage path, goes to `onWarning`), and bytes that no longer match the published digest are
 * refused rather than sent.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SkillCatalog, type SkillSource, type SkillWarning } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import { numberedSkills, tempDir, writeTree } from '../support/trees.js';
import { serveSdkV2, type SdkV2App } from './support.js';

const MODES = [
  { version: '2025-11-25', options: {} },
  { version: '2026-07-28', options: { versionNegotiation: { mode: 'auto' as const } } },
];

async function failure(call: Promise<unknown>): Promise<ProtocolError> {
  const error = await call.then(
    () => assert.fail('the call succeeded'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ProtocolError, `a ProtocolError, got ${String(error)}`);
  return error;
}

describe('an SDK v2 app over a skillmount source that fails or whose files change unannounced', () => {
  const folder = tempDir('skillmount-sdk-v2-errors-');
  const warnings: SkillWarning[] = [];
  let catalog: SkillCatalog;
  let failing: SdkV2App;
  let changed: SdkV2App;
  before(async () => {
    writeTree(folder.dir, numberedSkills(1));
    catalog = await SkillCatalog.load(fsStorage(folder.dir), { onWarning: (w) => warnings.push(w), cacheBytes: 0 });
    // The catalog's entries, but every read fails as a storage does, naming where it looked.
    const broken: SkillSource = {
      list: (params) => catalog.list(params),
      get: (uri) => catalog.get(uri),
      read: async (uri) => {
        throw new Error(`EACCES: permission denied, open '/srv/private/skills/${uri.slice('skill://'.length)}'`);
      },
    };
    failing = await serveSdkV2('express', broken, { onWarning: (w) => warnings.push(w) });
    changed = await serveSdkV2('fastify', catalog);
  });
  after(async () => {
    await failing?.close();
    await changed?.close();
    folder.remove();
  });

  for (const mode of MODES) {
    test(`a failing read is a plain -32603, its cause in onWarning only (${mode.version})`, async () => {
      const client = new Client({ name: 'sdk-v2-host', version: '1.0.0' }, mode.options);
      await client.connect(new StreamableHTTPClientTransport(new URL(failing.url)));
      try {
        warnings.length = 0;
        const error = await failure(client.readResource({ uri: 'skill://skill-0/SKILL.md' }));
        assert.equal(error.code, -32603);
        assert.doesNotMatch(error.message, /srv\/private|EACCES/, 'the storage path stays on the server');
        assert.ok(
          warnings.some((w) => w.code === 'internal-error' && w.message.includes('/srv/private/skills/skill-0/SKILL.md')),
          `onWarning heard the cause: ${JSON.stringify(warnings)}`,
        );
      } finally {
        await client.close();
      }
    });
  }

  test('a file changed in the folder without a reload is refused, never sent with the old digest; a read naming another digest, as an entry that changed', async () => {
    writeTree(folder.dir, { 'skill-0/refs/notes.md': 'rewritten behind the catalog\n' });
    for (const mode of MODES) {
      const client = new Client({ name: 'sdk-v2-host', version: '1.0.0' }, mode.options);
      await client.connect(new StreamableHTTPClientTransport(new URL(changed.url)));
      try {
        const error = await failure(client.readResource({ uri: 'skill://skill-0/refs/notes.md' }));
        assert.equal(error.code, -32603, mode.version);
        // A read naming a digest the file does not have (the SDK v2 passes params._meta on): the entry changed.
        const digest = `sha256:${'0'.repeat(64)}`;
        const gone = await failure(client.readResource({ uri: 'skill://skill-0/refs/notes.md', _meta: { 'io.github.skillmount/digest': digest } }));
        assert.equal(gone.code, -32602, mode.version);
        assert.deepEqual(gone.data, { uri: 'skill://skill-0/refs/notes.md', digest, reason: 'entry-changed' }, mode.version);
      } finally {
        await client.close();
      }
    }
    assert.ok(
      warnings.some((w) => w.code === 'changed' && w.uri === 'skill://skill-0/refs/notes.md'),
      `the catalog warned: ${JSON.stringify(warnings)}`,
    );
  });
});
