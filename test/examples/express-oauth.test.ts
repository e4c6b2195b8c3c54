/**
 * examples/express-oauth, started as its README says: no token is a 401 with `WWW-Authenticate`,
 * a token without the scope a 403, and each user's token sees that user's skills only (the same
 * URI holding each user's own file), while the app's tool sees the same verified user.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { EXAMPLES_DIR, connectSkills, initializePost as post, listedUris, skillNamed, lastFirst, startExample } from './helpers.js';

const USERS = path.join(EXAMPLES_DIR, 'express-oauth/users');
test('express-oauth: 401 without a token, 403 without the scope, and each user sees their own skills only', async (t) => {
  const cleanups = lastFirst(t);
  const example = await startExample(cleanups, 'express-oauth');

  for (const authorization of [undefined, 'Bearer not-a-token']) {
    const res = await post(example.url, authorization);
    assert.equal(res.status, 401, `${authorization ?? 'no token'}: refused`);
    assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer error="invalid_token"/, `${authorization ?? 'no token'}: says how to authenticate`);
  }
  const scopeless = await post(example.url, 'Bearer carol-token');
  assert.equal(scopeless.status, 403);
  assert.match(scopeless.headers.get('www-authenticate') ?? '', /error="insufficient_scope".*scope="skills:read"/);

  const alice = await connectSkills(cleanups, example.url, { authorization: 'Bearer alice-token' });
  const bob = await connectSkills(cleanups, example.url, { authorization: 'Bearer bob-token' });
  assert.deepEqual(await listedUris(alice.skills), ['skill://expense-reports/SKILL.md']);
  assert.deepEqual(await listedUris(bob.skills), ['skill://expense-reports/SKILL.md', 'skill://on-call/SKILL.md']);
  assert.deepEqual((await alice.client.callTool({ name: 'whoami' })).content, [{ type: 'text', text: 'alice' }]);
  assert.deepEqual((await bob.client.callTool({ name: 'whoami' })).content, [{ type: 'text', text: 'bob' }]);

  // One URI, each user's own file, verified against the digest each listing published.
  for (const [user, session] of [
    ['alice', alice],
    ['bob', bob],
  ] as const) {
    const md = await session.skills.read(await skillNamed(session.skills, 'expense-reports'));
    assert.equal(md.verified, true);
    assert.deepEqual(Buffer.from(md.bytes), await readFile(path.join(USERS, user, 'expense-reports/SKILL.md')), `${user}'s own SKILL.md`);
  }
  const template = await alice.skills.read(await skillNamed(alice.skills, 'expense-reports'), 'templates/report.md');
  assert.deepEqual(Buffer.from(template.bytes), await readFile(path.join(USERS, 'alice/expense-reports/templates/report.md')));

  // Bob's skill does not exist for Alice: the answer of a URI served nowhere.
  const hidden = await alice.client.readResource({ uri: 'skill://on-call/SKILL.md' }).then(
    () => undefined,
    (error: { code?: number }) => error.code,
  );
  const nowhere = await alice.client.readResource({ uri: 'skill://no-such-skill/SKILL.md' }).then(
    () => undefined,
    (error: { code?: number }) => error.code,
  );
  assert.equal(hidden, -32602);
  assert.equal(nowhere, -32602);

  await alice.client.close();
  await bob.client.close();
  await example.stop();
});
