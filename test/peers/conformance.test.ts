/**
 * The official MCP conformance suite judges `skillmount serve examples/skills`: its three SEP-2640
 * server scenarios behind each framework adapter, at the suite's default protocol version
 * (2026-07-28, the modern path) and at 2025-11-25 (the legacy path), with the surfaces for hosts
 * without the extension off, and with every one of them on (behind Fastify).
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { assertTotals, describeProblems, ensureSuite, EXPECTED_RUNS, scenariosInOneProcess, type Check, type ScenarioRun } from './support/conformance.js';
import { assertEverySurfaceOn } from './support/every-surface.js';
import { EVERY_SURFACE, useServer } from './support/serve.js';

const SCENARIOS = ['sep-2640-skills-enumeration', 'sep-2640-skills-manifest', 'sep-2640-skills-directory'];

let node: string;
before(
  async () => {
    node = await ensureSuite();
  },
  { timeout: 660_000 },
);

// Every surface on behind one framework: the surfaces come from core, the same behind either
// adapter (the adapter parity battery in test/adapters/ proves it).
const SERVERS = [
  { framework: 'fastify', args: [] },
  { framework: 'express', args: [] },
  { framework: 'fastify', args: EVERY_SURFACE },
] as const;

for (const { framework, args } of SERVERS) {
  describe(`conformance suite against skillmount serve --framework ${framework}${args.length ? ` ${args.join(' ')}` : ''}`, () => {
    const server = useServer({ framework, args: [...args] });
    const resultOf = scenariosInOneProcess(
      () => node,
      () => server.url,
      SCENARIOS,
      `conformance-${framework}`,
    );
    if (args.length > 0) test('every surface is on', () => assertEverySurfaceOn(server.url, server.server.skills));

    for (const [era, expected] of EXPECTED_RUNS.entries()) {
      describe(expected.label, () => {
        const runs: ScenarioRun[] = [];

        for (const scenario of SCENARIOS) {
          test(scenario, () => {
            const result = resultOf(era, scenario);
            if (result instanceof Error) throw result;
            runs.push(result);
            const { counts, checks } = result;
            console.log(
              `conformance ${framework} ${expected.label} ${scenario}: ${checks.length} checks, SUCCESS ${counts.SUCCESS}, FAILURE ${counts.FAILURE}, ` +
                `WARNING ${counts.WARNING}, SKIPPED ${counts.SKIPPED} (${(result.ms / 1000).toFixed(1)} s)`,
            );
            const unexpected = (c: Check) => c.status !== 'SUCCESS' && !(c.status === 'SKIPPED' && expected.skips.includes(c.id));
            assert.equal(
              checks.filter(unexpected).length,
              0,
              `${scenario} on ${framework} has checks that did not pass:\n${describeProblems(checks, unexpected)}`,
            );
          });
        }

        test('totals match the official SDK v2 server', () => {
          assertTotals(runs, SCENARIOS, expected, framework);
        });
      });
    }
  });
}
