/**
 * examples/fastify-existing-route, started as its README says: its own route answers the app's
 * `add` tool and the skills of examples/skills to an SDK v1 client, to a 2026-07-28 client through
 * `handleModern`, and GET and DELETE with 405.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { SkillsClient as ModernSkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { EXAMPLES } from '../support/skills-suite.js';
import { connectSkills, listedUris, skillNamed, lastFirst, startExample } from './helpers.js';

const SKILL_URIS = ['skill://acme/billing/refunds/SKILL.md', 'skill://git-workflow/SKILL.md', 'skill://pdf-processing/SKILL.md'];

test('fastify-existing-route: the app tool and the skills on one route, GET and DELETE 405, 2026-07-28 too', async (t) => {
  const cleanups = lastFirst(t);
  const example = await startExample(cleanups, 'fastify-existing-route');

  const { client, skills } = await connectSkills(cleanups, example.url);
  assert.deepEqual((await client.callTool({ name: 'add', arguments: { a: 20, b: 22 } })).content, [{ type: 'text', text: '42' }]);
  assert.deepEqual(await listedUris(skills), SKILL_URIS);
  const guide = await skills.read(await skillNamed(skills, 'git-workflow'), 'references/commit-messages.md');
  assert.equal(guide.verified, true, 'the file matched the digest the listing published');
  assert.deepEqual(Buffer.from(guide.bytes), await readFile(path.join(EXAMPLES, 'git-workflow/references/commit-messages.md')));
  await client.close();

  for (const method of ['GET', 'DELETE']) {
    const res = await fetch(example.url, { method, headers: { accept: 'application/json, text/event-stream' } });
    assert.equal(res.status, 405, method);
    assert.equal(res.headers.get('allow'), 'POST', method);
    assert.equal(((await res.json()) as { error: { code: number } }).error.code, -32000, method);
  }

  const modern = new ModernClient({ name: 'examples-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } as never } });
  await modern.connect(new ModernTransport(new URL(example.url)));
  cleanups.after(() => modern.close());
  assert.equal(modern.getNegotiatedProtocolVersion(), '2026-07-28');
  const listing = await new ModernSkillsClient(modern).list();
  assert.deepEqual(listing.skills.map((entry) => entry.uri).sort(), SKILL_URIS);
  assert.deepEqual((await modern.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).content, [{ type: 'text', text: '3' }]);
  await modern.close();

  await example.stop();
});
