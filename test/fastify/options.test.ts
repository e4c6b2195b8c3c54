/**
 * The plugin's own option, `path`, and its registration. The options both adapters share are
 * checked alike in test/adapters/options.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { memoryStorage, OptionError, type OptionErrorCode } from '@skillmount/core';
import Fastify from 'fastify';
import skillsPlugin, { type SkillsPluginOptions } from '@skillmount/fastify';
import { connectClient } from '../support/client.js';
import { startApp } from './app.js';

const skills = () => memoryStorage({ 'hello/SKILL.md': '---\nname: hello\ndescription: Says hello.\n---\nHi.\n' });

/**
 * Registration fails with an OptionError of `code` whose message names what was wrong: a
 * RangeError for a value out of range, a TypeError for everything else.
 */
async function refused(options: unknown, message: RegExp, code: OptionErrorCode, option?: string) {
  const app = Fastify();
  try {
    // register() returns the app, a thenable rather than a Promise.
    await assert.rejects(
      async () => {
        await app.register(skillsPlugin, options as SkillsPluginOptions);
      },
      (error: unknown) => {
        assert.ok(error instanceof OptionError, String(error));
        assert.match(error.message, message);
        assert.equal(error.code, code, error.message);
        assert.ok(code === 'invalid-value' ? error instanceof RangeError : error instanceof TypeError, `${code}: ${String(error)}`);
        if (option !== undefined) assert.equal(error.option, option);
        return true;
      },
    );
  } finally {
    await app.close().catch(() => {});
  }
}

test('"path" is a route path starting with "/", or false; with false, sessions and bodyTimeout are refused', async () => {
  await refused({ storage: skills(), path: 'mcp' }, /@skillmount\/fastify: option "path" must be a route path starting with "\/"/, 'invalid-value', 'path');
  await refused({ storage: skills(), path: 7 }, /@skillmount\/fastify: option "path" must be a route path/, 'invalid-type', 'path');
  await refused(
    { storage: skills(), path: false, sessions: true },
    /@skillmount\/fastify: option "sessions" only applies to the route the plugin mounts/,
    'conflicting-options',
    'sessions',
  );
  await refused(
    { storage: skills(), path: false, bodyTimeout: 1000 },
    /@skillmount\/fastify: option "bodyTimeout" only applies to the route the plugin mounts/,
    'conflicting-options',
    'bodyTimeout',
  );
});

test('the endpoint is served at "path"', async () => {
  const { app, url } = await startApp({ storage: skills(), path: '/skills/mcp' });
  try {
    assert.ok(url.endsWith('/skills/mcp'));
    const { call, close } = await connectClient(url);
    try {
      assert.equal((await call('skills/list')).skills.length, 1);
    } finally {
      await close();
    }
    const other = await fetch(url.replace('/skills/mcp', '/mcp'), { method: 'POST' });
    assert.equal(other.status, 404, 'nothing at the default path');
  } finally {
    await app.close();
  }
});

test('registering twice in one context is refused', async () => {
  const app = Fastify();
  try {
    await app.register(skillsPlugin, { storage: skills() });
    await assert.rejects(async () => {
      await app.register(skillsPlugin, { storage: skills(), path: '/other' });
    }, /@skillmount\/fastify: app\.skills is already defined/);
  } finally {
    await app.close().catch(() => {});
  }
});
