/**
 * A skill hidden by `visible()` is indistinguishable from one that does not exist. Two servers per
 * adapter: one serves the hostile tree with a rule that hides `beta` from the user `ann`, the other
 * serves the same tree without `beta` at all. Every request of the hostile corpus, on both protocol
 * eras, and every valid request about `beta` (list pages and their cursors, get, read, directory
 * read, resources/list) must get the very same answer from both: the same status, content type
 * and JSON-RPC messages. Real sockets, both adapters.
 *
 * And `search_skills`: for random visibility rules, every page of every search (its skills, in
 * order, and whether more follow) is the page a catalog without the hidden skills gives, on both eras.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { IncomingMessage } from 'node:http';
import { memoryStorage, SkillCatalog, type SkillContext, type SkillEntry } from '@skillmount/core';
import { mulberry32 } from '../differential/mulberry32.js';
import { fsStorage } from '@skillmount/storage-fs';
import { hostileCases, modernHostileCases, type HostileCase } from './cases.js';
import { makeHostileTree } from './fixture.js';
import { jsonRpcMessages, send, type RawRequest, type RawResponse } from './raw-http.js';
import { FRAMEWORKS, serve, type ServeOptions } from './servers.js';

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'visibility-test', version: '0.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** The user a request names in `x-user` (both adapters' requests are Node's IncomingMessage underneath). */
const userOf = (request: unknown) => {
  const raw = ((request as { raw?: IncomingMessage }).raw ?? (request as IncomingMessage)).headers['x-user'];
  return typeof raw === 'string' ? raw : 'nobody';
};

/** What a comparison looks at: the status, the content type, and the messages (or the text when there are none). */
function comparable(r: RawResponse): unknown {
  if (r.kind !== 'response') return r.kind;
  const messages = jsonRpcMessages(r);
  return { status: r.status, type: r.contentType.split(';')[0], ...(messages ? { messages } : { text: r.text }) };
}

const rpc = (method: string, params: Record<string, unknown>, modern: boolean) =>
  JSON.stringify({ jsonrpc: '2.0', id: 7, method, params: modern ? { ...params, _meta: MODERN_META } : params });

function request(method: string, params: Record<string, unknown>, modern: boolean): RawRequest {
  const headers: Record<string, string> = modern ? { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method } : {};
  if (modern && method === 'resources/read' && typeof params.uri === 'string') headers['mcp-name'] = params.uri;
  return { headers, body: rpc(method, params, modern) };
}

/** Valid requests about the hidden skill, a present one and a missing one, on one era. */
function aboutBeta(modern: boolean): RawRequest[] {
  const uris = ['skill://beta/SKILL.md', 'skill://beta/data/secret-beta.txt', 'skill://BETA/SKILL.md', 'skill://beta/SKILL.md'.replace('b', '%62')];
  const requests: RawRequest[] = [];
  for (const uri of [...uris, 'skill://gone/SKILL.md', 'skill://alpha/SKILL.md', 'skill://alpha/refs/guide.md']) {
    requests.push(request('skills/get', { uri }, modern), request('resources/read', { uri }, modern));
  }
  for (const uri of ['skill://beta', 'skill://beta/data', 'skill://gone', 'skill://alpha/refs'])
    requests.push(request('resources/directory/read', { uri }, modern));
  requests.push(request('skills/list', {}, modern));
  if (!modern) requests.push(request('resources/list', {}, modern), request('resources/templates/list', {}, modern));
  return requests;
}

/** Every `skills/list` page, following `nextCursor`, as the user sees them. */
async function allPages(url: string, user: string, modern: boolean): Promise<unknown[]> {
  const pages: unknown[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 20; i++) {
    const r = await send(url, withUser(request('skills/list', cursor === undefined ? {} : { cursor }, modern), user));
    pages.push(comparable(r));
    const message = r.kind === 'response' ? (jsonRpcMessages(r)?.[0] as { result?: { nextCursor?: string } } | undefined) : undefined;
    cursor = message?.result?.nextCursor;
    if (cursor === undefined) return pages;
  }
  throw new Error('skills/list never ended');
}

