/**
 * How read_skill and prompts/get find a skill by name, differentially: a catalog looks the name up
 * in its index of names, and the same catalog behind a plain SkillSource (which keeps no index) is
 * walked page by page, as every source was before. On random catalogs (colliding names, nested
 * skills, top-level paths that are other skills' names, a visible() rule hiding a random subset,
 * small pages, a base URI with a prefix) both must answer every name, every path and the misses
 * alike, byte for byte, while the index asks visible() about a few skills per call, not all.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { attach, memoryStorage, SkillCatalog, type CatalogOptions, type SkillEntry, type SkillSource } from '@skillmount/core';
import { mulberry32, type Random } from '../differential/mulberry32.js';
import { skillMd } from '../support/skill-md.js';

/**
 * Few words, so names collide often; a word is also a folder on the way to other skills. The first
 * half may be top-level skills, whose path is then the name several skills share.
 */
const WORDS = ['deploy', 'review', 'lint', 'build', 'docs', 'release', 'triage', 'notes', 'audit', 'refunds', 'billing', 'oncall'];
const TOP_LEVEL = new Set(WORDS.slice(0, 6));
const FOLDERS = [...WORDS, 'team-a', 'team-b', 'x'];

interface Variant {
  seed: number;
  skills: number;
  options: CatalogOptions;
  hide: number;
}

const VARIANTS: Variant[] = [
  { seed: 11, skills: 200, options: { pageSize: 20 }, hide: 0.3 },
  { seed: 12, skills: 120, options: {}, hide: 0 },
  { seed: 13, skills: 150, options: { pageSize: 13, baseUri: 'skill://acme/', prefix: 'billing' }, hide: 0.4 },
];

/** `count` skills: a word or a name of its own, at depth 1 to 3, a fifth of them inside another skill's folder. */
function randomTree(random: Random, count: number): Record<string, string> {
  const files: Record<string, string> = {};
  const dirs: string[] = [];
  for (let attempt = 0; dirs.length < count && attempt < count * 20; attempt++) {
    const parent = dirs.length > 0 && random.chance(0.2) ? [random.pick(dirs)] : [];
    const between = Array.from({ length: random.int(3) }, () => random.pick(FOLDERS));
    const name = random.chance(0.2) ? `solo-${dirs.length}` : random.pick(WORDS);
    const dir = [...parent, ...between, name].join('/');
    const depth = dir.split('/').length;
    if (depth > 6 || (depth === 1 && WORDS.includes(name) && !TOP_LEVEL.has(name)) || files[`${dir}/SKILL.md`] !== undefined) continue;
    files[`${dir}/SKILL.md`] = skillMd(name, { description: `The skill at ${dir}.`, body: `# ${dir}\n` });
    if (random.chance(0.3)) files[`${dir}/notes.md`] = `notes of ${dir}\n`;
    dirs.push(dir);
  }
  return files;
}

/** `catalog` as an app's own source: the service cannot tell it is a catalog, so it keeps no index and walks. */
function plainSource(catalog: SkillCatalog): SkillSource {
  return {
    baseUri: catalog.baseUri,
    list: (params) => catalog.list(params),
    get: (uri) => catalog.get(uri),
    read: (uri) => catalog.read(uri),
    readDirectory: (uri, params) => catalog.readDirectory(uri, params),
    listResources: () => catalog.listResources(),
  };
}

/** An SDK client in memory to an McpServer serving `source` with the tool and the prompts. */
async function served(source: SkillSource, visible: ((entry: SkillEntry) => boolean) | undefined) {
  const mcp = new McpServer({ name: 'names', version: '1.0.0' });
  attach(mcp, source, { tools: true, prompts: true, ...(visible ? { visible } : {}), onWarning: () => undefined });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await mcp.connect(a);
  const client = new Client({ name: 'names-tests', version: '0.0.0' });
  await client.connect(b);
  return {
    client,
    /** read_skill's result and prompts/get's result or error, for `name`, as comparable text. */
    answers: async (name: string, prompt: boolean) => {
      const read = await client.callTool({ name: 'read_skill', arguments: { name } });
      if (!prompt) return { read: JSON.stringify(read) };
      const got = await client.getPrompt({ name }).then(
        (result) => JSON.stringify(result),
        (error: { code?: number; message?: string }) => `error ${error.code} ${error.message}`,
      );
      return { read: JSON.stringify(read), prompt: got };
    },
  };
}

