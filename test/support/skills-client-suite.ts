/**
 * The SkillsClient cases every skills server must pass, over real HTTP: list, get, read every
 * file verified, relative refs, refusals before any request, directories, percent-encoded names.
 * Run against our server and the SDK v2 one; a file adds the cases only its server answers.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SkillVerificationError, SkillsClient, checkLimits, type SkillEntry } from '@skillmount/core/client';
import { searchEntries } from '@skillmount/core';
import { diskBytes } from '../client/support/disk.js';
import { connectV1, trickySkillsFolder } from '../client/support/servers.js';
import { EXAMPLES, exampleFiles } from './skills-suite.js';

export const REFUNDS = 'skill://acme/billing/refunds/SKILL.md';
export const GIT = 'skill://git-workflow/SKILL.md';

export interface ServedFolder {
  url: string;
  /** The server's own catalog, to compare the listing with. */
  catalog: { entries: readonly unknown[] };
  /** JSON-RPC methods received, in order, where the server reports them: then refusals are checked to send nothing. */
  methods?: string[];
  close(): Promise<void>;
}

export type ServeFolder = (root: string, options?: { pageSize?: number }) => Promise<ServedFolder>;

/** What a case of the examples suite works with, once `before` has run. */
export interface ClientContext {
  served: ServedFolder;
  client: Client;
  skills: SkillsClient;
  listed: SkillEntry[];
  byUri(uri: string): SkillEntry;
}

/**
 * Declares the shared suites for `server` (e.g. "our server"). `more` declares a file's own cases
 * inside the examples suite, sharing its connection.
 */
