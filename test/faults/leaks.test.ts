import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { memoryStorage, SkillCatalog, type SkillSource, type SkillWarning } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import { EXAMPLES } from '../support/skills-suite.js';
import { send } from '../hostile/raw-http.js';
import { FRAMEWORKS, serve } from '../hostile/servers.js';

type Era = '2025-11-25' | '2026-07-28';
const ERAS: readonly Era[] = ['2025-11-25', '2026-07-28'];

/** One request of `era`: on 2026-07-28 with its `_meta` envelope and the headers a modern client sends. */
const rpc = (method: string, params: Record<string, unknown>, era: Era = '2025-11-25') => {
  if (era === '2025-11-25') return { body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) };
  const meta = { 'io.modelcontextprotocol/protocolVersion': era, 'io.modelcontextprotocol/clientCapabilities': {} };
  const headers: Record<string, string> = { 'mcp-protocol-version': era, 'mcp-method': method };
  if (method === 'resources/read') headers['mcp-name'] = String(params.uri);
  return { headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta } }) };
};

/** The single JSON-RPC error of an answer, with the raw text for leak checks. */
async function errorFor(url: string, request: { body: string; headers?: Record<string, string> }) {
  const answer = await send(url, request);
  assert.ok(answer.kind === 'response', JSON.stringify(answer));
  const data = answer.text.split('\n').find((line) => line.startsWith('data:'));
  const message = JSON.parse(data ? data.slice(5) : answer.text);
  return { error: message.error as { code: number; message: string } | undefined, text: answer.text };
}

const STACK = /\n\s*at .+:\d+:\d+/;

for (const framework of FRAMEWORKS)
  for (const era of ERAS) {
    test(`${framework}, ${era}: a folder storage that loses a file answers -32603 without its path, and serves it again once restored`, async () => {
      const root = mkdtempSync(path.join(tmpdir(), 'skillmount-leaks-'));
      cpSync(EXAMPLES, root, { recursive: true });
      const warnings: SkillWarning[] = [];
      const served = await serve(framework, { storage: fsStorage(root), onWarning: (w) => warnings.push(w) });
      try {
        const file = path.join(root, 'git-workflow/references/commit-messages.md');
        renameSync(file, `${file}.away`);
        const { error, text } = await errorFor(served.url, rpc('resources/read', { uri: 'skill://git-workflow/references/commit-messages.md' }, era));
        assert.equal(error?.code, -32603);
        assert.ok(!text.includes(root) && !text.includes(tmpdir()), text);
        assert.ok(!STACK.test(text));
        assert.ok(
          warnings.some((w) => w.code === 'read-failed' && w.message.includes(root)),
          'the operator sees where',
        );
        renameSync(`${file}.away`, file);
        const again = await errorFor(served.url, rpc('resources/read', { uri: 'skill://git-workflow/references/commit-messages.md' }, era));
        assert.equal(again.error, undefined, 'served again');
      } finally {
        await served.close();
        rmSync(root, { recursive: true, force: true });
      }
    });

    test(`${framework}, ${era}: a custom source or app handler that throws plain errors: clients get "Internal error", the log gets the cause`, async () => {
      const where = '/var/lib/app-private/skills';
      const catalog = await SkillCatalog.load(memoryStorage({ 'a/SKILL.md': '---\nname: a\ndescription: A.\n---\n' }), { onWarning: () => {} });
      const throwing: SkillSource = {
        list: async () => {
          throw Object.assign(new Error(`connect ECONNREFUSED 10.0.0.7:5432 (pool for ${where})`), { code: 'ECONNREFUSED' });
        },
        get: async () => {
          throw new TypeError(`Cannot read properties of undefined (reading 'frontmatter') in ${where}/a/SKILL.md`);
        },
        read: async () => {
          throw new Error(`ENOENT: no such file or directory, open '${where}/a/SKILL.md'`);
        },
        readDirectory: (uri, params) => catalog.readDirectory(uri, params),
      };
      const warnings: SkillWarning[] = [];
      const served = await serve(framework, {
        source: throwing,
        onWarning: (w) => warnings.push(w),
        server: () => {
          const server = new Server({ name: 'app', version: '1.0.0' }, { capabilities: {} });
          server.setRequestHandler(z.object({ method: z.literal('app/secret') }), async () => {
            throw new Error(`open '${where}/app.db' failed`);
          });
          server.setRequestHandler(z.object({ method: z.literal('app/refuse') }), async () => {
            throw new McpError(ErrorCode.InvalidParams, 'app/refuse needs a name');
          });
          server.fallbackRequestHandler = async () => {
            throw new Error(`no handler file under ${where}`);
          };
          return server;
        },
      });
      try {
        for (const [method, params] of [
          ['skills/list', {}],
          ['skills/get', { uri: 'skill://a/SKILL.md' }],
          ['resources/read', { uri: 'skill://a/SKILL.md' }],
          ['app/secret', {}],
          ['app/anything-else', {}],
        ] as const) {
          const { error, text } = await errorFor(served.url, rpc(method, params, era));
          assert.equal(error?.code, -32603, method);
          assert.match(error!.message, new RegExp(`^Internal error: the server could not complete ${method}\\. Try again later`));
          assert.ok(!text.includes(where) && !text.includes('ECONNREFUSED') && !text.includes('10.0.0.7') && !STACK.test(text), text);
          assert.ok(
            warnings.some((w) => w.code === 'internal-error' && w.message.startsWith(method) && w.message.includes(where)),
            `${method}: cause logged`,
          );
        }
        const refused = await errorFor(served.url, rpc('app/refuse', {}, era));
        assert.deepEqual(refused.error, { code: -32602, message: 'MCP error -32602: app/refuse needs a name' }, "the app's own coded error is kept");
        const miss = await errorFor(served.url, rpc('resources/directory/read', { uri: 'skill://nowhere' }, era));
        assert.equal(miss.error?.code, -32602, "skillmount's own errors are kept");
      } finally {
        await served.close();
      }
    });
  }
