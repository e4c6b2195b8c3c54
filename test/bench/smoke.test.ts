/**
 * The benchmark at its smallest size, one run per case: it must complete against real storages
 * (a folder, the loopback S3 server, PostgreSQL) and real HTTP servers, and print every figure
 * with its SDK v2 counterpart. No timing is asserted: the figures are the benchmark's business.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { Parser } from 'htmlparser2';
import { TYPESCRIPT_IMPORT } from '../../scripts/typescript-import.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');

function runBench(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...TYPESCRIPT_IMPORT, 'bench/run.ts', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The data rows of the Markdown table that follows `heading`. */
function rowsAfter(output: string, heading: string): string[][] {
  const start = output.indexOf(heading);
  assert.ok(start >= 0, `no "${heading}" section in:\n${output}`);
  const lines = output.slice(start).split('\n');
  const first = lines.findIndex((l) => l.startsWith('| '));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('| ')) break;
    rows.push(
      line
        .slice(2, -2)
        .split(' | ')
        .map((c) => c.trim()),
    );
  }
  return rows;
}

const RATIO = /^\d+(\.\d+)?×$/;
const TIME = /^\d+(\.\d+)? ms$/;

/** The element names of an SVG document, checking that every element it opens is closed in order. */
function svgElements(svg: string): string[] {
  const names: string[] = [];
  const open: string[] = [];
  const parser = new Parser(
    {
      onopentagname: (name) => {
        names.push(name);
        open.push(name);
      },
      onclosetag: (name) => assert.equal(open.pop(), name, `</${name}> closes another element`),
      onerror: (error) => assert.fail(error),
    },
    { xmlMode: true },
  );
  parser.write(svg);
  parser.end();
  assert.deepEqual(open, [], 'every element is closed');
  return names;
}

