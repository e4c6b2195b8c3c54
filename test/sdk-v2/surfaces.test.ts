/**
 * The surfaces that need no MCP SDK, served from an SDK v2 app's own Express, Fastify and Hono app:
 * `createWellKnownHandler` publishes /.well-known/agent-skills (the visible skills, digests of the
 * bytes served, the one 404 for a hidden skill, the Host check, ETag/304), and `skillsInstructions`
 * names each visible skill's SKILL.md in the instructions a client without the Skills extension
 * reads, on both protocol eras and from a raw `initialize`.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { test } from 'node:test';
import { unzipSync } from 'fflate';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createWellKnownHandler, OptionError, type SkillSource, type SkillWarning } from '@skillmount/core';
import { listenHttp } from '../support/apps.js';
import { skillsInstructions } from '@skillmount/core/sdk-v2';
import { readTree } from '../support/skills-installer.js';
import { get, index, PREFIX, sha256 } from '../well-known/fixture.js';
import { FOLDERS } from '../well-known/tree.js';
import { APP_TEXT, loadCatalog, serveApp } from './surfaces-app.js';

/** A GET with the Host header given (fetch sends the URL's own). */
function getWithHost(origin: string, pathname: string, host: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path: pathname, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const SKILL_URIS = ['skill://hello/SKILL.md', 'skill://acme/billing/invoice/SKILL.md', 'skill://acme/billing/invoice/nested/tax-rules/SKILL.md'];

for (const framework of ['express', 'fastify', 'hono'] as const) {
  test(`${framework}: /.well-known/agent-skills lists the visible skills; every artifact is the bytes its digest names`, async (t) => {
    const { root, catalog } = await loadCatalog(t);
    const app = await serveApp(framework, catalog);
    t.after(app.close);

    const listed = await index(app.origin);
    assert.deepEqual(listed.skills.map((s) => s.name).sort(), Object.keys(FOLDERS).sort(), 'the visible skills, not the hidden one');
    for (const entry of listed.skills) {
      const artifact = await get(new URL(entry.url, `${app.origin}${PREFIX}index.json`).href);
      assert.equal(artifact.status, 200, entry.url);
      assert.equal(sha256(artifact.bytes), entry.digest, `${entry.name}: the digest is of the bytes served`);
      assert.equal(artifact.headers.get('etag'), `"${entry.digest}"`);
      const files = readTree(path.join(root, FOLDERS[entry.name]!));
      if (entry.type === 'skill-md') assert.deepEqual(artifact.bytes, files.get('SKILL.md'));
      else {
        const unzipped = unzipSync(artifact.bytes);
        assert.deepEqual(
          new Map(Object.entries(unzipped).map(([name, bytes]) => [name, Buffer.from(bytes)])),
          files,
          `${entry.name}: every file of its folder, byte for byte`,
        );
      }
    }

    // The hidden skill's artifacts answer the one 404 a path that names nothing answers, byte for byte.
    const nothing = await get(`${app.origin}${PREFIX}no-such-skill.zip`);
    assert.equal(nothing.status, 404);
    for (const hidden of ['secret.zip', 'secret/SKILL.md']) {
      const answer = await get(`${app.origin}${PREFIX}${hidden}`);
      assert.equal(answer.status, 404, hidden);
      assert.deepEqual(answer.bytes, nothing.bytes, `${hidden}: the same 404`);
      assert.equal(answer.headers.get('content-type'), nothing.headers.get('content-type'));
    }

    const first = await get(`${app.origin}${PREFIX}index.json`);
    const cached = await get(`${app.origin}${PREFIX}index.json`, { headers: { 'if-none-match': first.headers.get('etag')! } });
    assert.equal(cached.status, 304);
    assert.equal(cached.bytes.length, 0);
  });

  test(`${framework}: the well-known handler's Host check refuses a Host outside allowedHosts with 403`, async (t) => {
    const { catalog } = await loadCatalog(t);
    const app = await serveApp(framework, catalog);
    t.after(app.close);
    const { port } = new URL(app.origin);
    const allowed = await getWithHost(app.origin, `${PREFIX}index.json`, `127.0.0.1:${port}`);
    assert.equal(allowed.status, 200);
    // localhost passes the framework's own localhost check: this 403 is the handler's (allowedHosts: ['127.0.0.1']).
    const ours = await getWithHost(app.origin, `${PREFIX}index.json`, `localhost:${port}`);
    assert.equal(ours.status, 403);
    assert.match(ours.body, /DNS-rebinding protection/, "skillmount's refusal");
    // Another site's name is refused too (by the framework's own check, which comes first).
    const other = await getWithHost(app.origin, `${PREFIX}index.json`, 'evil.example');
    assert.equal(other.status, 403);
    for (const body of [ours.body, other.body]) assert.doesNotMatch(body, /hello|invoice/, 'nothing of the catalog in a refusal');
  });

  test(`${framework}: a client without the Skills extension reads instructions naming every visible skill's SKILL.md`, async (t) => {
    const { catalog } = await loadCatalog(t);
    const app = await serveApp(framework, catalog);
    t.after(app.close);
    for (const options of [{}, { versionNegotiation: { mode: 'auto' as const } }]) {
      const client = new Client({ name: 'plain-host', version: '1.0.0' }, options);
      await client.connect(new StreamableHTTPClientTransport(new URL(app.url)));
      const text = client.getInstructions() ?? '';
      await client.close();
      assert.ok(text.startsWith(`${APP_TEXT}\n\n`), `the app's own instructions first: ${text}`);
      for (const uri of SKILL_URIS) assert.ok(text.includes(`<${uri}>`), `${uri} named: ${text}`);
      assert.doesNotMatch(text, /secret/, 'the hidden skill is not named');
    }

    // A raw 2025-11-25 initialize that declares no extension.
    const response = await fetch(app.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } },
      }),
    });
    const raw = await response.text();
    const data = raw.startsWith('{') ? raw : /^data: (.*)$/m.exec(raw)![1]!;
    const instructions = (JSON.parse(data) as { result: { instructions: string } }).result.instructions;
    for (const uri of SKILL_URIS) assert.ok(instructions.includes(`<${uri}>`), `${uri} in the raw initialize answer`);
  });
}

