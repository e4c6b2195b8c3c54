/**
 * SDK v2 apps on `@modelcontextprotocol/express` and `@modelcontextprotocol/fastify` serving a
 * skillmount catalog of examples/skills through `sdkV2Skills`, from the folder storage, from S3
 * (the s3rver test server) and from PostgreSQL: the SDK v2's `SkillsClient`
 * verifies every file on both protocol eras, and so does skillmount's own `SkillsClient`. SKILL.md
 * and the other UTF-8 files go out as `text`, the binary one as `blob`, as skillmount's own
 * server sends them.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SkillsClient as V2SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { SkillCatalog } from '@skillmount/core';
import { SkillsClient } from '@skillmount/core/client';
import { connectV1 } from '../client/support/servers.js';
import { modern } from '../modern/support.js';
import { EXAMPLES, exampleFiles } from '../support/skills-suite.js';
import { EXAMPLE_STORAGES } from './storages.js';
import { FRAMEWORKS, serveSdkV2, type SdkV2App } from './support.js';

const ON_DISK = exampleFiles();
const SKILL_COUNT = ON_DISK.filter((f) => f.endsWith('SKILL.md')).length;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
function isUtf8(bytes: Uint8Array): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}
const disk = (uri: string) => readFileSync(path.join(EXAMPLES, uri.slice('skill://'.length)));

const MODES = [
  { label: 'default negotiation', options: {}, version: '2025-11-25' },
  { label: "versionNegotiation 'auto'", options: { versionNegotiation: { mode: 'auto' as const } }, version: '2026-07-28' },
];

/** Every resource of every listed skill, read through `read(entry, uri)`: each must come back verified and equal to the file on disk. */
async function readsEveryFile(
  list: () => Promise<{ uri: string; resources: unknown }[]>,
  read: (skill: never, uri: string) => Promise<{ bytes: Uint8Array; verified: boolean }>,
) {
  const skills = await list();
  assert.equal(skills.length, SKILL_COUNT, 'every skill listed');
  const read_: string[] = [];
  for (const skill of skills) {
    for (const { uri } of skill.resources as { uri: string }[]) {
      const file = await read(skill as never, uri);
      assert.equal(file.verified, true, `${uri} verified`);
      assert.ok(Buffer.from(file.bytes).equals(disk(uri)), `${uri} equals the file on disk`);
      read_.push(uri.slice('skill://'.length));
    }
  }
  assert.deepEqual(read_.sort(), ON_DISK, 'every file on disk was read once');
}

for (const [name, storage] of Object.entries(EXAMPLE_STORAGES)) {
  for (const framework of FRAMEWORKS) {
    describe(`an SDK v2 app on @modelcontextprotocol/${framework} serving a skillmount catalog (${name})`, () => {
      let app: SdkV2App;
      before(async () => {
        app = await serveSdkV2(framework, await SkillCatalog.load(await storage(), { onWarning: () => undefined }));
      });
      after(() => app?.close());

      for (const mode of MODES) {
        test(`the SDK v2 SkillsClient verifies every file (${mode.label}, ${mode.version})`, async () => {
          const client = new Client({ name: 'sdk-v2-host', version: '1.0.0' }, mode.options);
          await client.connect(new StreamableHTTPClientTransport(new URL(app.url)));
          try {
            assert.equal(client.getNegotiatedProtocolVersion(), mode.version);
            const skills = new V2SkillsClient(client);
            assert.equal(skills.directoryRead, true, 'a catalog reads folders, so the SDK v2 declares directoryRead');
            await readsEveryFile(
              async () => (await skills.list()).skills,
              (skill, uri) => skills.read(skill, uri),
            );
            for (const skill of (await skills.list()).skills) {
              assert.deepEqual((await skills.read(skill)).frontmatter, skill.frontmatter, `${skill.uri} parses to its entry`);
            }
          } finally {
            await client.close();
          }
        });
      }

      test("skillmount's SkillsClient verifies every file (SDK v1 client, 2025-11-25)", async () => {
        const client = await connectV1(app.url);
        try {
          const skills = new SkillsClient(client);
          await readsEveryFile(
            async () => (await skills.list()).skills,
            (skill, uri) => skills.read(skill, uri),
          );
        } finally {
          await client.close();
        }
      });

      test('UTF-8 files go out as text and the binary file as a blob, on 2026-07-28 as skillmount sends them', async () => {
        const seen = { text: [] as string[], blob: [] as string[] };
        for (const file of ON_DISK) {
          const uri = `skill://${file}`;
          const { message } = await modern(app.url, 'resources/read', { uri });
          assert.ok('result' in message, `${uri}: ${JSON.stringify(message)}`);
          const [content] = (message.result as { contents: [{ text?: string; blob?: string; mimeType?: string }] }).contents;
          seen[typeof content.text === 'string' ? 'text' : 'blob'].push(file);
          if (file.endsWith('SKILL.md')) assert.equal(content.mimeType, 'text/markdown', `${uri} mimeType`);
        }
        const utf8 = ON_DISK.filter((f) => isUtf8(disk(`skill://${f}`)));
        assert.ok(seen.blob.length > 0, 'examples/skills holds a binary file');
        assert.deepEqual(seen.text, utf8);
        assert.deepEqual(
          seen.blob,
          ON_DISK.filter((f) => !utf8.includes(f)),
        );
      });
    });
  }
}

describe('an SDK v2 app serving a skillmount catalog under another scheme (baseUri) with a cache hint', () => {
  let app: SdkV2App;
  before(async () => {
    const catalog = await SkillCatalog.load(await EXAMPLE_STORAGES['folder storage'](), {
      baseUri: 'github://acme/skills/',
      cacheHint: { ttlMs: 60_000, cacheScope: 'public' },
      onWarning: () => undefined,
    });
    app = await serveSdkV2('express', catalog);
  });
  after(() => app?.close());

  for (const mode of MODES) {
    test(`sdkV2Skills hands the catalog's baseUri to the SDK v2, which serves every file under it (${mode.version})`, async () => {
      const client = new Client({ name: 'sdk-v2-host', version: '1.0.0' }, mode.options);
      await client.connect(new StreamableHTTPClientTransport(new URL(app.url)));
      try {
        const skills = new V2SkillsClient(client);
        const listed = (await skills.list()).skills;
        assert.equal(listed.length, SKILL_COUNT);
        for (const skill of listed) {
          assert.ok(skill.uri.startsWith('github://acme/skills/'), skill.uri);
          for (const { uri } of skill.resources as { uri: string }[]) {
            const file = await skills.read(skill, uri);
            assert.equal(file.verified, true, `${uri} verified`);
            assert.ok(Buffer.from(file.bytes).equals(disk(`skill://${uri.slice('github://acme/skills/'.length)}`)), `${uri} equals the file on disk`);
          }
        }
      } finally {
        await client.close();
      }
    });
  }

  test("sdkV2Skills hands the catalog's cache hint to the SDK v2, which sends it on 2026-07-28", async () => {
    for (const [method, params] of [
      ['skills/list', {}],
      ['skills/get', { uri: 'github://acme/skills/git-workflow/SKILL.md' }],
      ['resources/read', { uri: 'github://acme/skills/git-workflow/SKILL.md' }],
    ] as const) {
      const { message } = await modern(app.url, method, params);
      assert.ok('result' in message, `${method}: ${JSON.stringify(message)}`);
      const { ttlMs, cacheScope } = message.result as { ttlMs?: number; cacheScope?: string };
      assert.deepEqual({ ttlMs, cacheScope }, { ttlMs: 60_000, cacheScope: 'public' }, method);
    }
  });
});
