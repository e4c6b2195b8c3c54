/**
 * The documentation site builds (VitePress, `node scripts/docs.mjs build <dir>`, as `pnpm
 * docs:build` does, with the API reference generated from the doc comments), without Vite's
 * warning of a chunk over 500 kB, and every link inside
 * it leads to a built page and, with a `#fragment`, to an anchor of that page. Links from the pages to the repository's own files are checked by the
 * build itself (docs/.vitepress/repo-links.mts fails it on a file that does not exist).
 * In headless Chromium, at 1280 px and at 390 px (a phone), the tables of the pages that have
 * them fit their column and clip no text, and no page scrolls sideways (skipped, saying why,
 * where /usr/bin/chromium is missing).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { chromium } from 'playwright-core';
import { serveSite, tableProblems, VIEWPORTS, viewportPage, visit } from '../../scripts/docs-screenshots.mjs';
import { CHROMIUM, CHROMIUM_ARGS, skipWithoutChromium } from '../browser/support/chromium.js';
import { type BuiltPage, brokenLinks, readSite } from './support/site-links.js';

const root = path.resolve(import.meta.dirname, '../..');
const out = mkdtempSync(path.join(tmpdir(), 'skillmount-site-'));
let pages: Map<string, BuiltPage>;
let buildOutput = '';

before(
  () => {
    const started = performance.now();
    const build = spawnSync(process.execPath, [path.join(root, 'scripts/docs.mjs'), 'build', out], { cwd: root, encoding: 'utf8', timeout: 240_000 });
    assert.equal(build.status, 0, `node scripts/docs.mjs build failed (exit ${build.status}):\n${build.stdout}\n${build.stderr}`);
    buildOutput = `${build.stdout}\n${build.stderr}`;
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
      'install',
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

test('the build warns of no chunk over 500 kB', () => {
  // The largest chunk is the local search index, downloaded when the search box opens; what keeps
  // it small (the API reference indexed without its code, label headings and inherited members)
  // is docs/.vitepress/search.mts.
  assert.doesNotMatch(
    buildOutput,
    /larger than \d+ kB/,
    'a chunk of the built site is over 500 kB: see which in the build output (the search index, ' +
      'assets/chunks/@localSearchIndex*.js, is kept small by docs/.vitepress/search.mts)',
  );
});

// The pages whose tables are checked in the browser: the home page, every guide and reference
// page with a table, and API pages with the widest tables (five columns of properties) and a code
// block without a language. Every page with a table passed when this was written; these cover
// each kind at a cost of 10 to 15 s.
const API_PAGES = [
  'api/fastify/interfaces/SkillsPluginOptions.html',
  'api/express/interfaces/SkillsRouter.html',
  'api/core/classes/SkillCatalog.html',
  'api/storage-fs/functions/fsStorage.html',
];

test('in Chromium, tables fit their column at 1280 px and on a phone, and no page scrolls sideways', { skip: skipWithoutChromium }, async () => {
  const checked = [
    'index.html',
    ...[...pages.keys()].filter((file) => /^(guide|reference)\//.test(file) && readFileSync(path.join(out, file), 'utf8').includes('<table')),
    ...API_PAGES,
  ];
  assert.ok(checked.length > 15, `only ${checked.length} pages to check: are the reference pages' tables built?`);
  const server = await serveSite(out);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const problems: string[] = [];
  try {
    for (const viewport of VIEWPORTS) {
      const page = await viewportPage(browser, viewport);
      for (const file of checked) {
        await visit(page, `${server.url}/${file}`);
        const found = await tableProblems(page, { width: viewport.width, tablesFit: viewport.name === 'desktop' });
        problems.push(...found.map((problem) => `${file} at ${viewport.width} px: ${problem}`));
      }
      await page.context().close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
  assert.deepEqual(problems, []);
});

test('the table check finds a page that scrolls sideways, a table wider than its column and a cell that clips its text', {
  skip: skipWithoutChromium,
}, async () => {
  const site = mkdtempSync(path.join(tmpdir(), 'skillmount-tables-'));
  const cell = 'x'.repeat(120);
  writeFileSync(
    path.join(site, 'index.html'),
    '<!doctype html><meta name="viewport" content="width=device-width"><body style="margin:0">' +
      `<div class="vp-doc" style="width:300px"><div><table style="border-collapse:collapse"><tr><th>a</th></tr><tr><td>${cell}</td></tr></table>` +
      `<table style="width:100%;table-layout:fixed"><tr><th>b</th></tr><tr><td style="overflow:hidden;white-space:nowrap">${cell}</td></tr></table>` +
      '</div></div></body>',
  );
  const server = await serveSite(site);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const page = await viewportPage(browser, { name: 'desktop', width: 600, height: 400, isMobile: false });
    await visit(page, `${server.url}/`);
    const problems = await tableProblems(page, { width: 600, tablesFit: true });
    assert.equal(problems.length, 3, problems.join('\n'));
    assert.match(problems[0]!, /^the page scrolls sideways: it is \d+ px wide in a 600 px window$/);
    assert.match(problems[1]!, /^table 1 \(a\) is \d+ px wide in its 300 px column$/);
    assert.match(problems[2]!, /^table 2 \(b\), row 1: the cell "x+" clips its text \(\d+ px in \d+ px\)$/);
  } finally {
    await browser.close();
    await server.close();
    rmSync(site, { recursive: true, force: true });
  }
});
