import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { checkSkillsEndpoint, EXAMPLES } from '../support/skills-suite.js';
import { connectClient } from '../support/client.js';
import { send } from '../hostile/raw-http.js';
import { ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

const BIN = path.resolve(import.meta.dirname, '../../packages/cli/dist/bin.js');

// A test that fails before it stops its server must not leave it running: its pipes would keep
// this file's process, and so the whole run, waiting for ever.
const started = new Set<ReturnType<typeof spawn>>();
after(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** Start `skillmount serve`, resolve with its URL once it prints it. */
async function serve(args: string[]) {
  const child = spawn(process.execPath, [BIN, 'serve', ...args, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  started.add(child);
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${stderr}`)), 20_000);
    child.stdout.on('data', (d) => {
      stdout += d;
      const m = /serving \d+ skills? at (http:\/\/\S+)/.exec(stdout);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  return { child, url, stdout: () => stdout, stderr: () => stderr };
}

for (const framework of ['fastify', 'express']) {
  test(`serve --framework ${framework}: the examples over HTTP, stops on SIGTERM`, async () => {
    const s = await serve([EXAMPLES, '--framework', framework, '--page-size', '2']);
    assert.match(s.stdout(), new RegExp(`serving 3 skills at http://127\\.0\\.0\\.1:\\d+/mcp \\(${framework}, sessions, watching\\)`));
    await checkSkillsEndpoint(s.url, { pageSize: 2 });
    s.child.kill('SIGTERM');
    const [code] = await once(s.child, 'exit');
    assert.equal(code, 0, s.stderr());
  });
}

/**
 * Serve a copy of the examples with `flags`, read a file, change it, and wait for the reload: a
 * connected client is told, and then holds the digest the file was listed with before.
 */
async function servedThenChanged(t: { after(fn: () => Promise<void>): void }, flags: string[]) {
  const root = await mkdtemp(path.join(tmpdir(), 'skillmount-serve-'));
  await cp(EXAMPLES, root, { recursive: true });
  const s = await serve([root, ...flags]);
  t.after(async () => {
    s.child.kill('SIGTERM');
    await once(s.child, 'exit');
    await rm(root, { recursive: true, force: true });
  });
  const connected = await connectClient(s.url);
  t.after(() => connected.close());
  const { client, call } = connected;
  const changed = new Promise<void>((resolve) => client.setNotificationHandler(ResourceListChangedNotificationSchema, () => resolve()));
  const before = (await call('skills/get', { uri: 'skill://git-workflow/SKILL.md' })).skill;
  const original = (await client.readResource({ uri: FILE })).contents[0] as { text: string };
  await writeFile(path.join(root, 'git-workflow/references/commit-messages.md'), '# Commit messages\n\nChanged.\n');
  await changed;
  const heldDigest = (before.resources as { uri: string; digest: string }[]).find((r) => r.uri === FILE)!.digest;
  return { client, call, before, original: original.text, heldDigest };
}

const FILE = 'skill://git-workflow/references/commit-messages.md';

test('serve: a changed folder is reloaded and connected clients are told; the file listed before is still served by its digest', async (t) => {
  const { client, call, before, original, heldDigest } = await servedThenChanged(t, []);
  const after = (await call('skills/get', { uri: 'skill://git-workflow/SKILL.md' })).skill;
  assert.notDeepEqual(after.resources, before.resources);
  const read = await client.readResource({ uri: FILE });
  assert.equal((read.contents[0] as { text: string }).text, '# Commit messages\n\nChanged.\n');
  // A host that listed before the reload and reads now gets what it listed (retained for 60 s by default).
  const held = await call('resources/read', { uri: FILE, _meta: { 'io.github.skillmount/digest': heldDigest } });
  assert.equal(held.contents[0].text, original);
});

test('serve --retain-ms 0: after a reload, a read naming the earlier digest is told the entry changed', async (t) => {
  const { call, heldDigest } = await servedThenChanged(t, ['--retain-ms', '0']);
  await assert.rejects(
    call('resources/read', { uri: FILE, _meta: { 'io.github.skillmount/digest': heldDigest } }),
    (error: { code: number; data: unknown }) => {
      assert.equal(error.code, -32602);
      assert.deepEqual(error.data, { uri: FILE, digest: heldDigest, reason: 'entry-changed' });
      return true;
    },
  );
});

test("serve --search: skillmount search is answered by the server's search_skills tool", async () => {
  const s = await serve([EXAMPLES, '--search', '--stateless']);
  try {
    const found = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [BIN, 'search', s.url, 'commit messages', '--json'], (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
    assert.equal(found.code, 0, found.stderr);
    const result = JSON.parse(found.stdout);
    assert.equal(result.ranked, 'server');
    assert.equal(result.skills[0].uri, 'skill://git-workflow/SKILL.md');
  } finally {
    s.child.kill('SIGTERM');
    await once(s.child, 'exit');
  }
});

test('serve --prefix and --stateless', async () => {
  const s = await serve([EXAMPLES, '--prefix', 'org', '--stateless']);
  const { call, close } = await connectClient(s.url);
  const list = await call('skills/list', {});
  assert.ok(list.skills.every((e: { uri: string }) => e.uri.startsWith('skill://org/')));
  await close();
  s.child.kill('SIGINT');
  const [code] = await once(s.child, 'exit');
  assert.equal(code, 0);
});

test('serve --allowed-hosts: a request naming another Host is refused with 403, a listed one is served', async (t) => {
  const s = await serve([EXAMPLES, '--allowed-hosts', 'skills.example.test, localhost']);
  t.after(async () => {
    s.child.kill('SIGTERM');
    await once(s.child, 'exit');
  });
  const port = new URL(s.url).port;
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } },
  });
  const post = (host: string) => send(s.url, { headers: { host }, body });
  const refused = await post(`evil.example.test:${port}`);
  assert.equal(refused.kind === 'response' && refused.status, 403);
  assert.match(refused.kind === 'response' ? JSON.parse(refused.text).error.message : '', /evil\.example\.test/);
  for (const host of [`skills.example.test:${port}`, `localhost:${port}`]) {
    const served = await post(host);
    assert.equal(served.kind === 'response' && served.status, 200, host);
  }
  // 127.0.0.1 is not in the list given, so it is refused too: the list replaces the loopback default.
  const loopback = await post(`127.0.0.1:${port}`);
  assert.equal(loopback.kind === 'response' && loopback.status, 403);
  assert.doesNotMatch(s.stderr(), /warning/);
});

