import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { memoryStorage, type AllowedHosts } from '@skillmount/core';
import { createRequestGuard } from '@skillmount/core/adapter';
import { send } from './raw-http.js';
import { FRAMEWORKS, serve } from './servers.js';

const SKILLS = { 'alpha/SKILL.md': '---\nname: alpha\ndescription: Alpha.\n---\nbody\n' };
const LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'skills/list', params: {} });

/** The HTTP status of a skills/list with these headers. */
async function statusWith(url: string, headers: Record<string, string>): Promise<number> {
  const answer = await send(url, { body: LIST, headers });
  assert.equal(answer.kind, 'response');
  return answer.kind === 'response' ? answer.status : 0;
}

async function withServer(framework: (typeof FRAMEWORKS)[number], allowedHosts: AllowedHosts | undefined, fn: (url: string, port: string) => Promise<void>) {
  const served = await serve(framework, { storage: memoryStorage(SKILLS), onWarning: () => {}, ...(allowedHosts === undefined ? {} : { allowedHosts }) });
  try {
    await fn(served.url, new URL(served.url).port);
  } finally {
    await served.close();
  }
}

for (const framework of FRAMEWORKS) {
  test(`${framework}: on a loopback bind, only localhost names are answered by default (Host and Origin)`, async () => {
    await withServer(framework, undefined, async (url, port) => {
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, 'localhost', 'LOCALHOST']) {
        assert.equal(await statusWith(url, { host }), 200, host);
      }
      for (const host of [`evil.example:${port}`, `localhost.evil.example:${port}`, `127.0.0.2:${port}`]) {
        assert.equal(await statusWith(url, { host }), 403, host);
      }
      assert.equal(await statusWith(url, { origin: 'http://localhost:5173' }), 200, 'a local page on another port');
      assert.equal(await statusWith(url, { origin: 'http://evil.example' }), 403);
      const refused = await send(url, { body: LIST, headers: { host: 'evil.example' } });
      assert.ok(refused.kind === 'response');
      assert.deepEqual(JSON.parse(refused.text).error.code, -32000);
      assert.match(JSON.parse(refused.text).error.message, /Host "evil\.example" is not allowed.*allowedHosts/);
    });
  });

  test(`${framework}: an allowedHosts list replaces the default; a port in an entry must match`, async () => {
    await withServer(framework, ['skills.example.com', 'api.example.com:8443'], async (url, port) => {
      assert.equal(await statusWith(url, { host: `skills.example.com:${port}` }), 200);
      assert.equal(await statusWith(url, { host: 'SKILLS.example.com' }), 200);
      assert.equal(await statusWith(url, { host: 'api.example.com:8443' }), 200);
      assert.equal(await statusWith(url, { host: 'api.example.com:9999' }), 403);
      assert.equal(await statusWith(url, { host: 'api.example.com' }), 403, 'no port is port 80');
      assert.equal(await statusWith(url, { host: `127.0.0.1:${port}` }), 403, 'localhost is not in the list');
      assert.equal(await statusWith(url, { host: 'skills.example.com', origin: 'https://skills.example.com' }), 200);
      assert.equal(await statusWith(url, { host: 'skills.example.com', origin: 'https://evil.example' }), 403);
    });
  });

  test(`${framework}: allowedOrigins lets a browser host on another site through the Origin check, and only the Host check decides the Host`, async () => {
    const served = await serve(framework, {
      storage: memoryStorage(SKILLS),
      onWarning: () => {},
      allowedHosts: ['skills.example.com'],
      // Normalised: a trailing slash, an upper-case name and the scheme's own port are the origin browsers send.
      allowedOrigins: ['https://App.example.com:443/', 'http://localhost:5173'],
    });
    try {
      const url = served.url;
      assert.equal(await statusWith(url, { host: 'skills.example.com', origin: 'https://app.example.com' }), 200);
      assert.equal(await statusWith(url, { host: 'skills.example.com', origin: 'http://localhost:5173' }), 200);
      assert.equal(await statusWith(url, { host: 'skills.example.com', origin: 'http://localhost:5174' }), 403, 'another port is another origin');
      assert.equal(await statusWith(url, { host: 'skills.example.com', origin: 'http://app.example.com' }), 403, 'another scheme is another origin');
      assert.equal(await statusWith(url, { host: 'skills.example.com', origin: 'https://app.example.com.evil.example' }), 403);
      assert.equal(await statusWith(url, { host: 'skills.example.com', origin: 'null' }), 403);
      // DNS rebinding: the attacker's name in Host, whatever Origin the page claims.
      assert.equal(await statusWith(url, { host: 'app.example.com', origin: 'https://app.example.com' }), 403);
      assert.equal(await statusWith(url, { host: 'evil.example', origin: 'http://localhost:5173' }), 403);
      const refused = await send(url, { body: LIST, headers: { host: 'skills.example.com', origin: 'https://evil.example' } });
      assert.ok(refused.kind === 'response');
      assert.match(JSON.parse(refused.text).error.message, /Origin "https:\/\/evil\.example" is not allowed.*allowedOrigins/);
    } finally {
      await served.close();
    }
  });

  test(`${framework}: allowedHosts true keeps to localhost names; false turns the check off`, async () => {
    await withServer(framework, true, async (url) => {
      assert.equal(await statusWith(url, { host: 'localhost' }), 200);
      assert.equal(await statusWith(url, { host: 'evil.example' }), 403);
    });
    await withServer(framework, false, async (url) => {
      assert.equal(await statusWith(url, { host: 'evil.example' }), 200);
      assert.equal(await statusWith(url, { host: 'evil.example', origin: 'http://evil.example' }), 200);
    });
  });

  test(`${framework}: with sessions, every request is checked, GET streams included`, async () => {
    const served = await serve(framework, { storage: memoryStorage(SKILLS), onWarning: () => {}, sessions: true });
    try {
      const get = await send(served.url, { method: 'GET', headers: { host: 'evil.example', accept: 'text/event-stream' } });
      assert.ok(get.kind === 'response' && get.status === 403);
      const init = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      });
      const post = await send(served.url, { body: init, headers: { host: 'evil.example' } });
      assert.ok(post.kind === 'response' && post.status === 403);
    } finally {
      await served.close();
    }
  });
}

