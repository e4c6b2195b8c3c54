/**
 * `visible()` on top of per-tenant catalogs: within a tenant, a skill hidden from a user gets the
 * answers of a skill that does not exist, and another tenant's skills stay out of reach whether the
 * rule shows them or not. Compared, request by request, with tenants that do not have the hidden
 * skill at all: both adapters, both protocol eras, real sockets.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { memoryStorage, tenantCatalogs, type SkillContext, type SkillEntry } from '@skillmount/core';
import { jsonRpcMessages, send, type RawRequest, type RawResponse } from '../hostile/raw-http.js';
import { FRAMEWORKS, serve } from '../hostile/servers.js';
import { PROBES, TREES } from './helpers.js';

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'tenant-visibility-test', version: '0.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

function request(method: string, params: Record<string, unknown>, modern: boolean, tenant: string, user: string): RawRequest {
  const headers: Record<string, string> = { 'x-tenant': tenant, 'x-user': user };
  if (modern) Object.assign(headers, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method });
  if (modern && method === 'resources/read' && typeof params.uri === 'string') headers['mcp-name'] = params.uri;
  return { headers, body: JSON.stringify({ jsonrpc: '2.0', id: 3, method, params: modern ? { ...params, _meta: MODERN_META } : params }) };
}

function comparable(r: RawResponse): unknown {
  if (r.kind !== 'response') return r.kind;
  const messages = jsonRpcMessages(r);
  return { status: r.status, type: r.contentType.split(';')[0], ...(messages ? { messages } : { text: r.text }) };
}

const header = (req: unknown, name: string) => {
  const value = ((req as { raw?: IncomingMessage }).raw ?? (req as IncomingMessage)).headers[name];
  return typeof value === 'string' ? value : undefined;
};

/** Tenant b's `beta-secrets` is for its admins only. */
const adminsOnly = (entry: SkillEntry, ctx: SkillContext) => ctx.user === 'admin' || entry.frontmatter.name !== 'beta-secrets';

for (const framework of FRAMEWORKS) {
  test(`${framework}: visible() within a tenant answers as if the skill were not there; other tenants stay out of reach`, { timeout: 60_000 }, async () => {
    const withoutSecrets = Object.fromEntries(Object.entries(TREES.b).filter(([path]) => !path.startsWith('beta-secrets/')));
    const tenants = (trees: Record<string, Record<string, string>>) =>
      tenantCatalogs({ key: (ctx) => ctx.tenant as string | undefined, storage: (key) => memoryStorage(trees[key] ?? {}) });
    const gatedSource = tenants(TREES);
    const plainSource = tenants({ a: TREES.a, b: withoutSecrets });
    const context = (req: unknown) => ({ tenant: header(req, 'x-tenant'), user: header(req, 'x-user') });
    const gated = await serve(framework, { source: gatedSource, context, visible: adminsOnly, onWarning: () => undefined });
    const plain = await serve(framework, { source: plainSource, context, onWarning: () => undefined });
    try {
      let compared = 0;
      for (const modern of [false, true]) {
        // An admin of b sees beta-secrets; an admin of a does not, though the rule would show it.
        const asAdminOfB = await send(gated.url, request('skills/get', { uri: PROBES[0]!.uri }, modern, 'b', 'admin'));
        assert.ok(asAdminOfB.kind === 'response' && asAdminOfB.text.includes('beta-secrets'), 'an admin of b sees it');
        for (const [tenant, user] of [
          ['b', 'ann'],
          ['a', 'admin'],
          ['a', 'ann'],
        ] as const) {
          const requests = [
            request('skills/list', {}, modern, tenant, user),
            ...(modern ? [] : [request('resources/list', {}, modern, tenant, user)]),
            ...PROBES.flatMap((p) => [request(p.method, { uri: p.uri }, modern, tenant, user), request(p.method, { uri: p.nowhere }, modern, tenant, user)]),
          ];
          for (const r of requests) {
            const [a, b] = await Promise.all([send(gated.url, r), send(plain.url, r)]);
            assert.deepEqual(comparable(a), comparable(b), `${modern ? '2026' : '2025'} ${tenant}/${user}: ${String(r.body).slice(0, 160)}`);
            compared++;
          }
        }
      }
      assert.ok(compared >= 80, `${compared} answers compared`);
    } finally {
      await gated.close();
      await plain.close();
      await gatedSource.close();
      await plainSource.close();
    }
  });
}
