/**
 * The ratios block: three figures of one run, each a ratio of two things measured in it, so runs
 * on different machines or loads can be set side by side to spot a regression.
 */
import type { BuildResult } from './cases/build.js';
import type { ColdStartResult } from './cases/cold-start.js';
import type { HttpResult, HttpSide } from './cases/http.js';
import type { ReloadResult } from './cases/reload.js';
import { ratio, table } from './format.js';

export interface RatioInputs {
  colds: readonly ColdStartResult[];
  builds: readonly BuildResult[];
  reloads: readonly ReloadResult[];
  https: readonly HttpResult[];
}

/** Express and Fastify sides of one HTTP result in the same mode (stateless first), if both ran. */
function frameworks(h: HttpResult): [HttpSide, HttpSide] | undefined {
  for (const mode of ['stateless', 'session']) {
    const express = h.sides.find((s) => s.kind === `express-${mode}`);
    const fastify = h.sides.find((s) => s.kind === `fastify-${mode}`);
    if (express && fastify) return [express, fastify];
  }
  const express = h.sides.find((s) => s.kind.startsWith('express-'));
  const fastify = h.sides.find((s) => s.kind.startsWith('fastify-'));
  return express && fastify ? [express, fastify] : undefined;
}

/** The printed block; empty when none of the cases it reads ran. */
export function ratiosSection({ colds, builds, reloads, https }: RatioInputs): string[] {
  const rows: string[][] = [];
  const cold = colds.find((c) => c.store === 'folder');
  if (cold)
    rows.push([
      'cold build: SDK v2 load ÷ ours (load alone; from process start in brackets)',
      `${ratio(cold.theirs.load / cold.ours.load)} (${ratio(cold.theirs.fromStart / cold.ours.fromStart)})`,
      `cold start, folder ${cold.size}, median of ${cold.runs} fresh process${cold.runs === 1 ? '' : 'es'} per side`,
    ]);
  const reload = reloads.find((r) => r.store === 'folder' && !r.watched);
  const build = reload && builds.find((b) => b.store === 'folder' && b.size === reload.size);
  if (reload && build)
    rows.push([
      'reload: our build ÷ our reload, nothing changed, no watch',
      ratio(build.ours / reload.unchanged.ours.ms),
      `build and reload, folder ${reload.size}`,
    ]);
  const folder = https.find((h) => h.storage === 'folder');
  const pair = folder && frameworks(folder);
  if (pair)
    rows.push([
      'CPU per read: Express ÷ Fastify (server CPU per verified read, 8 in flight)',
      ratio(pair[0].cpu8 / pair[1].cpu8),
      `HTTP, folder ${folder.size}, ${pair[0].kind} ÷ ${pair[1].kind}`,
    ]);
  if (rows.length === 0) return [];
  return [
    '## Ratios',
    '',
    'Three ratios of figures measured in this run, for comparing runs made on different machines or under different loads (`--quick` is enough). test/bench/guard.test.ts checks a steadier relative of the first in the test suite.',
    '',
    table(['ratio', 'measured', 'from'], rows),
    '',
  ];
}
