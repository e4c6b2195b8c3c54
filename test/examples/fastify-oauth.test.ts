/**
 * examples/fastify-oauth, started as its README says: an SDK client without a token gets 401, whose
 * `WWW-Authenticate` names the protected resource metadata that the SDK's own discovery reads; a
 * token without the scope gets 403; each user's token sees that user's skills only (the same URI
 * holding each user's own file), and the app's tool sees the same verified user.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { discoverOAuthProtectedResourceMetadata, extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EXAMPLES_DIR, connectSkills, initializePost as post, listedUris, skillNamed, lastFirst, startExample } from './helpers.js';

const USERS = path.join(EXAMPLES_DIR, 'fastify-oauth/users');
test('fastify-oauth: 401 with the resource metadata, 403 without the scope, and each user sees their own skills only', async (t) => {
  const cleanups = lastFirst(t);
  const example = await startExample(cleanups, 'fastify-oauth');
  const metadataUrl = new URL('/.well-known/oauth-protected-resource/mcp', example.url).href;

  // The SDK's client, without a token: refused before any MCP message is answered.
  const anonymous = new Client({ name: 'examples-test', version: '1.0.0' });
  cleanups.after(() => anonymous.close());
  const refused = await anonymous.connect(new StreamableHTTPClientTransport(new URL(example.url))).then(
    () => undefined,
    (error: { code?: unknown }) => error.code,
  );
  assert.equal(refused, 401, 'an SDK client without a token is refused with 401');

  for (const authorization of [undefined, 'Bearer not-a-token']) {
    const res = await post(example.url, authorization);
    const which = authorization ?? 'no token';
    assert.equal(res.status, 401, `${which}: refused`);
    assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer error="invalid_token"/, `${which}: says how to authenticate`);
    assert.deepEqual(extractWWWAuthenticateParams(res), { resourceMetadataUrl: new URL(metadataUrl), scope: 'skills:read', error: 'invalid_token' }, which);
  }
  const scopeless = await post(example.url, 'Bearer carol-token');
  assert.equal(scopeless.status, 403);
  assert.match(scopeless.headers.get('www-authenticate') ?? '', /error="insufficient_scope".*scope="skills:read"/);

  // The metadata the 401 names, read by the SDK's own discovery: from the header, and from the
  // well-known path it derives from the endpoint's URL alone.
  const expected = { resource: example.url, authorization_servers: ['https://auth.example.com'], scopes_supported: ['skills:read'] };
  for (const opts of [{ resourceMetadataUrl: metadataUrl }, {}]) {
    const metadata = await discoverOAuthProtectedResourceMetadata(example.url, opts);
    assert.deepEqual(
      { resource: metadata.resource, authorization_servers: metadata.authorization_servers, scopes_supported: metadata.scopes_supported },
      expected,
    );
  }

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

  // Bob's skill does not exist for Alice: the answer of a URI served nowhere.
  const codeOf = (uri: string) =>
    alice.client.readResource({ uri }).then(
      () => undefined,
      (error: { code?: number }) => error.code,
    );
  assert.equal(await codeOf('skill://on-call/SKILL.md'), -32602);
  assert.equal(await codeOf('skill://no-such-skill/SKILL.md'), -32602);

  await alice.client.close();
  await bob.client.close();
  await example.stop();
});