test('bench/run.ts --smoke completes and prints every figure with the SDK v2 figure and a ratio', { timeout: 240_000 }, async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'skillmount-bench-smoke-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const charts = path.join(dir, 'charts');
  const { code, stdout, stderr } = await runBench(['--smoke', '--out', path.join(dir, 'results.md'), '--charts', charts]);
  assert.equal(code, 0, `the smoke run failed (exit ${code}):\n${stderr}\n${stdout}`);
  assert.match(stdout, /Machine: \d+ × .+, [\d.]+ GiB RAM, .+, Node v\d+/);
  assert.equal(await readFile(path.join(dir, 'results.md'), 'utf8'), stdout, '--out holds what was printed');

  const builds = rowsAfter(stdout, '## Catalog build');
  assert.deepEqual(
    builds.map((r) => `${r[0]} ${r[1]}`),
    ['folder 10×3×1 KiB', 'folder 20×2×1 KiB', 'S3 10×3×1 KiB', 'PostgreSQL 10×3×1 KiB'],
  );
  for (const [, corpus, , ours, theirs, ratio, bodies] of builds) {
    assert.match(ours!, TIME);
    assert.match(theirs!, TIME);
    assert.match(ratio!, RATIO);
    assert.match(bodies!, corpus === '20×2×1 KiB' ? /^40 of 40$/ : /^\d+ of 30$/);
  }
  // PostgreSQL vouches for digests: only the SKILL.md files are read.
  assert.equal(builds[3]![6], '10 of 30');
  // The folder's two corpora of different shapes give a cost per skill and per file for each side.
  const costs = rowsAfter(stdout, 'Cost per skill and per file');
  assert.deepEqual(
    costs.map((r) => `${r[0]} ${r[1]}`),
    ['folder 2'],
  );
  for (const cell of costs[0]!.slice(2, 6)) assert.match(cell, /^-?[\d,]+(\.\d)? µs$/);

  const colds = rowsAfter(stdout, '## Cold start');
  assert.deepEqual(
    colds.map((r) => r[0]),
    ['folder', 'folder', 'S3', 'PostgreSQL'],
  );
  for (const row of colds) {
    for (const i of [3, 4, 5, 6, 7, 8, 10]) assert.match(row[i]!, TIME);
    assert.match(row[9]!, RATIO);
  }

  const reloads = rowsAfter(stdout, '## Reload');
  // Folder (walked, and watched), S3, S3 without a manifest, PostgreSQL: nothing changed and 1% changed each.
  assert.deepEqual(
    reloads.map((r) => r[0]),
    ['folder', 'folder', 'folder, watch on', 'folder, watch on', 'S3', 'S3', 'S3, no manifest', 'S3, no manifest', 'PostgreSQL', 'PostgreSQL'],
  );
  for (const row of reloads.filter((r) => r[3] === 'nothing changed')) assert.equal(row[5], '0', `our unchanged reload of ${row[0]} read no body`);
  for (const row of reloads) {
    assert.match(row[4]!, TIME);
    assert.match(row[6]!, TIME);
    assert.match(row[8]!, RATIO);
  }

  const memory = rowsAfter(stdout, '## Memory of a loaded catalog');
  assert.deepEqual(
    memory.map((r) => r[0]),
    ['ours', 'ours, `workerThreads: false`', 'SDK v2', 'ours / SDK v2', 'ours (`workerThreads: false`) / SDK v2'],
  );
  for (const row of memory.slice(0, 2)) for (const cell of row.slice(1)) assert.match(cell, /^-?\d+\.\d MiB$/);

  const http = rowsAfter(stdout, '## Over HTTP');
  const servers = http.map((r) => `${r[0]} ${r[1]}`);
  for (const kind of ['fastify-stateless', 'fastify-session', 'express-stateless', 'express-session']) {
    assert.ok(
      servers.some((s) => s.endsWith(kind)),
      `${kind} was measured over HTTP`,
    );
  }
  assert.equal(servers.filter((s) => s.endsWith('sdk-v2')).length, 2, 'the SDK v2 server on both storages');
  for (const row of http) {
    assert.match(row[2]!, /^\d+(\.\d+)? ms \(1 page\)$/);
    assert.match(row[4]!, /^[\d,]+\/s$/);
    assert.match(row[6]!, /^[\d,]+\/s$/);
    if (row[1] !== 'sdk-v2') for (const i of [3, 5, 7]) assert.match(row[i]!, RATIO);
  }

  const ratios = rowsAfter(stdout, '## Ratios');
  assert.deepEqual(
    ratios.map((r) => r[0]!.split(':')[0]),
    ['cold build', 'reload', 'CPU per read'],
  );
  assert.match(ratios[0]![1]!, /^\d+(\.\d+)?× \(\d+(\.\d+)?×\)$/);
  for (const row of ratios.slice(1)) assert.match(row[1]!, RATIO);

  // One chart per build storage, the HTTP sweep and peak RSS: well-formed SVG with a series per side.
  assert.deepEqual((await readdir(charts)).sort(), ['build-folder.svg', 'build-postgresql.svg', 'build-s3.svg', 'http-in-flight.svg', 'peak-rss.svg']);
  for (const name of await readdir(charts)) {
    const svg = await readFile(path.join(charts, name), 'utf8');
    const elements = svgElements(svg);
    assert.equal(elements[0], 'svg', name);
    assert.ok(elements.filter((e) => e === 'circle').length >= 2, `${name} marks its points`);
    assert.match(svg, /SDK v2|sdk-v2/, name);
    // The Charts section shows each one, linked from the --out file's folder.
    assert.ok(stdout.includes(`](charts/${name})`), `the Charts section links ${name}`);
  }

  const modern = rowsAfter(stdout, '## Over HTTP, protocol 2026-07-28');
  assert.deepEqual(
    modern.map((r) => r[0]),
    ['SDK v2 `createMcpHandler`, 2026-07-28', 'ours (Fastify), 2026-07-28', 'ours (Fastify), 2025-11-25 stateless'],
  );
  for (const row of modern) assert.match(row[1]!, /^[\d,]+\/s$/);
  for (const row of modern.slice(1)) assert.match(row[2]!, RATIO);

  const setup = rowsAfter(stdout, '## Per-request server setup');
  assert.ok(setup.length >= 1 && setup.every((r) => r.slice(1).every((c) => /^\d+ µs$/.test(c))));

  const replicas = rowsAfter(stdout, '## Replicas');
  assert.deepEqual(
    replicas.map((r) => `${r[0]} ${r[2]}`),
    ['PostgreSQL', 'S3'].flatMap((s) => [`${s} one replica, no proxy`, `${s} 1 behind the proxy`, `${s} 2 behind the proxy`, `${s} 3 behind the proxy`]),
  );
  for (const row of replicas) assert.match(row[3]!, /^[\d,]+\/s$/);
  const publishes = rowsAfter(stdout, 'Then one file');
  assert.deepEqual(
    publishes.map((r) => r[0]),
    ['PostgreSQL', 'S3'],
  );
  for (const row of publishes) {
    for (const i of [2, 3]) assert.match(row[i]!, TIME);
    // On a loaded machine every replica can serve the change while the publish process is still ending.
    if (row[4] === 'before it exits') assert.ok(Number.parseFloat(row[3]!) <= Number.parseFloat(row[2]!), `served before the exit: ${row.join(' | ')}`);
    else assert.match(row[4]!, TIME);
    assert.equal(row[5]!.split(', ').length, 3, 'a time for each of the three replicas');
  }

  const tenants = rowsAfter(stdout, '## Many tenants');
  assert.deepEqual(
    tenants.map((r) => r[0]),
    ['10'],
  );
  for (const row of tenants) for (const cell of row.slice(4)) assert.match(cell, /^\d+(\.\d+)? (ms|µs)$/);

  // One catalog with visible() against a tenant per user: every figure on both sides, and A/B beside it.
  const visible = rowsAfter(stdout, '## One catalog with visible() or a tenant per user');
  const figure = (row: string[] | undefined, pattern: RegExp, withRatio = true) => {
    assert.ok(row, 'a row of the visibility section is missing');
    assert.match(row[1]!, pattern, row.join(' | '));
    assert.match(row[2]!, pattern, row.join(' | '));
    if (withRatio) assert.match(row[3]!, RATIO, row.join(' | '));
  };
  const byName = new Map(visible.map((r) => [r[0]!, r]));
  assert.match(byName.get('catalog load before the first request')?.[1] ?? '', TIME);
  for (const name of ["a user's first `skills/list`: median", "a user's first `skills/list`: p95", '`skills/list`, 1 in flight: median'])
    figure(byName.get(name), /^\d+(\.\d+)? (ms|µs)$/);
  // Memory can come out below the baseline at this size: a figure, without its ratio.
  for (const name of ['RSS growth, every user answered', 'heap growth, every user answered']) figure(byName.get(name), /^-?\d+\.\d MiB$/, false);
  for (const name of ['`skills/list`, 8 in flight', "`resources/read` of a user's SKILL.md, 8 in flight"]) figure(byName.get(name), /^[\d,]+\/s$/);
  for (const name of ['server CPU per `skills/list`, 8 in flight', 'server CPU per `resources/read`, 8 in flight']) figure(byName.get(name), /^[\d,]+ µs$/);
  // Smoke size: 20 users with 3 skills each and 2 shared, every one of them asked on each list.
  assert.equal(byName.get('`visible()` calls per `skills/list`')?.[1], '62');
  assert.match(stdout, /Total run time: \d+ s/);

  const targets = rowsAfter(stdout, '## Targets');
  assert.ok(targets.length > 0);
  for (const row of targets) assert.match(row[2]!, /^(yes|\*\*no\*\*|n\/a)$/);
});

