import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connectClient } from '../support/client.js';

const BIN = path.resolve(import.meta.dirname, '../../packages/cli/dist/bin.js');

async function serveTenants(root: string) {
  const child = spawn(process.execPath, [BIN, 'serve', root, '--port', '0', '--tenant-header', 'X-Tenant'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${err}`)), 20_000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = /at (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
  });
  return { child, url, output: () => out };
}

/** The JSON-RPC error of a call, whole, so two answers can be compared exactly. */
async function rpcError(call: Promise<unknown>) {
  try {
    await call;
  } catch (error) {
    const { code, message, data } = error as { code: number; message: string; data?: unknown };
    return { code, message, data };
  }
  throw new Error('expected an error');
}

test('serve --tenant-header: each tenant sees its own folder and nothing else', async (t) => {
  const root = await mkdtemp(path.join(tmpdir(), 'skillmount-tenants-'));
  const put = async (rel: string, content: string) => {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), content);
  };
  const md = (name: string, who: string) => `---\nname: ${name}\ndescription: ${who}'s ${name}.\n---\n${who}\n`;
  await put('acme/greet/SKILL.md', md('greet', 'acme'));
  await put('acme/billing/SKILL.md', md('billing', 'acme'));
  await put('globex/greet/SKILL.md', md('greet', 'globex'));
  await put('globex/secret-plans/SKILL.md', md('secret-plans', 'globex'));
  await put('globex/secret-plans/plan.md', 'globex only');
  const s = await serveTenants(root);
  t.after(async () => {
    s.child.kill('SIGTERM');
    await once(s.child, 'exit');
    await rm(root, { recursive: true, force: true });
  });
  assert.match(s.output(), /serving each tenant's skills \(header X-Tenant\)/);

  const acme = await connectClient(s.url, { 'x-tenant': 'acme' });
  const listed = await acme.call('skills/list', {});
  assert.deepEqual(
    listed.skills.map((e: { uri: string }) => e.uri),
    ['skill://billing/SKILL.md', 'skill://greet/SKILL.md'],
  );
  const greet = await acme.client.readResource({ uri: 'skill://greet/SKILL.md' });
  assert.match((greet.contents[0] as { text: string }).text, /^---\nname: greet\ndescription: acme's greet/);

  // globex's exact URIs, asked for by acme, answer exactly like URIs that exist nowhere.
  for (const [method, params, missing] of [
    ['skills/get', { uri: 'skill://secret-plans/SKILL.md' }, { uri: 'skill://nothing-here/SKILL.md' }],
    ['resources/directory/read', { uri: 'skill://secret-plans' }, { uri: 'skill://nothing-here' }],
  ] as const) {
    const theirs = await rpcError(acme.call(method, params));
    const nowhere = await rpcError(acme.call(method, missing));
    assert.equal(theirs.code, -32602);
    assert.deepEqual(JSON.parse(JSON.stringify(theirs).replaceAll('secret-plans', 'nothing-here')), nowhere);
  }
  const readTheirs = await rpcError(acme.client.readResource({ uri: 'skill://secret-plans/plan.md' }));
  const readNowhere = await rpcError(acme.client.readResource({ uri: 'skill://nothing-here/plan.md' }));
  assert.deepEqual(JSON.parse(JSON.stringify(readTheirs).replaceAll('secret-plans', 'nothing-here')), readNowhere);
  await acme.close();

  const globex = await connectClient(s.url, { 'x-tenant': 'globex' });
  assert.deepEqual(
    (await globex.call('skills/list', {})).skills.map((e: { uri: string }) => e.uri),
    ['skill://greet/SKILL.md', 'skill://secret-plans/SKILL.md'],
  );
  await globex.close();

  // No header, a tenant with no folder, and names that are not one plain segment: no skills at all.
  for (const headers of [{}, { 'x-tenant': 'initech' }, { 'x-tenant': '..' }, { 'x-tenant': 'acme/../globex' }, { 'x-tenant': '.' }]) {
    const c = await connectClient(s.url, headers as Record<string, string>);
    assert.deepEqual((await c.call('skills/list', {})).skills, [], JSON.stringify(headers));
    assert.equal((await rpcError(c.call('skills/get', { uri: 'skill://greet/SKILL.md' }))).code, -32602);
    await c.close();
  }
});

test('serve --tenant-header needs a header name', async () => {
  const child = spawn(process.execPath, [BIN, 'serve', '.', '--tenant-header', 'bad header'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const [code] = await once(child, 'exit');
  assert.equal(code, 2);
  assert.match(err, /--tenant-header must be an HTTP header name/);
});

test('serve --tenant-header warns when the server is reachable beyond loopback, and not on loopback', async (t) => {
  const root = await mkdtemp(path.join(tmpdir(), 'skillmount-tenants-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  // stdout and stderr are separate pipes: a warning written before the "serving" line may arrive after it.
  const stderrOf = async (host: string, warned: boolean) => {
    const child = spawn(process.execPath, [BIN, 'serve', root, '--port', '0', '--host', host, '--tenant-header', 'X-Tenant'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d) => (out += d));
    const exited = once(child, 'exit');
    while (!out.includes('serving') && child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 20));
    const until = Date.now() + (warned ? 10_000 : 300);
    while (!err.includes('--tenant-header') && child.exitCode === null && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    child.kill('SIGTERM');
    await exited;
    assert.match(out, /serving each tenant's skills/, err);
    return err;
  };
  const exposed = await stderrOf('0.0.0.0', true);
  assert.match(exposed, /warning: --tenant-header X-Tenant trusts whatever a request carries in that header, and 0\.0\.0\.0 is reachable beyond this machine/);
  assert.match(exposed, /have it set X-Tenant itself and strip any value a client sends/);
  assert.doesNotMatch(await stderrOf('127.0.0.1', false), /--tenant-header/);
});
