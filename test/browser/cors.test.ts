/**
 * A browser host on another origin, in headless Chromium: a page served from
 * `http://localhost:<port>` runs the SDK's client with `@skillmount/core/client` (bundled for the
 * browser) against each adapter's endpoint on `http://127.0.0.1:<port>/mcp`, behind the
 * framework's CORS library (`@fastify/cors`, `cors`) and a bearer check. From the allowed origin
 * it reads the 401's `WWW-Authenticate`, opens a session (the transport must read
 * `Mcp-Session-Id`), opens its GET stream, lists and verifies every skill, and ends the session
 * with DELETE; the SDK v2 client on protocol 2026-07-28 (its `Mcp-Method` and `Mcp-Name` headers
 * preflighted) lists and verifies them too. From an
 * origin not allowed the browser refuses, and no request but the preflight reaches the app.
 * `skillmount serve --well-known --cors <origin>` on either framework: the allowed page reads the
 * `.well-known` index, and the other origin cannot.
 * Skips, saying why, where /usr/bin/chromium is missing.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { BrowserContext } from 'playwright-core';
import { CHALLENGE, CORS_APPS, TOKEN } from '../support/cors-apps.js';
import { EXAMPLES, exampleFiles } from '../support/skills-suite.js';
import type { CorsReport } from './support/cors-entry.js';
import { servePage } from './support/page-server.js';
import { bundleForBrowser, CHROMIUM, CHROMIUM_ARGS, skipWithoutChromium } from './support/chromium.js';

const skip = skipWithoutChromium;

let allowed: Awaited<ReturnType<typeof servePage>>;
let other: Awaited<ReturnType<typeof servePage>>;
let context: BrowserContext | undefined;
let profile: string | undefined;

before(async () => {
  if (skip) return;
  const bundle = await bundleForBrowser(path.join(import.meta.dirname, 'support/cors-entry.ts'));
  const page = {
    html: '<!doctype html><meta charset="utf-8"><title>cors host</title><link rel="icon" href="data:,"><script type="module" src="/bundle.js"></script>',
    bundle,
  };
  allowed = await servePage(page);
  other = await servePage(page);
  profile = mkdtempSync(path.join(os.tmpdir(), 'skillmount-chromium-'));
  const { chromium } = await import('playwright-core');
  context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
});

after(async () => {
  await context?.close();
  await allowed?.close();
  await other?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

/** Opens `origin`'s page and runs the client against `endpoint`; console errors are collected (CORS refusals land there). */
async function runPage(origin: string, endpoint: string): Promise<{ report: CorsReport; console: string[] }> {
  const page = await context!.newPage();
  const console: string[] = [];
  page.on('pageerror', (error) => console.push(`page error: ${error.message}`));
  page.on('console', (message) => message.type() === 'error' && console.push(message.text()));
  try {
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => typeof (globalThis as { corsRun?: unknown }).corsRun === 'function', undefined, { timeout: 30_000 });
    const report = (await page.evaluate(
      ([url, token]) => (globalThis as unknown as { corsRun(url: string, token: string): Promise<unknown> }).corsRun(url, token),
      [endpoint, TOKEN] as const,
    )) as CorsReport;
    return { report, console };
  } finally {
    await page.close();
  }
}