test('the default checks only requests that arrive on a loopback address', () => {
  const guard = createRequestGuard();
  const request = (localAddress: string, host: string) => ({ headers: { host }, socket: { localAddress } }) as unknown as IncomingMessage;
  assert.equal(guard.check(request('192.0.2.10', 'evil.example'))?.status, undefined, 'a public bind: no check unless configured');
  assert.equal(guard.check(request('127.0.0.1', 'evil.example'))?.status, 403);
  assert.equal(guard.check(request('127.8.9.10', 'evil.example'))?.status, 403);
  assert.equal(guard.check(request('::1', 'evil.example'))?.status, 403);
  assert.equal(guard.check(request('::ffff:127.0.0.1', 'evil.example'))?.status, 403, 'IPv4-mapped loopback');
  assert.equal(createRequestGuard({ allowedHosts: true }).check(request('192.0.2.10', 'evil.example'))?.status, 403);
});

test('bad allowedHosts, bodyLimit and bodyTimeout values fail at registration, naming the adapter and the option', async () => {
  const bad: [string, unknown][] = [
    ['allowedHosts', []],
    ['allowedHosts', ['http://skills.example.com']],
    ['allowedHosts', ['::1']],
    ['allowedHosts', ['skills.example.com/mcp']],
    ['allowedHosts', [42]],
    ['allowedHosts', 'localhost'],
    ['allowedOrigins', ['*']],
    ['allowedOrigins', ['https://app.example.com/path']],
    ['bodyLimit', 0],
    ['bodyLimit', 1.5],
    ['bodyLimit', '1mb'],
    ['bodyTimeout', 0],
    ['bodyTimeout', 2.5],
    ['bodyTimeout', '30s'],
  ];
  for (const framework of FRAMEWORKS) {
    const name = framework === 'fastify' ? '@skillmount/fastify' : '@skillmount/express';
    for (const [option, value] of bad) {
      await assert.rejects(
        serve(framework, { storage: memoryStorage(SKILLS), [option]: value } as never),
        (error: Error) => error.message.startsWith(`${name}: option "${option}"`),
        `${framework} ${option}=${JSON.stringify(value)}`,
      );
    }
  }
});
