/**
 * The GitHub workflows cannot run here, so they are checked as far as a file can be: against
 * GitHub's workflow schema (@action-validator/core, which embeds it), and for what matters to this
 * repository: every action pinned to a release, the release job's triggers, permissions and
 * scripts, no registry setting (npm trusted publishing needs none), and CI calling every step that
 * .ci/run calls, with the same Node.js majors and SDK release as the scripts name.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { validateWorkflow } from '@action-validator/core';
import { parse } from 'yaml';

const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const WORKFLOWS = ['.github/workflows/ci.yml', '.github/workflows/release.yml'];

type Step = { uses?: string; run?: string; with?: Record<string, unknown>; env?: Record<string, unknown> };
type Job = {
  uses?: string;
  needs?: string | string[];
  permissions?: Record<string, string>;
  container?: string;
  env?: Record<string, string>;
  services?: Record<string, unknown>;
  strategy?: { matrix?: Record<string, unknown> };
  steps?: Step[];
};
type Workflow = { on: Record<string, unknown>; permissions?: Record<string, string>; jobs: Record<string, Job> };
const workflow = (file: string) => parse(read(file)) as Workflow;
const steps = (wf: Workflow) => Object.values(wf.jobs).flatMap((job) => job.steps ?? []);
const runs = (job: Job) => (job.steps ?? []).flatMap((step) => (step.run ? [step.run] : []));

test('each workflow is valid against GitHub’s workflow schema', () => {
  for (const file of WORKFLOWS) {
    const { errors } = validateWorkflow(read(file));
    assert.deepEqual(errors, [], `${file} does not validate`);
  }
  // The validator is live: a misspelt key fails it.
  const broken = validateWorkflow(read('.github/workflows/release.yml').replace('runs-on:', 'runs_on:'));
  assert.ok(broken.errors.length > 0, 'the schema check accepted a job without runs-on');
});

test('every action is pinned to a release or a commit; local workflows are the only other uses', () => {
  for (const file of WORKFLOWS) {
    const wf = workflow(file);
    const uses = [...steps(wf).flatMap((step) => (step.uses ? [step.uses] : [])), ...Object.values(wf.jobs).flatMap((job) => (job.uses ? [job.uses] : []))];
    assert.ok(uses.length > 0, file);
    for (const use of uses) {
      if (use.startsWith('./')) {
        assert.ok(existsSync(path.join(root, use)), `${file}: ${use} does not exist`);
        continue;
      }
      assert.match(use, /^[\w.-]+\/[\w.-]+@(v\d+\.\d+\.\d+|[0-9a-f]{40})$/, `${file}: "${use}" is not pinned to an exact release or commit`);
    }
  }
});

test('no workflow names a registry: npm trusted publishing uses the default one', () => {
  for (const file of WORKFLOWS) {
    const text = read(file);
    assert.doesNotMatch(text, /registry-url/, `${file}: setup-node's registry-url writes an .npmrc that expects a token`);
    assert.doesNotMatch(text, /--registry|npm_config_registry|https?:\/\//i, `${file}: names a registry or a URL`);
  }
});

test('the release job: on push to main, after CI, with OIDC, through the repository’s release scripts', () => {
  const wf = workflow('.github/workflows/release.yml');
  assert.deepEqual(Object.keys(wf.on), ['push']);
  assert.deepEqual((wf.on.push as { branches: string[] }).branches, ['main']);
  assert.deepEqual(wf.permissions, { contents: 'read' }, 'the workflow default stays read-only; the release job asks for more');
  assert.equal(wf.jobs.ci?.uses, './.github/workflows/ci.yml');

  const job = wf.jobs.release!;
  assert.deepEqual([job.needs].flat(), ['ci'], 'publishing waits for CI');
  assert.deepEqual(job.permissions, { contents: 'write', 'pull-requests': 'write', 'id-token': 'write' });
  const action = job.steps?.find((step) => step.uses?.startsWith('changesets/action@'));
  assert.ok(action, 'the release job runs changesets/action');
  assert.equal(action.env?.NPM_CONFIG_PROVENANCE, 'true', 'npm publish --provenance for every package');

  const scripts = JSON.parse(read('package.json')).scripts as Record<string, string>;
  for (const [input, script] of [
    ['version', 'release:version'],
    ['publish', 'release:publish'],
  ]) {
    assert.equal(action.with?.[input!], `pnpm run ${script}`, `changesets/action's ${input} runs the repository's script`);
    const file = /node (scripts\/[\w-]+\.mjs)/.exec(scripts[script!] ?? '')?.[1];
    assert.ok(file && existsSync(path.join(root, file)), `package.json's ${script} runs no script of this repository: "${scripts[script!]}"`);
  }
  assert.ok(
    runs(job).some((run) => /npm install -g npm@11\.\d+\.\d+ pnpm@/.test(run)),
    'trusted publishing needs npm 11.5.1 or later, and changeset publish runs pnpm',
  );
});

test('CI runs every step .ci/run runs, through the same scripts, on the same Node.js majors and SDK release', () => {
  const wf = workflow('.github/workflows/ci.yml');
  assert.ok('push' in wf.on && 'pull_request' in wf.on && 'workflow_call' in wf.on, 'CI runs on push, on pull requests and from the release workflow');

  const ciScripts = (text: string) => [...text.matchAll(/bash (scripts\/ci\/[\w-]+\.sh)/g)].map((m) => m[1]!);
  const local = new Set(ciScripts(read('.ci/run')));
  const workflowRuns = Object.values(wf.jobs).flatMap(runs).join('\n');
  assert.ok(local.size >= 6, `.ci/run calls ${local.size} scripts/ci/ steps`);
  for (const script of local) assert.ok(workflowRuns.includes(`bash ${script}`), `.ci/run calls ${script}; ci.yml does not`);
  for (const script of ciScripts(workflowRuns)) assert.ok(existsSync(path.join(root, script)), `ci.yml calls ${script}, which does not exist`);

  const nodes = [...read('scripts/node-install.mjs').matchAll(/'(\d+)\.\d+\.\d+'/g)].map((m) => Number(m[1]));
  assert.deepEqual(wf.jobs['node-matrix']?.strategy?.matrix?.node, nodes, 'the node-matrix jobs are the majors scripts/node-install.mjs lists');
  assert.match(wf.jobs['node-matrix']?.container ?? '', /^node:\$\{\{ matrix\.node \}\}-bookworm$/, 'each job runs in its major’s Debian container');
  assert.match(runs(wf.jobs['node-matrix']!).join('\n'), /node-matrix\.sh \$\{\{ matrix\.node \}\}/);

  // .ci/run: the README run on the major it installs first (the readme-test job's major), a
  // Node.js run per major it names, and the oldest-SDK run on its own major: together, every major.
  const ci = read('.ci/run');
  const containerMajor = (job: string) => Number(/^node:(\d+)-/.exec(wf.jobs[job]?.container ?? '')?.[1]);
  const firstMajor = Number(/\$\(node scripts\/node-install\.mjs (\d+)\)/.exec(ci)?.[1]);
  assert.equal(containerMajor('readme-test'), firstMajor, 'ci.yml runs the README command on the Node.js major .ci/run installs for it');
  assert.equal(firstMajor, Math.min(...nodes), '.ci/run runs the README command on the oldest supported major');
  const matrixMajors = [...ci.matchAll(/bash scripts\/ci\/node-matrix\.sh ([\d ]+)/g)].flatMap((m) => m[1]!.trim().split(/\s+/).map(Number));
  const sdkMajor = Number(/bash scripts\/ci\/sdk-matrix\.sh (\d+)/.exec(ci)?.[1]);
  assert.equal(containerMajor('sdk-oldest'), sdkMajor, 'ci.yml runs the oldest SDK on the Node.js major .ci/run gives it');
  const covered = new Set([containerMajor('readme-test'), ...matrixMajors, sdkMajor]);
  assert.deepEqual([...covered].sort(), [...nodes].sort(), '.ci/run runs the suite on every supported Node.js major');

  const oldestSdk = /SDK_VERSIONS = \['([\d.]+)'/.exec(read('scripts/test-sdk-matrix.mjs'))?.[1];
  assert.match(read('scripts/ci/sdk-matrix.sh'), new RegExp(`--sdk ${oldestSdk?.replace(/\./g, '\\.')}\\b`), 'the SDK run is the oldest supported release');

  // The machine's PostgreSQL where .ci/run uses it, the embedded one where it does not.
  for (const [name, job] of Object.entries(wf.jobs)) {
    const all = runs(job).join('\n');
    if (/node-matrix\.sh|sdk-matrix\.sh/.test(all)) {
      assert.ok(job.services?.postgres, `${name} needs a postgres service`);
      assert.match(job.env?.DATABASE_URL ?? '', /^postgres:\/\/postgres@postgres:5432\//, `${name}: DATABASE_URL points at the service`);
    }
    if (/readme-test\.sh/.test(all)) assert.equal(job.env?.DATABASE_URL, undefined, `${name} runs on the embedded PostgreSQL`);
  }
  assert.match(workflowRuns, /bash scripts\/ci\/publish-dry-run\.sh/, 'CI runs the publish dry run');
});
