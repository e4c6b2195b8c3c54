import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { childOutput } from '../support/child-output.js';
import { connectClient } from '../support/client.js';
import { EXAMPLES } from '../support/skills-suite.js';
import { within } from '../support/wait.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

// The app runs in a process of its own, with sessions and a watched folder; it closes on SIGUSR2
// and must then exit by itself, which it only does when nothing is left open.
const APP = `
import Fastify from 'fastify';
import skillsPlugin from '@skillmount/fastify';
import { fsStorage } from '@skillmount/storage-fs';
const app = Fastify();
await app.register(skillsPlugin, { storage: fsStorage(process.argv[1]), sessions: true, watch: true });
await app.listen({ port: 0, host: '127.0.0.1' });
console.log('listening ' + app.server.address().port);
process.once('SIGUSR2', async () => {
  await app.close();
  console.log('closed');
});
`;

test('app.close() with open sessions and a watched folder leaves nothing open: the process exits', async () => {
  const child = spawn(process.execPath, ['--input-type=module', '-e', APP, EXAMPLES], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const output = childOutput(child);
  const port = await output.port(10_000);
  const exited = once(child, 'exit') as Promise<[number | null, string | null]>;
  const sessions = await Promise.all([connectClient(`http://127.0.0.1:${port}/mcp`), connectClient(`http://127.0.0.1:${port}/mcp`)]);
  try {
    for (const { client, call } of sessions) {
      client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {});
      assert.equal((await call('skills/list')).skills.length, 3);
    }
    child.kill('SIGUSR2');
    const [code, signal] = await within(exited, 10_000, 'the app process to exit after app.close()');
    assert.equal(signal, null);
    assert.equal(code, 0);
    assert.match(output.text, /closed/);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    for (const session of sessions) await session.close();
  }
});
