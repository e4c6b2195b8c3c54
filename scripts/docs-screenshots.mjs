#!/usr/bin/env node
// Screenshots of the documentation site in headless Chromium, at a desktop width (1280 px) and a
// phone's (390 px), to judge how the pages read: the home page, the install page, reference pages
// with option tables and an API page.
//
//   node scripts/docs-screenshots.mjs <outDir> [--site <builtDir>] [--chromium <path>]
//
// Without --site, the site is built first into a temporary folder (`node scripts/docs.mjs build`,
// about a minute). For each page and width it writes `<page>-<width>.png` (the window at the top of
// the page) and, where the page has tables, `<page>-<width>-table.png` (the window scrolled to its
// widest table); the home page is also shot whole (`home-<width>-full.png`). It prints, per page
// and width, what `tableProblems` finds (a table wider than its column, a clipped cell, a page
// that scrolls sideways), and exits with 1 when it finds any.
//
// The functions below are shared with test/docs/site.test.ts, which checks the same in the site
// it builds (types: docs-screenshots.d.mts).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.mjs';

const root = path.resolve(import.meta.dirname, '..');

/** The pages shot, by name: `path` is the page's address in the built site. */
export const PAGES = [
  { name: 'home', path: '/', full: true },
  { name: 'install', path: '/guide/install.html' },
  { name: 'reference-fastify', path: '/reference/fastify.html' },
  { name: 'reference-core', path: '/reference/core.html' },
  { name: 'api-fastify-options', path: '/api/fastify/interfaces/SkillsPluginOptions.html' },
];

/** The widths the site is judged at: a laptop's window, and a phone's (an iPhone 12 to 15's CSS width). */
export const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800, isMobile: false },
  { name: 'phone', width: 390, height: 844, isMobile: true },
];

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Serves the built site in `dir` on 127.0.0.1 (a free port), as a static host would: `/` and
 * `/guide/` are their index.html, a missing file is the site's 404.html with status 404.
 * @param {string} dir
 * @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
