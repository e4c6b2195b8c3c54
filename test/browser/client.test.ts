/**
 * The built `@skillmount/core/client` in a real browser: bundled for the browser with its
 * dependencies (yaml, zod, the SDK's client and Streamable HTTP transport), loaded in headless
 * Chromium, and run against a running `skillmount serve examples/skills`. Every listed file must
 * read verified with WebCrypto and the browser's own APIs, and a changed digest must be refused.
 * Skips, saying why, where /usr/bin/chromium is missing (.ci/run installs it).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { EXAMPLES, exampleFiles } from '../support/skills-suite.js';
import type { PageReport } from './support/page-entry.js';
import { sameOriginProxy } from './support/same-origin.js';
import { bundleForBrowser, CHROMIUM, CHROMIUM_ARGS, skipWithoutChromium } from './support/chromium.js';

const root = path.resolve(import.meta.dirname, '../..');
const skip = skipWithoutChromium;

let serve: ChildProcess | undefined;
let endpoint: URL;
let proxy: Awaited<ReturnType<typeof sameOriginProxy>> | undefined;
let profile: string | undefined;

/** `skillmount serve examples/skills` on a free loopback port; resolves with its endpoint URL. */
function startServe(): Promise<URL> {
  const child = spawn(process.execPath, [path.join(root, 'packages/cli/dist/bin.js'), 'serve', EXAMPLES, '--port', '0', '--host', '127.0.0.1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  serve = child;
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`skillmount serve did not start within 30 s:\n${out}`)), 30_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const url = /serving \d+ skills at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(out)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve(new URL(url));
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`skillmount serve exited with ${code}:\n${out}`)));
  });
}

before(async () => {
  if (skip) return;
  endpoint = await startServe();
  const bundle = await bundleForBrowser(path.join(import.meta.dirname, 'support/page-entry.ts'));
  const html =
    '<!doctype html><meta charset="utf-8"><title>skills client</title><link rel="icon" href="data:,"><script type="module" src="/bundle.js"></script>';
  proxy = await sameOriginProxy(endpoint, { html, bundle });
  profile = mkdtempSync(path.join(os.tmpdir(), 'skillmount-chromium-'));
});

after(async () => {
  await proxy?.close();
  if (serve?.pid !== undefined && serve.exitCode === null) {
    serve.kill('SIGTERM');
    await new Promise((resolve) => serve!.once('exit', resolve));
  }
  if (profile) rmSync(profile, { recursive: true, force: true });
});

test('in headless Chromium, the built client verifies every file that skillmount serve serves', { skip, timeout: 120_000 }, async () => {
  const { chromium } = await import('playwright-core');
  const context = await chromium.launchPersistentContext(profile!, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  const problems: string[] = [];
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => message.type() === 'error' && problems.push(`console: ${message.text()}`));
    await page.goto(proxy!.url);
    await page.waitForFunction(() => typeof (globalThis as { verifyAll?: unknown }).verifyAll === 'function', undefined, { timeout: 30_000 });
    const report = (await page.evaluate(
      (mcp) => (globalThis as unknown as { verifyAll(url: string): Promise<unknown> }).verifyAll(mcp),
      endpoint.pathname,
    )) as PageReport;

    assert.deepEqual(problems, []);
    assert.deepEqual(report.nodeGlobals, { Buffer: false, process: false, require: false }, 'a browser page has none of Node.js globals');
    assert.equal(report.secureContext, true, 'WebCrypto needs a secure context; loopback is one');
    assert.equal(report.supported, true);
    assert.deepEqual(report.skills.sort(), ['skill://acme/billing/refunds/SKILL.md', 'skill://git-workflow/SKILL.md', 'skill://pdf-processing/SKILL.md']);

    // Every file on disk was read once, verified, with the bytes on disk.
    const disk = exampleFiles(EXAMPLES);
    assert.deepEqual(report.files.map((f) => f.uri.slice('skill://'.length)).sort(), disk.map((f) => encodeURI(f)).sort());
    for (const file of report.files) {
      const bytes = readFileSync(path.join(EXAMPLES, decodeURI(file.uri.slice('skill://'.length))));
      assert.equal(file.verified, true, file.uri);
      assert.equal(file.size, bytes.byteLength, file.uri);
      assert.equal(file.digest, 'sha256:' + createHash('sha256').update(bytes).digest('hex'), file.uri);
    }
    assert.ok(
      report.files.some((f) => !f.text),
      'a binary file (a base64 blob) was among them',
    );
    assert.deepEqual(report.frontmatterChecked.sort(), report.skills.sort(), 'each SKILL.md had its frontmatter checked');
    assert.equal(typeof report.tampered, 'object', `a changed digest was refused: ${JSON.stringify(report.tampered)}`);
    assert.equal((report.tampered as { reason: string }).reason, 'digest');
    assert.deepEqual(report.searched, { ranked: 'client', uris: ['skill://pdf-processing/SKILL.md'] }, 'search() ranks the listing in the page');
    assert.match((report.tampered as { message: string }).message, /no longer serves the bytes the skill entry lists/);
    // By default the client asks for the entry again and reads against it, which the result carries.
    const refreshed = report.refreshed as { skill: string; expected: string; verified: boolean };
    assert.equal(typeof report.refreshed, 'object', `the read under the changed entry was retried: ${JSON.stringify(report.refreshed)}`);
    assert.deepEqual(refreshed, { skill: refreshed.expected, expected: refreshed.expected, verified: true });
  } finally {
    await context.close();
  }
});
