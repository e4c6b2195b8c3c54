/**
 * The extension specification's examples as test vectors (specification/stable/skills.mdx in
 * modelcontextprotocol/ext-skills, revision of 2026-09-08): our server, serving the example
 * skills' files from a folder, lists and gets entries equal to the examples' URIs, frontmatter and
 * file sets; every digest and size agrees with an independent SHA-256 of the bytes and with the
 * client's WebCrypto verification; SHA-256 itself is checked against the FIPS 180-2 vectors. That
 * revision's example digests are elided (`sha256:a1b2c3d4...`), so the examples verbatim are not
 * valid entries, and the client must say so.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { entryProblems, sha256Digest } from '@skillmount/core';
import { SkillsClient, type SkillEntry } from '@skillmount/core/client';
import { connectV1, serveOurFolder, type Served } from './support/servers.js';

// The examples' SKILL.md frontmatter, and the files each example entry lists.
const EXAMPLES = {
  'git-workflow': {
    frontmatter: { name: 'git-workflow', description: "Follow this team's Git conventions for branching and commits" },
    files: ['SKILL.md'],
  },
  'acme/billing/refunds': {
    frontmatter: { name: 'refunds', description: 'Process customer refund requests per company policy', license: 'Apache-2.0' },
    files: ['SKILL.md', 'examples/email.md'],
  },
  'pdf-processing': {
    frontmatter: { name: 'pdf-processing', description: 'Extract, fill, and assemble PDF documents', metadata: { version: '2.1.0' } },
    files: ['SKILL.md', 'references/FORMS.md', 'scripts/extract.py', 'templates/invoice.md', 'templates/purchase-order.md', 'templates/regional/eu-invoice.md'],
  },
} as const;

// The skills/get example, verbatim (digests as that revision prints them).
const GET_EXAMPLE = {
  uri: 'skill://pdf-processing/SKILL.md',
  frontmatter: { name: 'pdf-processing', description: 'Extract, fill, and assemble PDF documents', metadata: { version: '2.1.0' } },
  resources: [
    { uri: 'skill://pdf-processing/SKILL.md', digest: 'sha256:d5e6f7a8...', size: 5120 },
    { uri: 'skill://pdf-processing/references/FORMS.md', digest: 'sha256:e6f7a8b9...', size: 18433 },
    { uri: 'skill://pdf-processing/scripts/extract.py', digest: 'sha256:f7a8b9c0...', size: 4096 },
    { uri: 'skill://pdf-processing/templates/invoice.md', digest: 'sha256:a8b9c0d1...', size: 1210 },
    { uri: 'skill://pdf-processing/templates/purchase-order.md', digest: 'sha256:b9c0d1e2...', size: 1388 },
    { uri: 'skill://pdf-processing/templates/regional/eu-invoice.md', digest: 'sha256:c0d1e2f3...', size: 1472 },
  ],
};

// FIPS 180-2 SHA-256 vectors, and the empty file.
const FIPS = {
  'abc.txt': ['abc', 'sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
  'two-blocks.txt': ['abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq', 'sha256:248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1'],
  'empty.txt': ['', 'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
} as const;

const yaml = (fm: Record<string, unknown>) =>
  Object.entries(fm)
    .map(([k, v]) =>
      typeof v === 'object'
        ? `${k}:\n${Object.entries(v as object)
            .map(([a, b]) => `  ${a}: "${b}"`)
            .join('\n')}`
        : `${k}: ${JSON.stringify(v)}`,
    )
    .join('\n');

let root: string;
let served: Served & { catalog: { entries: readonly SkillEntry[] } };
let skills: SkillsClient;

before(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'spec-examples-'));
  for (const [skillPath, example] of Object.entries(EXAMPLES)) {
    for (const file of example.files) {
      const full = path.join(root, skillPath, file);
      mkdirSync(path.dirname(full), { recursive: true });
      writeFileSync(full, file === 'SKILL.md' ? `---\n${yaml(example.frontmatter)}\n---\n\n# ${example.frontmatter.name}\n` : `${file}\n`);
    }
  }
  mkdirSync(path.join(root, 'vectors'));
  writeFileSync(path.join(root, 'vectors', 'SKILL.md'), '---\nname: vectors\ndescription: SHA-256 test vectors.\n---\n');
  for (const [name, [text]] of Object.entries(FIPS)) writeFileSync(path.join(root, 'vectors', name), text);
  served = await serveOurFolder(root);
  const client = await connectV1(served.url);
  skills = new SkillsClient(client);
});
after(async () => {
  await served.close();
  rmSync(root, { recursive: true, force: true });
});

describe('the specification examples', () => {
  test('skills/list yields entries equal to the examples (URIs, frontmatter, file sets)', async () => {
    const { skills: listed } = await skills.list();
    for (const [skillPath, example] of Object.entries(EXAMPLES)) {
      const entry = listed.find((e) => e.uri === `skill://${skillPath}/SKILL.md`);
      assert.ok(entry, skillPath);
      assert.deepEqual(entry.frontmatter, example.frontmatter);
      assert.deepEqual((entry.resources as { uri: string }[]).map((r) => r.uri).sort(), example.files.map((f) => `skill://${skillPath}/${f}`).sort());
    }
  });

  test('skills/get yields the example entry, digests and sizes being those of the bytes served', async () => {
    const { skill } = await skills.get(GET_EXAMPLE.uri);
    assert.equal(skill.uri, GET_EXAMPLE.uri);
    assert.deepEqual(skill.frontmatter, GET_EXAMPLE.frontmatter);
    const resources = skill.resources as { uri: string; digest: string; size: number }[];
    assert.deepEqual(resources.map((r) => r.uri).sort(), GET_EXAMPLE.resources.map((r) => r.uri).sort());
    for (const resource of resources) {
      const bytes = readFileSync(path.join(root, resource.uri.slice('skill://'.length)));
      assert.equal(resource.size, bytes.byteLength, resource.uri);
      assert.equal(resource.digest, `sha256:${createHash('sha256').update(bytes).digest('hex')}`, resource.uri);
      const file = await skills.read(skill, resource.uri);
      assert.equal(file.verified, true);
      assert.ok(Buffer.from(file.bytes).equals(bytes));
    }
  });

  test('the examples verbatim are not valid entries in that revision: their digests are elided', () => {
    const problems = entryProblems(GET_EXAMPLE);
    assert.equal(problems.length, GET_EXAMPLE.resources.length);
    for (const problem of problems) assert.match(problem, /digest: must be "sha256:" and 64 lowercase hex digits/);
  });
});

describe('SHA-256 vectors (FIPS 180-2)', () => {
  test('the server publishes, and the client verifies with WebCrypto, the standard digests', async () => {
    const { skill } = await skills.get('skill://vectors/SKILL.md');
    for (const [name, [text, digest]] of Object.entries(FIPS)) {
      const resource = (skill.resources as { uri: string; digest: string; size: number }[]).find((r) => r.uri === `skill://vectors/${name}`)!;
      assert.equal(resource.digest, digest, name);
      assert.equal(resource.size, Buffer.byteLength(text), name);
      assert.equal(sha256Digest(new TextEncoder().encode(text)), digest);
      const file = await skills.read(skill, name);
      assert.equal(file.verified, true);
      assert.equal(file.text, text);
    }
  });
});