export async function serveSite(dir) {
  const site = path.resolve(dir);
  const server = createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://site').pathname);
    let file = path.join(site, pathname.endsWith('/') ? `${pathname}index.html` : pathname);
    if (!file.startsWith(site + path.sep)) file = '';
    else if (!existsSync(file) && existsSync(`${file}.html`)) file = `${file}.html`;
    const found = file !== '' && existsSync(file) && statSync(file).isFile();
    const served = found ? file : path.join(site, '404.html');
    res.statusCode = found ? 200 : 404;
    res.setHeader('content-type', TYPES[path.extname(served)] ?? 'application/octet-stream');
    res.end(existsSync(served) ? readFileSync(served) : 'not found');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the site server has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * What does not fit in the page open in `page` (a Playwright page), `width` px wide, one sentence
 * each; none is an empty list. At every width, no cell clips its text (each cell's scrollWidth is
 * within its clientWidth) and the page itself does not scroll sideways. With `tablesFit` (the
 * desktop width), each table is no wider than its column and does not scroll; without it (a phone),
 * a table may scroll sideways inside its own box, if that box is one that scrolls.
 * @param {import('playwright-core').Page} page
 * @param {{ width: number, tablesFit: boolean }} options
 * @returns {Promise<string[]>}
 */
export async function tableProblems(page, { width, tablesFit }) {
  return page.evaluate(
    ({ width, tablesFit }) => {
      const problems = [];
      const pageWidth = document.documentElement.scrollWidth;
      if (pageWidth > width) problems.push(`the page scrolls sideways: it is ${pageWidth} px wide in a ${width} px window`);
      const tables = [...document.querySelectorAll('.vp-doc table')];
      tables.forEach((table, t) => {
        const head = [...table.querySelectorAll('th')].map((th) => th.textContent?.trim()).join(' | ');
        const name = `table ${t + 1} (${head || 'no header'})`;
        const column = table.parentElement;
        if (!column) return;
        const tableWidth = Math.round(table.getBoundingClientRect().width);
        const columnWidth = column.clientWidth;
        if (tableWidth > columnWidth + 1) problems.push(`${name} is ${tableWidth} px wide in its ${columnWidth} px column`);
        if (table.scrollWidth > table.clientWidth + 1) {
          const overflow = getComputedStyle(table).overflowX;
          if (tablesFit) problems.push(`${name} scrolls sideways: ${table.scrollWidth} px of content in ${table.clientWidth} px`);
          else if (overflow !== 'auto' && overflow !== 'scroll') problems.push(`${name} overflows its box (overflow-x: ${overflow})`);
        }
        for (const cell of table.querySelectorAll('th, td')) {
          if (cell.scrollWidth <= cell.clientWidth + 1) continue;
          const row = cell.parentElement;
          const text = (cell.textContent ?? '').trim().slice(0, 40);
          problems.push(
            `${name}, row ${row instanceof HTMLTableRowElement ? row.rowIndex : '?'}: the cell "${text}" clips its text ` +
              `(${cell.scrollWidth} px in ${cell.clientWidth} px)`,
          );
        }
      });
      return problems;
    },
    { width, tablesFit },
  );
}

/**
 * A page of Chromium at the viewport's size (a phone's with touch and its meta viewport honoured),
 * in a context of its own: `page.context().close()` ends it.
 * @param {import('playwright-core').Browser} browser
 * @param {{ width: number, height: number, isMobile: boolean }} viewport
 */
export async function viewportPage(browser, viewport) {
  const context = await browser.newContext({
    viewport: { width: viewport.width, height: viewport.height },
    isMobile: viewport.isMobile,
    hasTouch: viewport.isMobile,
    deviceScaleFactor: 1,
    colorScheme: 'light',
  });
  return context.newPage();
}

/**
 * Opens `url` in `page` and waits for it to settle: loaded, its fonts too, so that text is measured
 * in the site's own fonts.
 * @param {import('playwright-core').Page} page
 * @param {string} url
 */
export async function visit(page, url) {
  const response = await page.goto(url, { waitUntil: 'load' });
  if (!response?.ok()) throw new Error(`${url}: HTTP ${response?.status()}`);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

async function main() {
  const args = process.argv.slice(2);
  const option = (flag) => {
    const at = args.indexOf(flag);
    if (at === -1) return undefined;
    const value = args[at + 1];
    args.splice(at, 2);
    return value;
  };
  let site = option('--site');
  const chromium = option('--chromium') ?? CHROMIUM;
  const [outDir] = args;
  if (!outDir || args.length > 1) {
    console.error('usage: node scripts/docs-screenshots.mjs <outDir> [--site <builtDir>] [--chromium <path>]');
    process.exit(2);
  }
  if (!existsSync(chromium)) {
    console.error(`${chromium} is not installed (apt-get install chromium, or --chromium <path>)`);
    process.exit(1);
  }
  let built;
  if (site === undefined) {
    built = mkdtempSync(path.join(tmpdir(), 'skillmount-shots-site-'));
    const build = spawnSync(process.execPath, [path.join(root, 'scripts/docs.mjs'), 'build', built], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
    site = built;
  } else if (!existsSync(path.join(site, 'index.html'))) {
    console.error(`${site} holds no built site (index.html): node scripts/docs.mjs build ${site}`);
    process.exit(1);
  }
  mkdirSync(outDir, { recursive: true });
  const { chromium: launcher } = await import('playwright-core');
  const server = await serveSite(site);
  const browser = await launcher.launch({ executablePath: chromium, args: CHROMIUM_ARGS });
  let found = 0;
  try {
    for (const viewport of VIEWPORTS) {
      const page = await viewportPage(browser, viewport);
      for (const shot of PAGES) {
        await visit(page, server.url + shot.path);
        const base = path.join(outDir, `${shot.name}-${viewport.width}`);
        await page.screenshot({ path: `${base}.png` });
        if (shot.full) await page.screenshot({ path: `${base}-full.png`, fullPage: true });
        const problems = await tableProblems(page, { width: viewport.width, tablesFit: viewport.name === 'desktop' });
        found += problems.length;
        console.log(`${shot.path} at ${viewport.width} px: ${problems.length === 0 ? 'every table fits' : problems.join('; ')}`);
        const widest = await page.evaluate(() => {
          const tables = [...document.querySelectorAll('.vp-doc table')];
          const table = tables.sort((a, b) => b.scrollWidth - a.scrollWidth)[0];
          if (!table) return false;
          // Below the fixed navigation bar (64 px), with the heading above the table in view.
          window.scrollTo(0, table.getBoundingClientRect().top + window.scrollY - 140);
          return true;
        });
        if (widest) await page.screenshot({ path: `${base}-table.png` });
      }
      await page.context().close();
    }
  } finally {
    await browser.close();
    await server.close();
    if (built) rmSync(built, { recursive: true, force: true });
  }
  console.log(`screenshots in ${path.resolve(outDir)}`);
  process.exit(found === 0 ? 0 : 1);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) await main();
