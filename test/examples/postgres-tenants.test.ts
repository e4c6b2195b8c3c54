/**
 * examples/postgres-tenants, started as its README says, on a table of its own in the test
 * database (DATABASE_URL, or an embedded PostgreSQL): each tenant's folder published to its
 * namespace with `skillmount publish`, each tenant sees only its own skills, a request without
 * the tenant header sees none, and a row written with plain SQL reaches its tenant only.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import pg from 'pg';
import { runCli } from '../live/helpers.js';
import { dropMigrated, startPostgres, testPool, uniqueName } from '../support/postgres.js';
import { waitFor } from '../support/wait.js';
import { EXAMPLES_DIR, connectSkills, lastFirst, listedUris, skillNamed, startExample } from './helpers.js';

const TENANTS = path.join(EXAMPLES_DIR, 'postgres-tenants/tenants');
const SECURITY = '---\nname: security\ndescription: Report a security incident at Globex.\n---\n\n# Security\n';

test('postgres-tenants: each tenant sees its own namespace only, and a write reaches its tenant', async (t) => {
  const cleanups = lastFirst(t);
  const db = await startPostgres();
  cleanups.after(() => db.stop());
  const admin = testPool(db.connectionString, 2);
  cleanups.after(() => admin.end());
  const table = uniqueName('examples_tenants');
  cleanups.after(() => dropMigrated(admin, table));

  for (const tenant of ['acme', 'globex']) {
    const result = await runCli(['publish', path.join(TENANTS, tenant), `${db.connectionString}#${tenant}`, '--table', table]);
    assert.equal(result.code, 0, `skillmount publish ${tenant} failed:\n${result.stderr}`);
  }
  const example = await startExample(cleanups, 'postgres-tenants', { DATABASE_URL: db.connectionString, SKILLS_TABLE: table });

  const nobody = await connectSkills(cleanups, example.url);
  const acme = await connectSkills(cleanups, example.url, { 'x-tenant': 'acme' });
  const globex = await connectSkills(cleanups, example.url, { 'x-tenant': 'globex' });
  assert.deepEqual(await listedUris(nobody.skills), [], 'no tenant header: no skills');
  assert.deepEqual(await listedUris(acme.skills), ['skill://invoices/SKILL.md', 'skill://refunds/SKILL.md']);
  assert.deepEqual(await listedUris(globex.skills), ['skill://onboarding/SKILL.md']);

  const policy = await acme.skills.read(await skillNamed(acme.skills, 'refunds'), 'policy.md');
  assert.equal(policy.verified, true);
  assert.deepEqual(Buffer.from(policy.bytes), await readFile(path.join(TENANTS, 'acme/refunds/policy.md')));
  const checklist = await globex.skills.read(await skillNamed(globex.skills, 'onboarding'), 'checklists/first-week.md');
  assert.deepEqual(Buffer.from(checklist.bytes), await readFile(path.join(TENANTS, 'globex/onboarding/checklists/first-week.md')));

  // Globex's skill does not exist for Acme: the answer of a URI served nowhere.
  const code = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: { code?: number }) => error.code,
    );
  assert.equal(await code(acme.client.readResource({ uri: 'skill://onboarding/SKILL.md' })), -32602);
  assert.equal(await code(acme.client.readResource({ uri: 'skill://no-such-skill/SKILL.md' })), -32602);

  // A row written with plain SQL: LISTEN/NOTIFY reloads Globex's catalog, and Acme's stays as it was.
  await admin.query(`INSERT INTO ${pg.escapeIdentifier(table)} (namespace, path, content) VALUES ($1, $2, $3)`, [
    'globex',
    'security/SKILL.md',
    Buffer.from(SECURITY),
  ]);
  await waitFor(async () => (await listedUris(globex.skills)).includes('skill://security/SKILL.md'), 'Globex to serve the new skill', 20_000);
  assert.equal((await globex.skills.read(await skillNamed(globex.skills, 'security'))).text, SECURITY);
  assert.deepEqual(await listedUris(acme.skills), ['skill://invoices/SKILL.md', 'skill://refunds/SKILL.md']);

  for (const session of [nobody, acme, globex]) await session.client.close();
  await example.stop();
});
