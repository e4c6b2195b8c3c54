/**
 * The official SDK v2 host client (`SkillsClient` from @modelcontextprotocol/client) against
 * `skillmount serve examples/skills`: it must accept every entry, verify every file it reads and
 * browse every folder, with either framework, with and without sessions, in either negotiation mode.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { DIRECTORY_MIME_TYPE, SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { EXAMPLES, exampleFiles } from '../support/skills-suite.js';
import { assertEverySurfaceOn } from './support/every-surface.js';
import { EVERY_SURFACE, useServer, type ServeOptions } from './support/serve.js';

/** Skill folders on disk, found by their SKILL.md, as `skill://` URIs. */
const SKILL_URIS = exampleFiles()
  .filter((f) => f === 'SKILL.md' || f.endsWith('/SKILL.md'))
  .map((f) => `skill://${f}`);
const rootOf = (skillUri: string) => skillUri.slice(0, -'/SKILL.md'.length);
const diskPath = (uri: string) => path.join(EXAMPLES, uri.slice('skill://'.length));

/** Runs `check` for every skill and reports every failure at once, so one bad skill hides no other. */
async function forEverySkill(check: (uri: string) => Promise<void>): Promise<void> {
  const failures: string[] = [];
  for (const uri of SKILL_URIS) {
    try {
      await check(uri);
    } catch (error) {
      failures.push(`${uri}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  assert.deepEqual(failures, [], `failed for ${failures.length} of ${SKILL_URIS.length} skills:\n${failures.join('\n')}`);
}

const SERVERS: { label: string; options: ServeOptions }[] = [
  { label: 'fastify, sessions', options: { framework: 'fastify' } },
  { label: 'express, sessions', options: { framework: 'express' } },
  { label: 'fastify, stateless', options: { framework: 'fastify', stateless: true } },
  { label: 'express, sessions, every surface on', options: { framework: 'express', args: EVERY_SURFACE } },
  { label: 'fastify, stateless, every surface on', options: { framework: 'fastify', stateless: true, args: EVERY_SURFACE } },
];
const MODES = [
  { label: 'default negotiation', clientOptions: {}, version: '2025-11-25' },
  // The endpoint answers server/discover, so 'auto' stays on 2026-07-28.
  { label: "versionNegotiation 'auto'", clientOptions: { versionNegotiation: { mode: 'auto' as const } }, version: '2026-07-28' },
];

assert.equal(SKILL_URIS.length, 3, 'examples/skills holds three skills');

for (const { label, options } of SERVERS) {
  describe(`SDK v2 SkillsClient against skillmount serve (${label})`, () => {
    const server = useServer(options);
    if (options.args === EVERY_SURFACE) test('every surface is on', () => assertEverySurfaceOn(server.url, server.server.skills));

    for (const { label: mode, clientOptions, version } of MODES) {
      describe(mode, () => {
        let client: Client;
        let skills: SkillsClient;
        before(async () => {
          client = new Client({ name: 'skillmount-peer-tests', version: '0.0.0' }, clientOptions);
          await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
          skills = new SkillsClient(client);
        });
        after(async () => {
          await client?.close();
        });

        test(`connects on ${version} and sees the extension with directoryRead`, () => {
          assert.equal(client.getNegotiatedProtocolVersion(), version);
          assert.equal(skills.supported, true);
          assert.equal(skills.directoryRead, true);
        });

        test('list() returns the three skills and refuses none', async () => {
          const listing = await new SkillsClient(client, { skipInvalid: true }).list();
          assert.deepEqual(listing.invalid, [], 'entries the client refused');
          assert.deepEqual(
            listing.skills.map((s) => s.uri),
            SKILL_URIS,
          );
          // Without skipInvalid, any refused entry would throw instead.
          const strict = await skills.list();
          assert.deepEqual(strict.skills, listing.skills);
        });

        test('get() returns each skill, equal to its listed entry', async () => {
          const listed = new Map((await new SkillsClient(client, { skipInvalid: true }).list()).skills.map((s) => [s.uri, s]));
          await forEverySkill(async (uri) => {
            const { skill } = await skills.get(uri);
            assert.equal(skill.uri, uri);
            assert.deepEqual(skill, listed.get(uri), 'skills/get and skills/list agree');
          });
        });

        test('read() verifies every file of every skill, byte for byte as on disk', async () => {
          await forEverySkill(async (uri) => {
            const { skill } = await skills.get(uri);
            const root = rootOf(uri);
            const onDisk = exampleFiles(diskPath(root)).sort();
            const listed = (skill.resources as { uri: string }[]).map((r) => r.uri.slice(root.length + 1)).sort();
            assert.deepEqual(listed, onDisk, 'the entry lists exactly the files on disk');
            for (const rel of onDisk) {
              const file = await skills.read(skill, rel);
              assert.equal(file.uri, `${root}/${rel}`);
              assert.equal(file.verified, true, `${rel} verified`);
              assert.ok(Buffer.from(file.bytes).equals(readFileSync(diskPath(file.uri))), `${rel} bytes equal the file on disk`);
            }
            const manifest = await skills.read(skill);
            assert.deepEqual(manifest.frontmatter, skill.frontmatter, 'SKILL.md frontmatter equals the entry');
            assert.equal(typeof manifest.body, 'string');
          });
        });

        test('readDirectory() of every skill root and subfolder matches the folder on disk', async () => {
          const walk = async (dirUri: string): Promise<void> => {
            const dir = diskPath(dirUri);
            const expected = readdirSync(dir)
              .map((name) => {
                const stat = statSync(path.join(dir, name));
                return stat.isDirectory()
                  ? { name, uri: `${dirUri}/${name}`, folder: true, size: undefined }
                  : { name, uri: `${dirUri}/${name}`, folder: false, size: stat.size };
              })
              .sort((a, b) => a.name.localeCompare(b.name));
            const { resources } = await skills.readDirectory(dirUri);
            const got = resources
              .map((r) => ({ name: r.name, uri: r.uri, folder: r.mimeType === DIRECTORY_MIME_TYPE, size: r.size }))
              .sort((a, b) => a.name.localeCompare(b.name));
            assert.deepEqual(got, expected, `children of ${dirUri}`);
            for (const child of expected) if (child.folder) await walk(child.uri);
          };
          await forEverySkill((uri) => walk(rootOf(uri)));
        });

        test('get() of an unknown skill fails with -32602', async () => {
          const error = await skills.get('skill://no-such-skill/SKILL.md').then(
            () => assert.fail('get() of an unknown skill succeeded'),
            (e: unknown) => e,
          );
          assert.ok(error instanceof ProtocolError, `a ProtocolError, got ${String(error)}`);
          assert.equal(error.code, -32602);
        });
      });
    }
  });
}