const withUser = (r: RawRequest, user: string): RawRequest => ({ ...r, headers: { ...r.headers, 'x-user': user } });

/** The hostile corpus without the cases that wait for a body that never comes (they compare nothing but a timeout). */
const quick = (cases: HostileCase[]) => cases.filter((c) => c.request.declaredLength === undefined && !c.request.chunked);

for (const framework of FRAMEWORKS) {
  test(`${framework}: a skill hidden by visible() gets exactly the answers of a skill that does not exist, on both eras`, { timeout: 120_000 }, async () => {
    const tree = makeHostileTree();
    const without = mkdtempSync(path.join(tmpdir(), 'skillmount-visibility-'));
    cpSync(tree.root, without, { recursive: true });
    rmSync(path.join(without, 'beta'), { recursive: true });
    const asked: string[] = [];
    const visible = (entry: SkillEntry, ctx: SkillContext) => {
      asked.push(`${String(ctx.user)} ${entry.uri}`);
      return ctx.user === 'admin' || entry.frontmatter.name !== 'beta';
    };
    const common: ServeOptions = { pageSize: 1, context: (req: unknown) => ({ user: userOf(req) }), onWarning: () => undefined };
    const gated = await serve(framework, { ...common, storage: fsStorage(tree.root), visible });
    const plain = await serve(framework, { ...common, storage: fsStorage(without) });
    try {
      // The rule is asked, and an admin does see beta: the servers differ only by what the rule hides.
      const admin = await send(gated.url, withUser(request('skills/get', { uri: 'skill://beta/SKILL.md' }, false), 'admin'));
      assert.ok(admin.kind === 'response' && admin.text.includes('"name":"beta"'), 'the admin sees beta');
      assert.ok(asked.includes('admin skill://beta/SKILL.md'));

      let compared = 0;
      const differences: string[] = [];
      const compare = async (name: string, r: RawRequest) => {
        const [a, b] = await Promise.all([send(gated.url, withUser(r, 'ann')), send(plain.url, withUser(r, 'ann'))]);
        compared++;
        const [ca, cb] = [comparable(a), comparable(b)];
        try {
          assert.deepEqual(ca, cb);
        } catch {
          differences.push(`${name}\n  hidden:  ${JSON.stringify(ca).slice(0, 300)}\n  missing: ${JSON.stringify(cb).slice(0, 300)}`);
        }
      };
      for (const modern of [false, true]) {
        for (const [i, r] of aboutBeta(modern).entries()) await compare(`${modern ? '2026' : '2025'} valid #${i} ${String(r.body).slice(0, 120)}`, r);
        assert.deepEqual(await allPages(gated.url, 'ann', modern), await allPages(plain.url, 'ann', modern), 'the same pages and cursors');
        const corpus = quick(modern ? modernHostileCases(tree.root) : hostileCases(tree.root));
        for (let i = 0; i < corpus.length; i += 16) {
          await Promise.all(corpus.slice(i, i + 16).map((c) => compare(`${modern ? '2026' : '2025'} ${c.group} / ${c.name}`, c.request)));
        }
      }
      assert.deepEqual(differences, [], `${differences.length} of ${compared} answers differ`);
      assert.ok(compared > 400, `${compared} requests compared`);
    } finally {
      await gated.close();
      await plain.close();
      tree.remove();
      rmSync(without, { recursive: true, force: true });
    }
  });
}

