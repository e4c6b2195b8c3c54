/**
 * The README's "Adding skills to an existing MCP route" examples, run as written (node own-route.mjs):
 * real clients list and read the skills through them, stateless and with sessions, on both protocol eras.
 */
import { after, before, describe, test } from 'node:test';
import { type ReadmeApp, startReadmeExample } from '../support/readme-example.js';
import { checkLegacyClient, checkModernClient, checkNoWarnings, checkStatelessMethods } from '../support/own-route-checks.js';

for (const [file, mode] of [
  ['own-route.mjs', 'stateless'],
  ['own-route-sessions.mjs', 'sessions'],
] as const) {
  describe(`packages/fastify/README.md ${file}`, () => {
    let app: ReadmeApp;
    before(async () => {
      app = await startReadmeExample('fastify', file);
    });
    after(() => app?.stop());

    test(`an SDK v1 client lists, gets and reads every skill (${mode}), with no transport error`, async () => {
      await checkLegacyClient(app.url, mode);
    });

    if (mode === 'stateless') {
      test('GET and DELETE answer 405 with a JSON-RPC error', async () => {
        await checkStatelessMethods(app.url);
      });
    }

    test('an SDK v2 client pinned to 2026-07-28 lists and reads every skill, and calls the app tool', async () => {
      await checkModernClient(app.url);
    });

    test('the app logged no skillmount warning', () => {
      checkNoWarnings(app.stderr());
    });
  });
}
