/**
 * An app with Fastify's default `logger: false` has a logger that drops every line: the plugin's
 * warnings then go to the console, so a skipped skill is still seen. With a logger they go to it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import skillsPlugin from '@skillmount/fastify';
import { memoryStorage } from '@skillmount/core';

// A skill whose name does not match its folder is skipped with a warning.
const FILES = { 'wrong-folder/SKILL.md': '---\nname: other-name\ndescription: Misnamed.\n---\nBody.\n' };

test('without a logger or onWarning, the plugin warns on the console; with a logger, in the log', async () => {
  const printed: unknown[][] = [];
  const original = console.warn;
  console.warn = (...args: unknown[]) => void printed.push(args);
  try {
    const quiet = Fastify({ requestTimeout: 30_000 });
    await quiet.register(skillsPlugin, { storage: memoryStorage(FILES) });
    await quiet.ready();
    await quiet.close();
  } finally {
    console.warn = original;
  }
  assert.ok(
    printed.some((args) => args.join(' ').includes('wrong-folder')),
    `the skipped skill was printed: ${JSON.stringify(printed)}`,
  );

  const lines: { warning?: { code: string; path?: string } }[] = [];
  const logged = Fastify({ requestTimeout: 30_000, logger: { level: 'warn', stream: { write: (line: string) => void lines.push(JSON.parse(line)) } } });
  const before = printed.length;
  console.warn = (...args: unknown[]) => void printed.push(args);
  try {
    await logged.register(skillsPlugin, { storage: memoryStorage(FILES) });
    await logged.ready();
    await logged.close();
  } finally {
    console.warn = original;
  }
  assert.equal(printed.length, before, 'nothing on the console when the app has a logger');
  assert.ok(
    lines.some((line) => line.warning?.path?.includes('wrong-folder')),
    JSON.stringify(lines),
  );
});