/** Skills whose descriptions share words, so a query matches several and the hidden ones sit among the shown. */
const WORDS = ['invoice', 'refund', 'payment', 'report', 'deploy', 'review', 'commit', 'release'];
function searchTree(): Record<string, string> {
  const files: Record<string, string> = {};
  const random = mulberry32(2640);
  for (let i = 0; i < 14; i++) {
    const name = `skill-${String(i).padStart(2, '0')}`;
    const words = Array.from({ length: 3 }, () => random.pick(WORDS)).join(' ');
    const folder = i % 3 === 0 ? `team/${name}` : name;
    files[`${folder}/SKILL.md`] = `---\nname: ${name}\ndescription: Handles ${words} work.\n---\nBody.\n`;
  }
  return files;
}

/**
 * Every page of one search, followed by its cursors: each page's skill URIs, and whether a cursor
 * came (its text names the index it came from, one per catalog, so two catalogs' differ).
 */
async function searchPages(page: (cursor: string | undefined) => Promise<{ skills: { uri: string }[]; nextCursor?: string }>) {
  const pages: { uris: string[]; more: boolean }[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 30; i++) {
    const answer = await page(cursor);
    pages.push({ uris: answer.skills.map((s) => s.uri), more: answer.nextCursor !== undefined });
    cursor = answer.nextCursor;
    if (cursor === undefined) return pages;
  }
  throw new Error('the search never ended');
}

for (const framework of FRAMEWORKS) {
  test(`${framework}: search_skills under random visibility rules pages as a catalog without the hidden skills, on both eras`, async () => {
    const files = searchTree();
    const names = Object.keys(files).map((file) => file.split('/').at(-2)!);
    // The rule hides the skills a request names in x-hide: each request its own random rule; with x-async, a promise.
    const visible = (entry: SkillEntry, ctx: SkillContext) => {
      const shown = !String(ctx.hide).split(',').includes(entry.frontmatter.name);
      return ctx.async ? Promise.resolve(shown) : shown;
    };
    const headerOf = (req: unknown, name: string) => ((req as { raw?: IncomingMessage }).raw ?? (req as IncomingMessage)).headers[name];
    const served = await serve(framework, {
      storage: memoryStorage(files),
      search: true,
      context: (req: unknown) => ({ hide: headerOf(req, 'x-hide') ?? '', async: headerOf(req, 'x-async') === '1' }),
      visible,
      onWarning: () => undefined,
    });
    const random = mulberry32(2026);
    let searched = 0;
    try {
      for (let round = 0; round < 8; round++) {
        const hidden = names.filter(() => random.chance(0.4));
        const without = Object.fromEntries(Object.entries(files).filter(([file]) => !hidden.includes(file.split('/').at(-2)!)));
        const reference = await SkillCatalog.load(memoryStorage(without), { search: true });
        for (const query of [random.pick(WORDS), `${random.pick(WORDS)} ${random.pick(WORDS)}`]) {
          const limit = 1 + random.int(4);
          const expected = await searchPages(async (cursor) => (reference as any).search(query, { limit, ...(cursor ? { cursor } : {}) }));
          for (const modern of [false, true]) {
            const got = await searchPages(async (cursor) => {
              const r = await send(served.url, {
                ...request('tools/call', { name: 'search_skills', arguments: { query, limit, ...(cursor ? { cursor } : {}) } }, modern),
                headers: {
                  ...request('tools/call', {}, modern).headers,
                  ...(modern ? { 'mcp-name': 'search_skills' } : {}),
                  'x-hide': hidden.join(','),
                  'x-async': String(round % 2),
                },
              });
              const message = r.kind === 'response' ? (jsonRpcMessages(r)?.[0] as { result?: { structuredContent?: any; isError?: boolean } }) : undefined;
              assert.ok(message?.result?.structuredContent, `a search result: ${JSON.stringify(message ?? r).slice(0, 300)}`);
              return message.result.structuredContent;
            });
            assert.deepEqual(got, expected, `${modern ? '2026-07-28' : '2025-11-25'}: "${query}" (limit ${limit}) hiding ${hidden.join(', ')}`);
            searched++;
          }
        }
      }
      assert.equal(searched, 32);
    } finally {
      await served.close();
    }
  });
}
