/**
 * The Express router's `logger` option: every warning goes to the app's pino-shaped logger as one
 * JSON line carrying the warning and its code, and none to the console; a logger without `warn`,
 * or one given beside `onWarning`, is refused at creation. (Fastify's own logger is a pino
 * instance: the app's logger here.)
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import express from 'express';
import Fastify from 'fastify';
import { skillsMiddleware } from '@skillmount/express';
import { memoryStorage } from '@skillmount/core';
import { connectClient } from '../support/client.js';
import { listenExpressSkills } from '../support/apps.js';

const FILES = {
  'wrong-folder/SKILL.md': '---\nname: other-name\ndescription: Misnamed.\n---\nBody.\n',
  'kept/SKILL.md': '---\nname: kept\ndescription: Served.\n---\nBody.\n',
};

test('logger: every warning as a JSON log line with its code; the console stays silent', async () => {
  const lines: { level: number; msg: string; warning?: { code: string; path?: string; uri?: string } }[] = [];
  const logger = Fastify({ logger: { level: 'warn', stream: { write: (line: string) => void lines.push(JSON.parse(line)) } } }).log;
  const printed: unknown[][] = [];
  const original = console.warn;
  console.warn = (...args: unknown[]) => void printed.push(args);
  const router = skillsMiddleware({ storage: memoryStorage(FILES), logger });
  try {
    await router.ready;
    const http = await listenExpressSkills(express(), router);
    const { call, close } = await connectClient(http.url);
    assert.equal((await call('skills/list', {})).skills.length, 1, 'the valid skill is served');
    await close();
    await http.close();
  } finally {
    console.warn = original;
  }
  assert.deepEqual(printed, [], 'nothing on the console');
  const skipped = lines.find((line) => line.warning?.code === 'name-mismatch');
  assert.ok(skipped, JSON.stringify(lines));
  assert.equal(skipped.level, 40, 'at level warn');
  assert.equal(skipped.warning!.path, 'wrong-folder/SKILL.md');
  assert.match(skipped.msg, /other-name/);
});

test('logger: refused without a warn method, or beside onWarning', () => {
  assert.throws(() => skillsMiddleware({ storage: memoryStorage(FILES), logger: console.log as never }), {
    name: 'OptionError',
    message: /@skillmount\/express: option "logger" must be a logger with a warn\(object, message\) method/,
  });
  assert.throws(() => skillsMiddleware({ storage: memoryStorage(FILES), logger: { warn() {} }, onWarning() {} }), {
    name: 'OptionError',
    message: /@skillmount\/express: option "logger" and onWarning both say where warnings go: give one/,
  });
});