test('a source that fails answers 500 without its error, which goes to onWarning (request-failed)', async (t) => {
  const warnings: SkillWarning[] = [];
  const failing: SkillSource = {
    list: async () => {
      throw new Error('ECONNREFUSED db.internal:5432');
    },
    get: async () => undefined,
    read: async () => undefined,
  };
  const wellKnown = createWellKnownHandler({ source: failing, onWarning: (w) => warnings.push(w) });
  const http = await listenHttp(async (req, res) => {
    if (!(await wellKnown(req, res))) res.writeHead(418).end();
  }, '');
  t.after(http.close);
  const answer = await get(`${http.url}${PREFIX}index.json`);
  assert.equal(answer.status, 500);
  assert.equal(answer.bytes.toString('utf8'), 'Internal error\n');
  assert.deepEqual(
    warnings.map((w) => w.code),
    ['request-failed'],
  );
  assert.match(warnings[0]!.message, /db\.internal/);
  assert.equal((await get(`${http.url}/mcp`)).status, 418, "another path is the app's");
});

test('createWellKnownHandler and skillsInstructions check their options (OptionError)', async (t) => {
  const { catalog } = await loadCatalog(t);
  const refused = (fn: () => unknown, option: string) =>
    assert.throws(fn, (error: unknown) => error instanceof OptionError && error.option === option, `option ${option}`);
  refused(() => createWellKnownHandler({} as never), 'source');
  refused(() => createWellKnownHandler({ source: {} as never }), 'source');
  refused(() => createWellKnownHandler({ source: catalog, visible: 'yes' as never }), 'visible');
  refused(() => createWellKnownHandler({ source: catalog, allowedHosts: 'localhost' as never }), 'allowedHosts');
  refused(() => createWellKnownHandler({ source: catalog, onWarning: 1 as never }), 'onWarning');
  refused(() => skillsInstructions(undefined as never), 'source');
  refused(() => skillsInstructions(catalog, { maxBytes: 100 }), 'maxBytes');
  refused(() => skillsInstructions(catalog, { intro: 'two\nlines' }), 'intro');
  refused(() => skillsInstructions(catalog, { context: {} as never }), 'context');

  // A request outside the prefix is left to the app, untouched.
  const wellKnown = createWellKnownHandler({ source: catalog });
  const untouched = { url: '/mcp', method: 'GET', headers: {} } as never;
  assert.equal(await wellKnown(untouched, {} as never), false);

  // The section within its budget, with the intro given; the app's text alone when no skill is visible.
  const section = await skillsInstructions(catalog, { intro: 'Acme playbooks.', maxBytes: 512 })({});
  assert.ok(section!.startsWith('Acme playbooks.'));
  assert.ok(Buffer.byteLength(section!) <= 512);
  assert.equal(await skillsInstructions(catalog, { visible: () => false })({}, APP_TEXT), APP_TEXT);
  assert.equal(await skillsInstructions(catalog, { visible: () => false })({}), undefined);
  // The context option's fields reach visible; a context that returns no object is the app's mistake, and says so.
  const forPro = skillsInstructions(catalog, {
    context: () => ({ plan: 'pro' }),
    visible: (entry, ctx) => ctx.plan === 'pro' || entry.frontmatter.name !== 'hello',
  });
  assert.match((await forPro({}))!, /skill:\/\/hello\/SKILL\.md/);
  const forFree = skillsInstructions(catalog, {
    context: () => ({ plan: 'free' }),
    visible: (entry, ctx) => ctx.plan === 'pro' || entry.frontmatter.name !== 'hello',
  });
  assert.doesNotMatch((await forFree({}))!, /skill:\/\/hello\/SKILL\.md/);
  await assert.rejects(skillsInstructions(catalog, { context: () => 'acme' as never })({}), TypeError);
});
