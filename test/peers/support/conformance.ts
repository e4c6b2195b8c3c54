/**
 * The official MCP conformance suite, kept outside the workspace in test/peers/tools (with the
 * Node 22 it needs, from the `node` package), installed from its lock file on first use.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import assert from 'node:assert/strict';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { promisify } from 'node:util';
import { REPO } from './serve.js';

export const TOOLS = path.join(REPO, 'test/peers/tools');
export const SUITE_VERSION = '0.2.0-alpha.12';
const NODE22 = path.join(TOOLS, 'node_modules/node/bin/node');
const SUITE_DIR = path.join(TOOLS, 'node_modules/@modelcontextprotocol/conformance');
const SUITE_CLI = path.join(SUITE_DIR, 'dist/index.js');
/** MCP Inspector's launcher (its `--cli` mode), installed beside the suite. */
export const INSPECTOR_CLI = path.join(TOOLS, 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js');

const run = promisify(execFile);
const installed = () => existsSync(SUITE_CLI) && existsSync(NODE22) && existsSync(INSPECTOR_CLI);

/**
 * Install test/peers/tools from its lock file. Test files run in parallel processes, so one
 * installs (holding a lock folder) while the others wait for it.
 */
async function installOnce(): Promise<void> {
  const lock = path.join(TOOLS, '.installing');
  try {
    mkdirSync(lock);
  } catch {
    for (const end = Date.now() + 600_000; existsSync(lock) && Date.now() < end; ) await new Promise((r) => setTimeout(r, 500));
    if (installed()) return;
    throw new Error(`another test process was installing ${TOOLS} and did not finish; delete ${lock} and run again`);
  }
  try {
    // `npm install` keeps to the lock file too; `npm ci` refuses this one, because a dependency
    // of the inspector names an optional package the registry does not have.
    await run('npm', ['install', '--prefix', TOOLS, '--no-audit', '--no-fund', '--no-save'], { cwd: REPO, timeout: 600_000, maxBuffer: 64 << 20 });
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    throw new Error(
      `installing the conformance suite into ${TOOLS} failed; run "npm install --prefix test/peers/tools --no-save" by hand to see why\n${e.stderr ?? e.message}`,
    );
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export type CheckStatus = 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';

/** One entry of the suite's checks.json. */
export interface Check {
  id: string;
  name: string;
  description: string;
  status: CheckStatus;
  errorMessage?: string;
  details?: Record<string, unknown>;
}

export interface ScenarioRun {
  scenario: string;
  checks: Check[];
  counts: Record<CheckStatus, number>;
  ms: number;
}

/** Install the suite, MCP Inspector and Node 22 into test/peers/tools when they are missing; return the Node 22 path. */
export async function ensureSuite(): Promise<string> {
  if (!installed()) await installOnce();
  for (const [file, what] of [
    [NODE22, 'the Node 22 binary (package "node")'],
    [SUITE_CLI, '@modelcontextprotocol/conformance'],
    [INSPECTOR_CLI, '@modelcontextprotocol/inspector'],
  ] as const) {
    if (!existsSync(file)) throw new Error(`${what} is missing at ${file}; delete test/peers/tools/node_modules and run again`);
  }
  const { stdout } = await run(NODE22, ['-v'], { timeout: 15_000 });
  if (!/^v2[2-9]\./.test(stdout.trim())) throw new Error(`${NODE22} is ${stdout.trim()}, the conformance suite needs Node 22 or later`);
  const version = JSON.parse(readFileSync(path.join(SUITE_DIR, 'package.json'), 'utf8')).version;
  if (version !== SUITE_VERSION) {
    throw new Error(`test/peers/tools holds conformance ${version}, expected ${SUITE_VERSION}; delete test/peers/tools/node_modules and run again`);
  }
  return NODE22;
}

/** One scenario to run: against `url`, at `specVersion` (or the suite's default), its results written under `outDir`. */
export interface ScenarioRequest {
  url: string;
  scenario: string;
  outDir: string;
  specVersion?: string;
}

// The suite's command line for one scenario. Without a version the suite runs at its default
// (2026-07-28); an older one needs --force.
const scenarioArgs = ({ url, scenario, outDir, specVersion }: ScenarioRequest): string[] => [
  'server',
  '--url',
  url,
  '--scenario',
  scenario,
  ...(specVersion === undefined ? [] : ['--spec-version', specVersion, '--force']),
  '-o',
  outDir,
  '--timeout',
  '30000',
];

/** Run `node args…` and return its exit code and its stdout and stderr together; killed after `guardMs`. */
function runSuite(node: string, args: string[], guardMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(node, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
    // The suite stops each scenario itself after --timeout; this only guards against a hang in the suite.
    const killer = setTimeout(() => child.kill('SIGKILL'), guardMs);
    child.on('error', (e) => (output += `\nspawn error: ${e.message}`));
    child.on('close', (exitCode) => {
      clearTimeout(killer);
      resolve({ code: exitCode, output });
    });
  });
}

/**
 * The checks a scenario's run wrote. A run that writes no checks.json, or an empty one, is an error:
 * the suite exits 0 without checks when a scenario does not apply.
 */
function readRun(request: ScenarioRequest, code: number | null, output: string, ms: number): ScenarioRun {
  const { scenario, outDir } = request;
  const file = checksFile(outDir, scenario);
  const tail = output.trim().split('\n').slice(-15).join('\n');
  if (!file) throw new Error(`${scenario}: the suite wrote no checks.json (exit ${code})\n${tail}`);
  const checks = JSON.parse(readFileSync(file, 'utf8')) as Check[];
  if (!Array.isArray(checks) || checks.length === 0) throw new Error(`${scenario}: ${file} holds no checks (exit ${code})\n${tail}`);
  const counts: Record<CheckStatus, number> = { SUCCESS: 0, FAILURE: 0, WARNING: 0, SKIPPED: 0, INFO: 0 };
  for (const check of checks) counts[check.status] = (counts[check.status] ?? 0) + 1;
  return { scenario, checks, counts, ms };
}

const BATCH = path.join(import.meta.dirname, 'conformance-batch.mjs');
const RUN_END = /^conformance-batch-run (\{.*\})$/m;

/**
 * Run several server scenarios, one after the other, in one process of the suite
 * (conformance-batch.mjs runs the suite's own command line once per scenario): each run's checks,
 * or the error that it wrote none, in the order asked.
 */
export async function runScenarios(node: string, requests: ScenarioRequest[]): Promise<(ScenarioRun | Error)[]> {
  const runs = requests.map((request) => ({ args: scenarioArgs(request) }));
  const { code, output } = await runSuite(node, [BATCH, SUITE_CLI, JSON.stringify(runs)], 60_000 * requests.length);
  let rest = output;
  return requests.map((request) => {
    const end = RUN_END.exec(rest);
    const own = end ? rest.slice(0, end.index) : rest;
    rest = end ? rest.slice(end.index + end[0].length) : '';
    if (!end)
      return new Error(`${request.scenario}: the suite's process ended (exit ${code}) before this run did\n${own.trim().split('\n').slice(-15).join('\n')}`);
    const { code: runCode, ms } = JSON.parse(end[1]!) as { code: number; ms: number };
    try {
      return readRun(request, runCode, own, ms);
    } catch (error) {
      return error as Error;
    }
  });
}

/**
 * Every scenario at each protocol version of `EXPECTED_RUNS` against `url()`, one after the other
 * in one process of the suite (loading the suite cost most of a process per scenario), run by a
 * `before` hook registered in the calling `describe`, its results under a temporary folder named
 * from `label` that an `after` hook removes: returns the lookup of a run's checks (or of why it has
 * none) by the era's index in `EXPECTED_RUNS` and the scenario, for a test of its own.
 */
export function scenariosInOneProcess(
  node: () => string,
  url: () => string,
  scenarios: readonly string[],
  label: string,
): (era: number, scenario: string) => ScenarioRun | Error {
  const outDir = mkdtempSync(path.join(os.tmpdir(), `skillmount-${label}-`));
  after(() => rmSync(outDir, { recursive: true, force: true }));
  const planned = EXPECTED_RUNS.flatMap((expected, era) =>
    scenarios.map((scenario) => ({ era, scenario, specVersion: expected.specVersion, outDir: path.join(outDir, String(era)) })),
  );
  let results: (ScenarioRun | Error)[] = [];
  before(
    async () => {
      const requests = planned.map(({ scenario, specVersion, outDir }): ScenarioRequest => ({ url: url(), scenario, specVersion, outDir }));
      for (const { outDir } of requests) mkdirSync(outDir, { recursive: true });
      results = await runScenarios(node(), requests);
    },
    { timeout: 60_000 * planned.length },
  );
  return (era, scenario) => results[planned.findIndex((run) => run.era === era && run.scenario === scenario)] ?? new Error(`${scenario} was not run`);
}

/** Results land in <outDir>/server-<scenario>-<timestamp>/checks.json; take the newest. */
function checksFile(outDir: string, scenario: string): string | undefined {
  const dirs = readdirSync(outDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name.startsWith(`server-${scenario}-`))
    .map((d) => d.name)
    .sort()
    .reverse();
  return dirs.map((d) => path.join(outDir, d, 'checks.json')).find((f) => existsSync(f));
}

/** `id [STATUS]: message` for every check that did not succeed. */
export function describeProblems(checks: Check[], keep: (c: Check) => boolean = (c) => c.status !== 'SUCCESS'): string {
  return checks
    .filter(keep)
    .map((c) => `  ${c.id} [${c.status}]: ${(c.errorMessage ?? c.description).replace(/\s+/g, ' ')}`)
    .join('\n');
}

/** One run of the suite: a protocol version, and what the official SDK v2 server scores there. */
export interface ExpectedRun {
  label: string;
  /** `--spec-version`; undefined runs the suite's default. */
  specVersion?: string;
  success: number;
  skips: string[];
}

// What the official SDK v2 server scores on the same scenarios and protocol versions.
export const EXPECTED_RUNS: ExpectedRun[] = [
  { label: 'default version (2026-07-28)', success: 45, skips: [] },
  // ttlMs and cacheScope exist from protocol 2026-07-28 on; at 2025-11-25 the suite skips these two by design.
  { label: '2025-11-25', specVersion: '2025-11-25', success: 43, skips: ['sep-2640-skills-get-cache-attributes', 'sep-2640-skills-list-cache-attributes'] },
];

/** Every scenario ran, and together they score what the official SDK v2 server does (printed as `conformance <label> total: …`). */
export function assertTotals(runs: ScenarioRun[], scenarios: readonly string[], expected: ExpectedRun, label: string): void {
  assert.equal(runs.length, scenarios.length, 'every scenario ran');
  const checks = runs.flatMap((r) => r.checks);
  const skipped = checks
    .filter((c) => c.status === 'SKIPPED')
    .map((c) => c.id)
    .sort();
  const success = checks.filter((c) => c.status === 'SUCCESS').length;
  console.log(`conformance ${label} ${expected.label} total: ${checks.length} checks, SUCCESS ${success}, SKIPPED ${skipped.length}`);
  assert.deepEqual(skipped, expected.skips, `skipped checks:\n${describeProblems(checks)}`);
  assert.equal(success, expected.success, `SUCCESS count on ${label}; not successful:\n${describeProblems(checks)}`);
  assert.equal(checks.length, expected.success + expected.skips.length, 'no other statuses (FAILURE, WARNING, INFO)');
}
