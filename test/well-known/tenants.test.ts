/**
 * Per tenant, from the same `context` as the MCP route: tenant A's index never lists B's skills,
 * B's artifact URLs answer A exactly as a skill that exists nowhere (no oracle), and a skill both
 * tenants name alike is each tenant's own, even with the archive cache shared by the endpoint.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { tenantCatalogs } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import { TREES, tenantFolders } from '../tenants/helpers.js';
import { get, index, KINDS, PREFIX, serveWellKnown } from './fixture.js';

const context = (request: { headers: Record<string, string | string[] | undefined> }) => ({ tenant: request.headers['x-tenant'] });

for (const kind of KINDS) {
  test(`${kind}: each tenant's index and artifacts are its own; another tenant's answer as missing ones`, async (t) => {
    const root = await tenantFolders(t);
    const tenants = tenantCatalogs({
      key: (ctx) => ctx.tenant as string | undefined,
      storage: (key) => fsStorage(path.join(root, key)),
      onWarning: () => undefined,
    });
    t.after(() => tenants.close());
    const server = await serveWellKnown(kind, tenants, { context });
    t.after(server.close);
    const as = (tenant: string) => ({ headers: { 'x-tenant': tenant } });

    const a = await index(server.origin, as('a').headers);
    const b = await index(server.origin, as('b').headers);
    assert.deepEqual(a.skills.map((s) => s.name).sort(), ['alpha-notes', 'greet']);
    assert.deepEqual(b.skills.map((s) => s.name).sort(), ['beta-secrets', 'greet']);
    const aGreet = a.skills.find((s) => s.name === 'greet')!;
    const bGreet = b.skills.find((s) => s.name === 'greet')!;
    assert.notEqual(aGreet.digest, bGreet.digest);

    // B first, so a cache keyed by name or URL alone would hand B's archive to A.
    const bZip = await get(`${server.origin}${PREFIX}greet.zip`, as('b'));
    const aZip = await get(`${server.origin}${PREFIX}greet.zip`, as('a'));
    assert.deepEqual(Object.keys(unzipSync(aZip.bytes)).sort(), ['SKILL.md', 'a-phrases.md']);
    assert.deepEqual(Object.keys(unzipSync(bZip.bytes)).sort(), ['SKILL.md', 'b-phrases.md']);
    assert.equal(Buffer.from(unzipSync(aZip.bytes)['a-phrases.md']!).toString(), TREES.a['greet/a-phrases.md']);

    const nowhere = await get(`${server.origin}${PREFIX}gamma-nowhere.zip`, as('a'));
    assert.equal(nowhere.status, 404);
    for (const url of ['beta-secrets.zip', 'beta-secrets/SKILL.md']) {
      const probe = await get(`${server.origin}${PREFIX}${url}`, as('a'));
      assert.equal(probe.status, 404, url);
      assert.deepEqual(probe.bytes, nowhere.bytes, `${url}: the same bytes as a skill that exists nowhere`);
      assert.deepEqual(
        [...probe.headers].filter(([name]) => name !== 'date'),
        [...nowhere.headers].filter(([name]) => name !== 'date'),
        `${url}: the same headers`,
      );
    }
    // A conditional request with B's digest tells A nothing either.
    const conditional = await get(`${server.origin}${PREFIX}greet.zip`, { headers: { 'x-tenant': 'a', 'if-none-match': `"${bGreet.digest}"` } });
    assert.equal(conditional.status, 200);
    assert.deepEqual(conditional.bytes, aZip.bytes);
    // No tenant: no tenant's skills.
    const none = await get(`${server.origin}${PREFIX}index.json`);
    assert.equal(none.status, 200);
    assert.deepEqual(JSON.parse(none.bytes.toString()).skills, []);
  });
}