export function skillsClientSuite(server: string, serve: ServeFolder, options: { more?: (context: () => ClientContext) => void } = {}): void {
  describe(`SkillsClient against ${server} (examples/skills, one skill per page)`, () => {
    let context: ClientContext;

    before(async () => {
      const served = await serve(EXAMPLES, { pageSize: 1 });
      const client = await connectV1(served.url);
      const skills = new SkillsClient(client);
      const listed = (await skills.list()).skills;
      context = { served, client, skills, listed, byUri: (uri) => listed.find((s) => s.uri === uri)! };
    });
    after(async () => {
      await context.client.close();
      await context.served.close();
    });
    /** Nothing reached the server while `fn` ran, where the server reports what it receives. */
    const nothingRequested = async (fn: () => Promise<void>) => {
      const before = context.served.methods?.length;
      await fn();
      if (context.served.methods) assert.equal(context.served.methods.length, before, 'nothing was requested');
    };

    test('declares the extension with directoryRead', () => {
      assert.equal(context.skills.supported, true);
      assert.equal(context.skills.directoryRead, true);
    });

    test('list() returns exactly what the catalog serves, every entry valid, and get() returns each', async () => {
      const { skills, served } = context;
      const listing = await skills.list();
      assert.deepEqual(listing.invalid, []);
      assert.ok(listing.skills.length >= 2);
      assert.deepEqual(listing.skills, JSON.parse(JSON.stringify(served.catalog.entries)));
      for (const entry of listing.skills) assert.deepEqual((await skills.get(entry.uri)).skill, entry);
    });

    test('read() verifies every file of every skill against the disk, byte for byte', async () => {
      const { skills, listed } = context;
      const read: string[] = [];
      for (const entry of listed) {
        assert.notEqual(entry.resources, 'dynamic');
        for (const resource of entry.resources as { uri: string }[]) {
          const file = await skills.read(entry, resource.uri);
          assert.equal(file.verified, true, resource.uri);
          assert.equal(file.uri, resource.uri);
          assert.ok(Buffer.from(file.bytes).equals(diskBytes(EXAMPLES, resource.uri)), `${resource.uri} bytes`);
          if (resource.uri.endsWith('.png')) {
            assert.equal(file.text, undefined);
            assert.equal(file.mimeType, 'image/png');
          } else assert.equal(file.text, Buffer.from(file.bytes).toString('utf8'));
          read.push(resource.uri.slice('skill://'.length));
        }
        const md = await skills.read(entry);
        assert.deepEqual(md.frontmatter, entry.frontmatter);
        assert.equal(typeof md.body, 'string');
      }
      assert.ok(read.length >= 7, `${read.length} files read`);
      assert.deepEqual(read.sort(), exampleFiles());
    });

    test("read(skill) is the skill's own SKILL.md with its frontmatter and body", async () => {
      const refunds = context.byUri(REFUNDS);
      const md = await context.skills.read(refunds);
      assert.equal(md.uri, REFUNDS);
      assert.equal(md.verified, true);
      assert.deepEqual(md.frontmatter, refunds.frontmatter);
      assert.equal((md.frontmatter as any).metadata.reviewed, 'yes', 'yes stays a string');
      assert.ok(md.body!.startsWith('\n# Refunds'), md.body);
      assert.equal(md.text, readFileSync(path.join(EXAMPLES, 'acme/billing/refunds/SKILL.md'), 'utf8'));
    });

    test('relative refs resolve against the skill folder: ./, .., #fragment, absolute URIs', async () => {
      const { skills } = context;
      const refunds = context.byUri(REFUNDS);
      const approved = 'skill://acme/billing/refunds/templates/approved.md';
      for (const ref of [
        'templates/approved.md',
        './templates/approved.md',
        'templates/regional/../approved.md#when',
        '../refunds/templates/approved.md',
        approved,
        `${approved}#top`,
      ]) {
        const file = await skills.read(refunds, ref);
        assert.equal(file.uri, approved, ref);
        assert.equal(file.verified, true);
      }
      assert.equal((await skills.read(refunds, './SKILL.md#steps')).frontmatter?.name, 'refunds');
      const eu = await skills.read(refunds, './templates/regional/eu.md#wording');
      assert.equal(eu.uri, 'skill://acme/billing/refunds/templates/regional/eu.md');
      assert.equal(eu.verified, true);
    });

    test('a ref outside the skill or not in its entry is refused before any request', async () => {
      const { skills } = context;
      await nothingRequested(async () => {
        const refunds = context.byUri(REFUNDS);
        await assert.rejects(skills.read(refunds, '../../other/SKILL.md'), (e: unknown) => e instanceof SkillVerificationError && e.reason === 'unlisted');
        const git = context.byUri(GIT);
        for (const ref of [
          '../pdf-processing/SKILL.md',
          '../../../etc/passwd',
          '/SKILL.md',
          'references/missing.md',
          'skill://pdf-processing/SKILL.md',
          'references',
          'references/commit-messages.md?x=1',
        ]) {
          await assert.rejects(skills.read(git, ref), (error: unknown) => {
            assert.ok(error instanceof SkillVerificationError, `${ref}: ${error}`);
            assert.equal(error.reason, 'unlisted');
            assert.equal(error.skillUri, GIT);
            return true;
          });
        }
      });
    });

    test('an invalid entry is a TypeError before any request', async () => {
      const { skills } = context;
      await nothingRequested(async () => {
        const git = context.byUri(GIT);
        await assert.rejects(skills.read({ ...git, frontmatter: { ...git.frontmatter, name: 'Other' } }), TypeError);
        await assert.rejects(skills.read({ ...git, resources: [] }), TypeError);
      });
    });

    test('readDirectory() lists every folder, and every file of each skill is reached', async () => {
      const { skills, listed } = context;
      const all: string[] = [];
      for (const entry of listed) {
        const files: string[] = [];
        const walk = async (uri: string) => {
          for (const child of (await skills.readDirectory(uri)).resources) {
            if (child.mimeType === 'inode/directory') await walk(child.uri);
            else files.push(child.uri);
          }
        };
        await walk(entry.uri.slice(0, -'/SKILL.md'.length));
        assert.deepEqual(files.sort(), (entry.resources as { uri: string }[]).map((r) => r.uri).sort());
        all.push(...files.map((uri) => uri.slice('skill://'.length)));
      }
      assert.deepEqual(all.sort(), exampleFiles());
      const templates = await skills.readDirectory('skill://acme/billing/refunds/templates');
      assert.deepEqual(templates.resources.map((r) => r.name).sort(), ['approved.md', 'partial.md', 'regional']);
    });

    test('checkLimits() finds nothing to decline in the examples', () => {
      for (const entry of context.listed) {
        assert.equal(checkLimits(entry), undefined);
        assert.equal(context.skills.checkLimits(entry), undefined);
      }
    });

    test('search() with no search_skills tool ranks the whole listing here, as searchEntries does, and pages by its cursor', async () => {
      const { skills, listed } = context;
      const found = await skills.search('pdf forms');
      assert.equal(found.ranked, 'client');
      assert.deepEqual(found.skills, searchEntries(listed, 'pdf forms').skills);
      assert.equal(found.skills[0]!.uri, 'skill://pdf-processing/SKILL.md');
      // Entries the client can read and verify.
      assert.equal((await skills.read(found.skills[0]!)).verified, true);
      const first = await skills.search('git refund pdf', { limit: 1 });
      assert.equal(first.skills.length, 1);
      const second = await skills.search('git refund pdf', { limit: 1, cursor: first.nextCursor! });
      assert.deepEqual(second.skills, searchEntries(listed, 'git refund pdf', { limit: 1, cursor: first.nextCursor! }).skills);
      await assert.rejects(skills.search('   '), TypeError);
      await assert.rejects(skills.search('pdf', { limit: 51 }), /limit must be a whole number from 1 to 50/);
    });

    options.more?.(() => context);
  });

  describe(`SkillsClient against ${server}: names that need percent-encoding`, () => {
    const folder = trickySkillsFolder();
    let served: ServedFolder;
    let client: Client;
    let skills: SkillsClient;
    let entry: SkillEntry;

    before(async () => {
      served = await serve(folder.root);
      client = await connectV1(served.url);
      skills = new SkillsClient(client);
      [entry] = (await skills.list()).skills as [SkillEntry];
    });
    after(async () => {
      await client.close();
      await served.close();
      folder.remove();
    });

    test('the entry spells names as URL parsing would, and every spelling of a ref matches it', async () => {
      const uris = (entry.resources as { uri: string }[]).map((r) => r.uri).sort();
      assert.deepEqual(uris, [
        'skill://tricky-names/SKILL.md',
        'skill://tricky-names/references/Q&A.md',
        'skill://tricky-names/references/read%20me%20%C3%BC.md',
      ]);
      for (const ref of [
        'references/Q&A.md',
        'references/Q%26A.md',
        'references/Q&A.md#x',
        './references/Q&A.md#faq',
        'skill://tricky-names/references/Q&A.md',
      ]) {
        const file = await skills.read(entry, ref);
        assert.equal(file.uri, 'skill://tricky-names/references/Q&A.md', 'requested by the entry spelling');
        assert.equal(file.verified, true);
        assert.equal(file.text, '# Questions & answers\n');
      }
      for (const ref of ['references/read me ü.md', 'references/read me ü.md#top', 'references/read%20me%20%C3%BC.md', 'references/read%20me%20ü.md']) {
        const file = await skills.read(entry, ref);
        assert.equal(file.verified, true, ref);
        assert.ok(Buffer.from(file.bytes).equals(diskBytes(folder.root, file.uri)));
      }
    });

    test('yes/no/on stay strings in the frontmatter, and the SKILL.md check agrees', async () => {
      assert.deepEqual(entry.frontmatter.metadata, { reviewed: 'yes', draft: 'no', enabled: 'on' });
      const md = await skills.read(entry);
      assert.deepEqual(md.frontmatter, entry.frontmatter);
      assert.deepEqual(md.frontmatter?.metadata, { reviewed: 'yes', draft: 'no', enabled: 'on' });
      assert.ok(md.body!.includes('[the FAQ](references/Q&A.md)'));
    });
  });
}
