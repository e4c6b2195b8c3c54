/**
 * The read tool and the prompts bound what a client sends before any skill is looked at: an
 * oversized name or URI, a made-up cursor, arguments of the wrong shape are refused without one
 * visible() call or storage read, while a good request does the work.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createSkillsEndpoint, memoryStorage, SkillCatalog } from '@skillmount/core';
import { listenHttp } from '../support/apps.js';
import { connectClient } from '../support/client.js';
import { numberedSkills } from '../support/trees.js';

test('oversized or malformed tool and prompt input is refused before any skill is looked at', { timeout: 60_000 }, async () => {
  const catalog = await SkillCatalog.load(memoryStorage(numberedSkills(50)), { pageSize: 10 });
  let asked = 0;
  const endpoint = createSkillsEndpoint({
    source: catalog,
    tools: true,
    prompts: true,
    attach: {
      visible: () => {
        asked++;
        return true;
      },
    },
  });
  const http = await listenHttp((req, res) => endpoint.handle(req, res, undefined));
  const { client, call, close } = await connectClient(http.url);
  // The handshake listed the visible skills for the instructions (instructions: 'auto'); the refusals below must ask nothing.
  assert.ok(asked > 0, 'the instructions asked the rule');
  asked = 0;
  try {
    const long = 'x'.repeat(1025);
    const refusals = [
      client.callTool({ name: 'read_skill', arguments: { name: long } }),
      client.callTool({ name: 'read_skill', arguments: { uri: `skill://${'a/'.repeat(4100)}SKILL.md` } }),
      client.callTool({ name: 'read_skill', arguments: { name: ['skill-1'] } as never }),
      client.callTool({ name: 'read_skill', arguments: { name: 'skill-1', uri: 'skill://skill-1/SKILL.md' } }),
    ];
    for (const result of await Promise.all(refusals)) assert.equal(result.isError, true);
    for (const params of [{ name: long }, { name: 42 }, {}]) {
      const error = await call('prompts/get', params).catch((e) => e);
      assert.equal(error.code, -32602);
    }
    for (const cursor of ['made-up', `skillmount.${'A'.repeat(20_000)}`, `skillmount.${Buffer.from('[1]').toString('base64url')}`]) {
      const error = await call('prompts/list', { cursor }).catch((e) => e);
      assert.equal(error.code, -32602, cursor.slice(0, 30));
    }
    assert.equal(asked, 0, 'no skill was looked at');
    // A good request does the work: the rule is asked about the skills.
    assert.equal((await client.listPrompts()).prompts.length, 10);
    assert.ok(asked >= 50, `asked ${asked} times`);
  } finally {
    await close();
    await endpoint.close();
    await http.close();
  }
});