for (const [framework, start] of Object.entries(CORS_APPS)) {
  test(`in headless Chromium, a page on another origin uses the ${framework} endpoint through CORS, and one not allowed is refused`, {
    skip,
    timeout: 180_000,
  }, async () => {
    const seen: { method: string; origin: string | undefined }[] = [];
    const app = await start([allowed.origin], (method, headers) => seen.push({ method, origin: headers.origin }));
    try {
      const { report, console: errors } = await runPage(allowed.origin, app.url);
      assert.equal(report.origin, allowed.origin);
      assert.deepEqual(
        errors.filter((e) => !/401/.test(e)),
        [],
        'nothing but the expected 401 shows as an error',
      );
      assert.deepEqual(report.unauthorized, { status: 401, wwwAuthenticate: CHALLENGE }, 'WWW-Authenticate is exposed to the page');
      assert.ok(!('failed' in report.session), `the session worked: ${JSON.stringify(report.session)}`);
      const session = report.session as Exclude<CorsReport['session'], { failed: string }>;
      assert.match(session.sessionId ?? '', /\S/, 'the transport read Mcp-Session-Id');
      assert.deepEqual(session.skills.sort(), ['skill://acme/billing/refunds/SKILL.md', 'skill://git-workflow/SKILL.md', 'skill://pdf-processing/SKILL.md']);
      assert.deepEqual(session.unverified, []);
      assert.deepEqual(
        session.verified.map((u) => u.slice('skill://'.length)).sort(),
        exampleFiles()
          .map((f) => encodeURI(f))
          .sort(),
      );
      assert.equal(session.terminated, true);
      assert.ok(!('failed' in report.modern), `the 2026-07-28 client worked: ${JSON.stringify(report.modern)}`);
      const modern = report.modern as Exclude<CorsReport['modern'], { failed: string }>;
      assert.equal(modern.version, '2026-07-28');
      assert.deepEqual(modern.skills.sort(), session.skills);
      assert.deepEqual(modern.unverified, []);
      assert.deepEqual(modern.verified.sort(), session.verified.sort());
      const methods = new Set(seen.filter((r) => r.origin === allowed.origin).map((r) => r.method));
      assert.deepEqual(
        [...methods].sort(),
        ['DELETE', 'GET', 'OPTIONS', 'POST'],
        "preflights, the messages, the session's GET stream, and the DELETE that ended the session",
      );

      const refused = await runPage(other.origin, app.url);
      assert.equal(refused.report.origin, other.origin);
      assert.match(JSON.stringify(refused.report.unauthorized), /failed.*Failed to fetch/);
      assert.match(JSON.stringify(refused.report.session), /failed.*Failed to fetch/);
      assert.match(JSON.stringify(refused.report.modern), /failed/);
      assert.ok(
        refused.console.some((e) => /blocked by CORS policy/.test(e)),
        `the browser says why: ${refused.console.join('\n')}`,
      );
      const fromOther = seen.filter((r) => r.origin === other.origin);
      assert.ok(fromOther.length > 0, 'the preflights arrived');
      assert.deepEqual(
        fromOther.filter((r) => r.method !== 'OPTIONS'),
        [],
        'no request but the preflight: the browser sent nothing once the CORS layer gave no grant',
      );
    } finally {
      await app.close();
    }
  });
}

/** `skillmount serve examples/skills --well-known --cors <origin>` on `framework`; its origin, and how to stop it. */
async function serveWithCors(framework: string, origin: string): Promise<{ origin: string; stop(): Promise<void> }> {
  const bin = path.join(import.meta.dirname, '../../packages/cli/dist/bin.js');
  const args = ['serve', EXAMPLES, '--well-known', '--cors', origin, '--framework', framework, '--port', '0', '--host', '127.0.0.1'];
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = once(child, 'exit');
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const found = /serving \d+ skills at (http:\/\/127\.0\.0\.1:\d+)\/mcp/.exec(out)?.[1];
      if (found) resolve(found);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then(([code]) => reject(new Error(`skillmount serve exited with ${code}:\n${out}`)));
  });
  return {
    origin: url,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** What a page on `pageOrigin` gets from fetching `url`: the skills' names, or why it failed. */
async function fetchFromPage(pageOrigin: string, url: string): Promise<{ names: string[] } | { failed: string }> {
  const page = await context!.newPage();
  try {
    await page.goto(`${pageOrigin}/`);
    return (await page.evaluate(async (target) => {
      try {
        const answer = await fetch(target);
        const index = (await answer.json()) as { skills: { name: string }[] };
        return { names: index.skills.map((skill) => skill.name).sort() };
      } catch (error) {
        return { failed: String(error) };
      }
    }, url)) as { names: string[] } | { failed: string };
  } finally {
    await page.close();
  }
}

for (const framework of ['fastify', 'express']) {
  test(`in headless Chromium, serve --well-known --cors on ${framework}: the allowed page reads the .well-known index, another origin cannot`, {
    skip,
    timeout: 120_000,
  }, async () => {
    const server = await serveWithCors(framework, allowed.origin);
    try {
      const index = `${server.origin}/.well-known/agent-skills/index.json`;
      assert.deepEqual(await fetchFromPage(allowed.origin, index), { names: ['git-workflow', 'pdf-processing', 'refunds'] });
      assert.match(JSON.stringify(await fetchFromPage(other.origin, index)), /failed.*Failed to fetch/);
    } finally {
      await server.stop();
    }
  });
}