test('bench/run.ts --only runs the named cases alone, starting no storage server they do not use', { timeout: 120_000 }, async () => {
  // The per-request setup case: the cheapest one, in this process and on the folder alone.
  const { code, stdout, stderr } = await runBench(['--smoke', '--only', 'attach']);
  assert.equal(code, 0, `the run failed (exit ${code}):\n${stderr}\n${stdout}`);
  const headings = stdout.split('\n').filter((l) => l.startsWith('## '));
  assert.deepEqual(headings, ['## Corpora', '## Per-request server setup', '## Seeding (not measured against anything)']);
  assert.match(stdout, /Command: `node --import tsx bench\/run.ts --smoke --only attach`/);
  assert.doesNotMatch(stderr, /starting (PostgreSQL|the S3-protocol server)/);
});

test('bench/run.ts refuses an unknown case or option at once, naming the valid ones, and --help prints the usage', async () => {
  const unknown = await runBench(['--smoke', '--only', 'build,bild']);
  assert.equal(unknown.code, 2);
  assert.equal(unknown.stdout, '');
  assert.match(
    unknown.stderr,
    /--only: unknown case "bild"; the cases are: build, cold-start, reload, memory, http, modern, attach, replicas, tenants, visible/,
  );
  const option = await runBench(['--charst', 'x']);
  assert.equal(option.code, 2);
  assert.match(option.stderr, /unknown option "--charst"/);
  const help = await runBench(['--', '--help']);
  assert.equal(help.code, 0);
  for (const flag of ['--quick', '--smoke', '--only CASE', '--out FILE', '--charts DIR']) assert.ok(help.stdout.includes(flag), `--help names ${flag}`);
});
