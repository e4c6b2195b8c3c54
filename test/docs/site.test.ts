/**
 * The documentation site builds (VitePress, `node scripts/docs.mjs build <dir>`, as `pnpm
 * docs:build` does, with the API reference generated from the doc comments), and every link inside
 * it leads to a built page and, with a `#fragment`, to an anchor of that page. Links from the pages to the repository's own files are checked by the
 * build itself (docs/.vitepress/repo-links.mts fails it on a file that does not exist).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { type BuiltPage, brokenLinks, readSite } from './support/site-links.js';

const root = path.resolve(import.meta.dirname, '../..');
const out = mkdtempSync(path.join(tmpdir(), 'skillmount-site-'));
let pages: Map<string, BuiltPage>;

before(
  () => {
    const started = performance.now();
    const build = spawnSync(process.execPath, [path.join(root, 'scripts/docs.mjs'), 'build', out], { cwd: root, encoding: 'utf8', timeout: 240_000 });
    assert.equal(build.status, 0, `node scripts/docs.mjs build failed (exit ${build.status}):\n${build.stdout}\n${build.stderr}`);
    console.log(`site built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    pages = readSite(out);
  },
  { timeout: 260_000 },
);
after(() => rmSync(out, { recursive: true, force: true }));

test('every guide and reference page of the sidebar is built', () => {
  const expected = [
    'index.html',
    'api/index.html',
    ...[
      'getting-started',
      'existing-route',
      'oauth',
      's3',
      'postgres',
      'replicas',
      'rate-limiting',
      'serverless',
      'hosts',
      'cli',
      'sdk-v2',
      'from-sdk-v2',
      'security',
    ].map((name) => `guide/${name}.html`),
    ...['core', 'visibility', 'sources', 'errors', 'client', 'fastify', 'express', 'storage-fs', 'storage-s3', 'storage-postgres'].map(
      (name) => `reference/${name}.html`,
    ),
  ];
  // The API reference generated from the doc comments (scripts/docs-api.mjs, whose TypeDoc warnings fail the build), one page per entry point.
  if (existsSync(path.join(root, 'scripts/docs-api.mjs'))) {
    expected.push('api/core/classes/SkillCatalog.html', 'api/storage-fs/functions/fsStorage.html', 'api/skillmount/functions/main.html');
    expected.push('api/core/sdk-v2/functions/sdkV2Skills.html');
  }
  const missing = expected.filter((file) => !pages.has(file));
  assert.deepEqual(missing, [], `pages not built: ${missing.join(', ')}`);
});

test('every link inside the site leads to a page and an anchor that exist', () => {
  const { broken, checked } = brokenLinks(pages);
  assert.ok(checked > 200, `only ${checked} links inside the site were found: is the sidebar rendered?`);
  assert.deepEqual(
    broken.map((b) => `${b.page}: ${b.href} (${b.problem})`),
    [],
  );
});

test('the link check finds a link to a page that was not built and one to a missing anchor', () => {
  const site = mkdtempSync(path.join(tmpdir(), 'skillmount-links-'));
  try {
    mkdirSync(path.join(site, 'guide'));
    writeFileSync(
      path.join(site, 'index.html'),
      '<a href="/guide/a.html#there">ok</a><a href="./guide/gone.html">gone</a><a href="https://example.com/x">out</a>',
    );
    writeFileSync(path.join(site, 'guide/a.html'), '<h2 id="there">There</h2><a href="#nowhere">x</a><a href="../">home</a><a href="a#there">clean</a>');
    const { broken, checked } = brokenLinks(readSite(site));
    assert.equal(checked, 5);
    assert.deepEqual(broken.map((b) => `${b.page} ${b.href}`).sort(), ['guide/a.html #nowhere', 'index.html ./guide/gone.html']);
  } finally {
    rmSync(site, { recursive: true, force: true });
  }
});
