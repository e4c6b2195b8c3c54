/**
 * The `context` option behind each adapter: its fields, the request headers and the app's auth
 * reach every SkillSource call; an error it throws, or a value that is not an object of fields,
 * goes to the framework's error handling, and the source is never called for that request.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import { SkillCatalog } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import { connectClient } from '../support/client.js';
import { EXAMPLES } from '../support/skills-suite.js';
import { recordingSource } from '../support/recording-source.js';
import { ADAPTERS, PACKAGE, startAdapter } from './support.js';

const LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'skills/list', params: {} });
const authFor = (token: string) => ({ token, clientId: `client-${token}`, scopes: ['skills:read'] });
const bearer = (headers: IncomingHttpHeaders) => {
  const token = headers.authorization?.replace(/^Bearer /, '');
  return token ? authFor(token) : undefined;
};

async function observedSource() {
  return recordingSource(await SkillCatalog.load(fsStorage(EXAMPLES), { onWarning: () => undefined }));
}

/** A raw skills/list, so the test sees the HTTP answer itself. */
async function list(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', ...headers },
    body: LIST,
  });
  const text = await res.text();
  return { status: res.status, body: res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : text };
}

/** The values a `context` function may wrongly return, as the refusal describes each. */
const NOT_FIELDS: [string, unknown, string][] = [
  ['an array', ['acme'], 'an array; to pass a list, put it in a field, e.g. ({ roles: [...] })'],
  ['null', null, 'null'],
  ['a string', 'acme', '"acme"'],
  ['a number', 7, '7'],
  ['nothing', undefined, 'undefined'],
];

for (const kind of ADAPTERS) {
  for (const shape of ['an object', 'a promise of an object'] as const) {
    test(`${kind}: context returning ${shape}: its fields, the headers and the auth reach every SkillSource call, request by request`, async (t) => {
      const { source, seen } = await observedSource();
      const fields = (tenant: string) => ({ tenant, user: `user-of-${tenant}` });
      const started = await startAdapter(
        kind,
        {
          source,
          context: (request) => {
            const tenant = String(request.headers['x-tenant']);
            return shape === 'an object' ? fields(tenant) : new Promise((resolve) => setTimeout(() => resolve(fields(tenant)), 5));
          },
        },
        { auth: bearer },
      );
      t.after(() => started.close());

      const acme = await connectClient(started.url, { authorization: 'Bearer t-acme', 'x-tenant': 'acme' });
      const globex = await connectClient(started.url, { authorization: 'Bearer t-globex', 'x-tenant': 'globex' });
      try {
        // Interleaved, so a context leaking from one request into another would show.
        await Promise.all([
          acme.call('skills/list'),
          globex.call('skills/get', { uri: 'skill://git-workflow/SKILL.md' }),
          acme.client.readResource({ uri: 'skill://git-workflow/SKILL.md' }),
          globex.call('skills/list'),
        ]);
      } finally {
        await acme.close();
        await globex.close();
      }
      // The four calls, and each client's initialize, whose instructions list the skills it may see (instructions: 'auto').
      assert.equal(seen.length, 6);
      for (const ctx of seen) {
        const tenant = ctx.tenant as string;
        assert.ok(tenant === 'acme' || tenant === 'globex', String(tenant));
        assert.equal(ctx.user, `user-of-${tenant}`, 'a field from context(request)');
        assert.equal(ctx.headers['x-tenant'], tenant, 'the request headers');
        assert.deepEqual(ctx.auth, authFor(`t-${tenant}`), "the app's auth");
        assert.equal(ctx.sessionId, undefined, 'stateless');
      }
      assert.equal(seen.filter((ctx) => ctx.tenant === 'acme').length, 3);
    });
  }

  test(`${kind}: an error the context function throws reaches the app's error handler; the source is never called`, async (t) => {
    const { source, seen } = await observedSource();
    const started = await startAdapter(
      kind,
      {
        source,
        context: (request) => {
          const tenant = request.headers['x-tenant'];
          if (typeof tenant !== 'string') throw Object.assign(new Error('x-tenant header required'), { statusCode: 401 });
          return { tenant };
        },
      },
      { errorHandler: true },
    );
    t.after(() => started.close());
    assert.deepEqual(await list(started.url), { status: 401, body: { error: { message: 'x-tenant header required' } } });
    assert.equal(started.errors.length, 1);
    assert.equal(started.errors[0]!.message, 'x-tenant header required', 'the very error the function threw');
    assert.equal(seen.length, 0, 'the source was never called for the refused request');
    // An SDK client is refused the same way, and one that sends the header is served.
    await assert.rejects(connectClient(started.url), /401|x-tenant header required/);
    const { call, close } = await connectClient(started.url, { 'x-tenant': 'globex' });
    try {
      assert.equal((await call('skills/list')).skills.length, 3);
    } finally {
      await close();
    }
    // The initialize's listing for the instructions, then skills/list: both in globex's context.
    assert.deepEqual(
      seen.map((ctx) => ctx.tenant),
      ['globex', 'globex'],
    );
  });

  test(`${kind}: with no error handler of the app's, the framework's default answers an error the context function throws`, async (t) => {
    const { source, seen } = await observedSource();
    const started = await startAdapter(kind, {
      source,
      context: () => {
        throw Object.assign(new Error('x-tenant header required'), { statusCode: 401 });
      },
    });
    t.after(() => started.close());
    const answer = await list(started.url);
    assert.equal(answer.status, 401);
    // The frameworks' own defaults, which an app replaces with its error handler: Fastify answers
    // JSON with the error's message; Express an HTML page (without the message in production).
    if (kind === 'fastify') assert.deepEqual(answer.body, { statusCode: 401, error: 'Unauthorized', message: 'x-tenant header required' });
    else assert.match(answer.body, /^<!DOCTYPE html>/);
    assert.equal(seen.length, 0);
  });

  for (const [what, value, described] of NOT_FIELDS) {
    for (const resolved of [false, true]) {
      test(`${kind}: context returning ${resolved ? 'a promise of ' : ''}${what} fails the request with a TypeError that names the option`, async (t) => {
        const { source, seen } = await observedSource();
        const started = await startAdapter(kind, { source, context: () => (resolved ? Promise.resolve(value) : value) }, { errorHandler: true });
        t.after(() => started.close());
        const answer = await list(started.url);
        assert.equal(answer.status, 500);
        const [error] = started.errors;
        assert.ok(error instanceof TypeError, String(error));
        assert.equal(started.errors[0]!.code, 'invalid-context');
        assert.equal(
          error.message,
          `${PACKAGE[kind]}: the "context" option must return an object of fields to add to the skill context (or a promise of one), ` +
            `e.g. (request) => ({ tenant: request.headers["x-tenant"] }); it returned ${described}`,
        );
        assert.deepEqual(answer.body, { error: { message: error.message, code: 'invalid-context' } });
        assert.equal(seen.length, 0, 'the source was never called');
      });
    }
  }

  test(`${kind}: a custom source: no catalog, no entries, and reload() refuses, naming the package`, async (t) => {
    const { source } = await observedSource();
    const started = await startAdapter(kind, { source });
    t.after(() => started.close());
    assert.equal(started.skills.catalog, undefined);
    assert.deepEqual(started.skills.entries, []);
    await assert.rejects(started.skills.reload(), (error: Error) => {
      assert.ok(error.message.startsWith(`${PACKAGE[kind]}: `), error.message);
      assert.match(error.message, /reload\(\) needs a catalog/);
      return true;
    });
  });
}
