/**
 * The usage-analytics example (docs/guide/analytics.md), run as written (`node analytics.mjs`): a
 * host that walks the list page by page, reads three SKILL.md files and is refused a fourth
 * shows exactly three loads, each under its client's name; the console stays quiet.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { connectClient, errorCode } from '../support/client.js';
import { exampleLocation, startDocExample } from '../support/doc-example.js';

test(`${exampleLocation('fastify', 'analytics.mjs')}: 3 loads for 3 SKILL.md reads, none for a paging walk or a refused read`, async () => {
  const app = await startDocExample('fastify', 'analytics.mjs');
  try {
    const { client, call, close } = await connectClient(app.url);
    const uris: string[] = [];
    try {
      let cursor: string | undefined;
      do {
        const page = await call('skills/list', cursor === undefined ? {} : { cursor });
        uris.push(...page.skills.map((s: { uri: string }) => s.uri));
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      assert.equal(uris.length, 3, 'the examples folder has three skills');
      for (const uri of uris) await client.readResource({ uri });
      assert.equal(await errorCode(client.readResource({ uri: 'skill://no-such-skill/SKILL.md' })), -32602);
    } finally {
      await close();
    }
    const loads = await (await fetch(new URL('/loads', app.url))).json();
    const names = uris.map((uri) => uri.split('/').at(-2));
    assert.deepEqual(loads, Object.fromEntries(names.map((name) => [`${name} | skillmount-tests 0.0.0 | resources/read`, 1])));
    assert.equal(app.stderr(), '');
  } finally {
    await app.stop();
  }
});