for (const framework of ['fastify', 'express']) {
  test(`serve --framework ${framework} --cors: the CORS library answers the preflight, the origins given get through, others get 403`, async (t) => {
    const allowed = 'https://app.example.test';
    const s = await serve([EXAMPLES, '--framework', framework, '--cors', allowed, '--cors', 'http://localhost:5173/']);
    t.after(async () => {
      s.child.kill('SIGTERM');
      await once(s.child, 'exit');
    });
    assert.match(s.stdout(), /browser pages from https:\/\/app\.example\.test, http:\/\/localhost:5173 may call this endpoint \(CORS\)/);
    const pre = await fetch(s.url, {
      method: 'OPTIONS',
      headers: { origin: allowed, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,mcp-session-id,authorization' },
    });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers.get('access-control-allow-origin'), allowed);
    assert.match(pre.headers.get('access-control-allow-headers') ?? '', /Mcp-Session-Id/);
    assert.match(pre.headers.get('access-control-allow-methods') ?? '', /DELETE/);

    const { call, close } = await connectClient(s.url, { origin: allowed });
    assert.equal((await call('skills/list', {})).skills.length, 3);
    await close();
    const init = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } },
    });
    const post = (origin: string) =>
      fetch(s.url, { method: 'POST', headers: { origin, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: init });
    const ok = await post('http://localhost:5173');
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('access-control-allow-origin'), 'http://localhost:5173');
    assert.match(ok.headers.get('access-control-expose-headers') ?? '', /Mcp-Session-Id.*WWW-Authenticate/);
    await ok.body?.cancel();
    const refused = await post('https://evil.example.test');
    assert.equal(refused.status, 403);
    assert.equal(refused.headers.get('access-control-allow-origin'), null);
    await refused.body?.cancel();
  });
}

