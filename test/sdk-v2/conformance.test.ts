/**
 * The official MCP conformance suite judges SDK v2 apps that serve a skillmount catalog of
 * examples/skills (from the folder, S3 and PostgreSQL) under the SDK v2's own `SkillsExtension` through `sdkV2Skills`:
 * on `@modelcontextprotocol/express` and `@modelcontextprotocol/fastify`, each storage once, at 2026-07-28 and 2025-11-25.
 * They must score what the official SDK v2 server and skillmount's own server score.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SkillCatalog } from '@skillmount/core';
import {
  assertTotals,
  describeProblems,
  ensureSuite,
  EXPECTED_RUNS,
  scenariosInOneProcess,
  type Check,
  type ScenarioRun,
} from '../peers/support/conformance.js';
import { EXAMPLE_STORAGES } from './storages.js';
import { SDK_V2_APPS, serveSdkV2, type SdkV2App } from './support.js';

const SCENARIOS = ['sep-2640-skills-enumeration', 'sep-2640-skills-manifest', 'sep-2640-skills-directory'];

let node: string;
before(
  async () => {
    node = await ensureSuite();
  },
  { timeout: 660_000 },
);

for (const { framework, storage } of SDK_V2_APPS) {
  describe(`conformance suite against an SDK v2 app on @modelcontextprotocol/${framework} serving a skillmount catalog (${storage})`, () => {
    let app: SdkV2App;
    before(async () => {
      const catalog = await SkillCatalog.load(await EXAMPLE_STORAGES[storage](), { onWarning: () => undefined });
      app = await serveSdkV2(framework, catalog);
    });
    after(() => app?.close());
    const resultOf = scenariosInOneProcess(
      () => node,
      () => app.url,
      SCENARIOS,
      `sdk-v2-conformance-${framework}-${storage.replace(/\W/g, '')}`,
    );

    for (const [era, expected] of EXPECTED_RUNS.entries()) {
      describe(expected.label, () => {
        const runs: ScenarioRun[] = [];

        for (const scenario of SCENARIOS) {
          test(scenario, () => {
            const result = resultOf(era, scenario);
            if (result instanceof Error) throw result;
            runs.push(result);
            const unexpected = (c: Check) => c.status !== 'SUCCESS' && !(c.status === 'SKIPPED' && expected.skips.includes(c.id));
            assert.equal(
              result.checks.filter(unexpected).length,
              0,
              `${scenario} has checks that did not pass:\n${describeProblems(result.checks, unexpected)}`,
            );
          });
        }

        test('totals match the official SDK v2 server', () => {
          assertTotals(runs, SCENARIOS, expected, `sdk-v2 ${framework} ${storage}`);
          assert.deepEqual(app.warnings, [], 'the SDK v2 refused nothing the catalog sent');
        });
      });
    }
  });
}