/**
 * Every name worth asking for: the words, every skill's name and path, and some of the rest: folders
 * on the way to a skill, paths less their first segment (the prefix, when there is one), and misses.
 */
function namesToAsk(catalog: SkillCatalog, random: Random): string[] {
  const names = new Set<string>([...WORDS, ...FOLDERS]);
  const others = new Set<string>();
  for (const entry of catalog.entries) {
    names.add(entry.frontmatter.name);
    const path = entry.uri.slice(catalog.baseUri.length, -'/SKILL.md'.length);
    names.add(path);
    const segments = path.split('/');
    for (let end = 1; end < segments.length; end++) others.add(segments.slice(0, end).join('/'));
    others.add(segments.slice(1).join('/'));
    others.add(`${path}/`);
  }
  const rest = [...others].filter((name) => name !== '' && !names.has(name));
  for (let i = 0; i < 40 && rest.length > 0; i++) names.add(rest.splice(random.int(rest.length), 1)[0]!);
  for (const miss of [
    'no-such-skill',
    'DEPLOY',
    '/deploy',
    'team-a//deploy',
    'deploy/SKILL.md',
    '..',
    'team-a/../deploy',
    'deploy%2Freview',
    'skill://deploy',
    ' deploy',
  ])
    names.add(miss);
  return [...names].sort();
}

describe('read_skill and prompts/get: the index of names answers as the page walk does', () => {
  for (const variant of VARIANTS) {
    test(`seed ${variant.seed}: ${variant.skills} skills, ${JSON.stringify(variant.options)}, ${variant.hide * 100}% hidden`, async () => {
      const random = mulberry32(variant.seed);
      const catalog = await SkillCatalog.load(memoryStorage(randomTree(random, variant.skills)), variant.options);
      const hidden = new Set(catalog.entries.filter(() => random.chance(variant.hide)).map((entry) => entry.uri));
      const asked = { indexed: 0, walked: 0 };
      // No rule at all when nothing is hidden: the service then asks nothing.
      const rule = (side: keyof typeof asked) =>
        variant.hide === 0
          ? undefined
          : (entry: SkillEntry) => {
              asked[side]++;
              return !hidden.has(entry.uri);
            };
      const indexed = await served(catalog, rule('indexed'));
      const walked = await served(plainSource(catalog), rule('walked'));
      try {
        const names = namesToAsk(catalog, random);
        let found = 0;
        let shared = 0;
        for (const [i, name] of names.entries()) {
          // prompts/get finds a skill as read_skill does (one function): asked for every third name only, to keep the walk's cost down.
          const [mine, theirs] = [await indexed.answers(name, i % 3 === 0), await walked.answers(name, i % 3 === 0)];
          assert.deepEqual(mine, theirs, `seed ${variant.seed}: the answers for "${name}" differ`);
          if (!mine.read.includes('"isError":true')) found++;
          else if (mine.read.includes('skills are named')) shared++;
        }
        // The catalogs are made so that each kind of answer comes up often.
        assert.ok(found > variant.skills / 2 && shared > 2, `seed ${variant.seed}: ${found} found, ${shared} shared of ${names.length}`);
        // The walk asks about every visible skill each time; the index about a few.
        if (variant.hide > 0)
          assert.ok(asked.indexed * 20 < asked.walked, `visible() asked ${asked.indexed} times with the index, ${asked.walked} with the walk`);
        // Every prompt prompts/list names (still a walk) is the skill prompts/get answers for that name.
        const prompts: { name: string; description?: string }[] = [];
        let cursor: string | undefined;
        do {
          const page = await indexed.client.listPrompts(cursor === undefined ? {} : { cursor });
          prompts.push(...page.prompts);
          cursor = page.nextCursor;
        } while (cursor !== undefined);
        assert.equal(prompts.length, catalog.entries.length - hidden.size);
        for (const prompt of prompts) {
          const got = await indexed.client.getPrompt({ name: prompt.name });
          assert.equal(got.description, prompt.description);
        }
      } finally {
        await indexed.client.close();
        await walked.client.close();
      }
    });
  }
});