test('serve --host 0.0.0.0 without --allowed-hosts warns on stderr; with it, no warning', async () => {
  const open = await serve([EXAMPLES, '--host', '0.0.0.0']);
  await until(() => /warning: listening on 0\.0\.0\.0.*--allowed-hosts/.test(open.stderr()));
  open.child.kill('SIGTERM');
  await once(open.child, 'exit');

  const listed = await serve([EXAMPLES, '--host', '0.0.0.0', '--allowed-hosts', 'skills.example.test']);
  await new Promise((r) => setTimeout(r, 300));
  assert.doesNotMatch(listed.stderr(), /warning/);
  listed.child.kill('SIGTERM');
  await once(listed.child, 'exit');
});

test('serve: bad --allowed-hosts, --request-timeout, --retain-ms and --cors values are usage errors', async () => {
  for (const [flag, value, message] of [
    ['--allowed-hosts', ' , ', /--allowed-hosts must list host names/],
    ['--request-timeout', '0', /--request-timeout must be an integer ≥ 1/],
    ['--retain-ms=-1', '', /--retain-ms must be an integer ≥ 0, got "-1"/],
    ['--retain-ms', '1.5', /--retain-ms must be an integer ≥ 0, got "1\.5"/],
    ['--instructions', 'sometimes', /--instructions must be auto \(clients without the Skills extension\), always or off, got "sometimes"/],
    ['--cors', '*', /--cors \* would let any web page a user opens call this server.*--cors https:\/\/app\.example\.com/],
    ['--cors', 'https://app.example.com/mcp', /--cors must be an origin such as https:\/\/app\.example\.com.*got "https:\/\/app\.example\.com\/mcp"/],
    ['--cors', 'app.example.com', /--cors must be an origin/],
  ] as const) {
    const given = value === '' ? [flag] : [flag, value];
    const child = spawn(process.execPath, [BIN, 'serve', EXAMPLES, ...given, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const [code] = await once(child, 'exit');
    assert.equal(code, 2, stderr);
    assert.match(stderr, message);
  }
});

test('serve --instructions: auto names the skills for a client without the extension, off never, always even for one with it', async () => {
  const uris = (text: string | undefined) => [...(text ?? '').matchAll(/<(skill:\/\/[^>]+)>/g)].map((m) => m[1]).sort();
  const examples = ['skill://acme/billing/refunds/SKILL.md', 'skill://git-workflow/SKILL.md', 'skill://pdf-processing/SKILL.md'];
  for (const [flag, plain, declaring] of [
    [[], examples, []],
    [['--instructions', 'off'], [], []],
    [['--instructions', 'always'], examples, examples],
  ] as const) {
    const s = await serve([EXAMPLES, ...flag, '--stateless']);
    try {
      const without = await connectClient(s.url);
      assert.deepEqual(uris(without.client.getInstructions()), plain, `${flag.join(' ') || 'no flag'}: a client without the extension`);
      await without.close();
      const withExtension = await connectClient(s.url, {}, { extensions: { 'io.modelcontextprotocol/skills': {} } });
      assert.deepEqual(uris(withExtension.client.getInstructions()), declaring, `${flag.join(' ') || 'no flag'}: a client with it`);
      await withExtension.close();
    } finally {
      s.child.kill('SIGTERM');
      await once(s.child, 'exit');
    }
  }
});

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting for a condition');
    await new Promise((r) => setTimeout(r, 50));
  }
}
