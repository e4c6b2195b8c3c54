/**
 * A differential test: skillmount answers the skills methods (`skills/list`, `skills/get`,
 * `resources/read` of skill:// URIs, `resources/directory/read`) on a fast path, from the source
 * with no SDK transport. The same request goes (a) to skillmount behind each adapter, fast path
 * on, and (b) to a server that answers the same catalog through the SDK only; the answers (HTTP
 * status, content type, whether a session id came back, the JSON-RPC messages) must be equal, or
 * differ as a pin in pinned.ts says, with why.
 *
 * - 2025-11-25: (b) is what an app writes with the SDK v1 alone: an McpServer with `attach` and
 *   the SDK's StreamableHTTPServerTransport, stateless, and with one session (the sessions run
 *   compares with it, each side's requests in its own session).
 * - 2026-07-28: the SDK v1 has no such transport, so (b) is skillmount itself, behind the same
 *   adapter, with an app `server` factory whose server owns every skills method: the handlers
 *   `attach` installed, each put back under a function of its own. The endpoint answers from the
 *   source only while the server still has attach's handlers (`answersAsAttached`); with these it
 *   sends every skills request through the app's server and the SDK (modern/bridge.ts), and the
 *   code that answers is the same.
 *
 * Requests: the valid ones, edge cases, the hostile corpus (test/hostile/cases.ts), and requests
 * generated from a seed. SKILLMOUNT_DIFF_CASES (generated requests per era, default 300) and
 * SKILLMOUNT_DIFF_SEED widen or move the run; a failure prints the seed and each failing request.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { SkillCatalog } from '@skillmount/core';
import { FRAMEWORKS } from '../hostile/servers.ts';
import { type Answer, ask } from './answers.ts';
import { inPool } from '../support/pool.ts';
import { judge, PINS, type Run } from './pinned.ts';
import { type DiffCase, edgeCases, type Era, hostile, validCases } from './requests.ts';
import { loadCatalog, passThroughReference, sdkReference, skillmount } from './targets.ts';
import { generated, poolsOf } from './variations.ts';

/** A whole number from the environment, or `fallback` when unset. */
function setting(name: string, fallback: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0 || value > max) {
    throw new RangeError(`${name} must be a whole number from 0 to ${max}, got "${raw}"; unset it for the default (${fallback})`);
  }
  return value;
}

const SEED = setting('SKILLMOUNT_DIFF_SEED', 2640, 0xffffffff);
const CASES = setting('SKILLMOUNT_DIFF_CASES', 300, 1_000_000);
/** Requests in flight at once, per target. */
const WIDTH = 8;
// A bound on waiting that grows with the run (CI's 10,000 cases per era on a busy machine), not a timing assertion.
const TIMEOUT_MS = Math.max(300_000, CASES * 100);
const REPRODUCE = `SKILLMOUNT_DIFF_SEED=${SEED} SKILLMOUNT_DIFF_CASES=${CASES} node scripts/test.mjs test/differential`;

async function casesOf(catalog: SkillCatalog, era: Era): Promise<DiffCase[]> {
  return [...(await validCases(catalog, era)), ...edgeCases(era), ...hostile(era), ...generated(SEED, CASES, await poolsOf(catalog), era)];
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text);

function describe(c: DiffCase, expected: Answer, answer: Answer, pins: string[]): string {
  const { method = 'POST', headers = {}, body = '' } = c.request;
  return [
    `${c.group} / ${c.name}`,
    `  request: ${method} ${JSON.stringify(headers)} ${clip(String(body), 1500)}`,
    `  reference: ${clip(JSON.stringify(expected), 1500)}`,
    `  skillmount: ${clip(JSON.stringify(answer), 1500)}`,
    ...(pins.length > 0 ? [`  (pins that applied: ${pins.join(', ')})`] : []),
  ].join('\n');
}

