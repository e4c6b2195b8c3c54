/**
 * The READMEs and the other markdown read on GitHub link to the site's pages and to each other by
 * relative path: every such link names a file of the repository and, with a `#fragment`, one of
 * its headings as GitHub spells the anchor. (The site's own links: site.test.ts.)
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { brokenRelativeLinks, githubSlug } from './support/github-anchors.js';

const root = path.resolve(import.meta.dirname, '../..');
const withReadme = (folder: string) => readdirSync(path.join(root, folder), { withFileTypes: true }).filter((d) => d.isDirectory());
const files = [
  'README.md',
  'CONTRIBUTING.md',
  'SECURITY.md',
  'CHANGELOG.md',
  'BENCHMARKS.md',
  ...withReadme('packages').map((d) => `packages/${d.name}/README.md`),
  ...withReadme('examples')
    .filter((d) => d.name !== 'skills')
    .map((d) => `examples/${d.name}/README.md`),
];

test('GitHub anchors are spelled as GitHub spells them', () => {
  assert.equal(githubSlug('`fsStorage(root, options?)`'), 'fsstorageroot-options');
  assert.equal(githubSlug('Per-user skills: `visible`'), 'per-user-skills-visible');
  assert.equal(githubSlug('`/.well-known/agent-skills`: for the `skills` installer'), 'well-knownagent-skills-for-the-skills-installer');
});

test('every relative link of the READMEs names a file and a heading that exist', () => {
  const broken = files.flatMap((file) => brokenRelativeLinks(root, file));
  assert.equal(broken.length, 0, `broken links:\n${broken.join('\n')}`);
});