/** Judge every answer of one run against the reference's; print the counts; fail on a new difference or a pin that explained nothing. */
function judgeRun(t: TestContext, run: Run, cases: readonly DiffCase[], expected: readonly Answer[], answers: readonly Answer[]): void {
  const label = `${run.era} ${run.framework} ${run.sessions ? 'sessions' : 'stateless'}`;
  const pinned = new Map<string, number>();
  const fresh: string[] = [];
  let equal = 0;
  cases.forEach((c, i) => {
    const verdict = judge(c, expected[i]!, answers[i]!, run);
    if (verdict.kind === 'equal') equal++;
    else if (verdict.kind === 'pinned') for (const pin of verdict.pins) pinned.set(pin, (pinned.get(pin) ?? 0) + 1);
    else fresh.push(describe(c, expected[i]!, answers[i]!, verdict.pins));
  });
  const differing = cases.length - equal - fresh.length;
  t.diagnostic(
    `${label}: ${cases.length} requests compared, ${equal} equal, ${differing} differ as pinned, ${fresh.length} differ otherwise` +
      (pinned.size > 0 ? ` (${[...pinned].map(([name, n]) => `${name}: ${n}`).join('; ')})` : ''),
  );
  const shown = fresh.slice(0, 5).join('\n');
  assert.equal(fresh.length, 0, `${label}: ${fresh.length} answers differ from the reference's and no pin explains them. Reproduce: ${REPRODUCE}\n${shown}`);
  const gone = PINS.filter((pin) => pin.occursIn(run) && !pinned.has(pin.name)).map((pin) => pin.name);
  assert.deepEqual(gone, [], `${label}: these pinned differences no longer occur; remove them from pinned.ts if that is meant`);
}

const LIST = { jsonrpc: '2.0', id: 1, method: 'skills/list', params: {} };

test('2025-11-25: the fast path answers as a plain SDK v1 server with the skills attached, stateless and in a session', { timeout: TIMEOUT_MS }, async (t) => {
  const catalog = await loadCatalog();
  const all = await casesOf(catalog, '2025-11-25');
  for (const sessions of [false, true]) {
    // With sessions, GET streams and DELETE are the session's lifecycle, not skills answers: a DELETE would end the run's session.
    const cases = sessions ? all.filter((c) => c.request.method !== 'GET' && c.request.method !== 'DELETE') : all;
    const reference = await sdkReference(catalog, sessions);
    let expected: Answer[];
    let jsonBySubstring: boolean;
    try {
      expected = await inPool(cases, WIDTH, (c) => ask(reference, c.request));
      jsonBySubstring = (await ask(reference, { headers: { 'content-type': 'application/jsonx' }, body: JSON.stringify(LIST) })).status === 200;
    } finally {
      await reference.close();
    }
    for (const framework of FRAMEWORKS) {
      await t.test(`${framework}, ${sessions ? 'sessions' : 'stateless'}`, async (st) => {
        const ours = await skillmount(framework, catalog, sessions);
        try {
          const answers = await inPool(cases, WIDTH, (c) => ask(ours, c.request));
          judgeRun(st, { era: '2025-11-25', framework, sessions, jsonBySubstring }, cases, expected, answers);
        } finally {
          await ours.close();
        }
      });
    }
  }
});

/** The methods the pass-through app owns on 2026-07-28. */
const OWNED = new Set(['skills/list', 'skills/get', 'resources/directory/read', 'resources/read']);

test("2026-07-28: the fast path answers as the SDK path through an app's server that owns the skills methods", { timeout: TIMEOUT_MS }, async (t) => {
  const catalog = await loadCatalog();
  const cases = await casesOf(catalog, '2026-07-28');
  for (const framework of FRAMEWORKS) {
    await t.test(framework, async (st) => {
      const reference = await passThroughReference(framework, catalog);
      const ours = await skillmount(framework, catalog, false);
      try {
        const expected = await inPool(cases, WIDTH, (c) => ask(reference, c.request));
        // The reference is the SDK path: each valid skills request reached the app's own handlers.
        const owned = cases.filter((c) => c.group === 'valid' && OWNED.has(String(JSON.parse(String(c.request.body)).method))).length;
        assert.ok(reference.answeredByApp() >= owned, `the app's handlers answered ${reference.answeredByApp()} requests, fewer than the ${owned} valid ones`);
        const answers = await inPool(cases, WIDTH, (c) => ask(ours, c.request));
        judgeRun(st, { era: '2026-07-28', framework, sessions: false, jsonBySubstring: false }, cases, expected, answers);
      } finally {
        await Promise.all([reference.close(), ours.close()]);
      }
    });
  }
});
