/**
 * A storage given as the `storage` option belongs to the adapter and closes with the app. The app
 * runs in a process of its own, serving a PostgreSQL table through a storage that created its own
 * pool; once closed it must exit by itself, promptly: an idle pool left open holds a process for
 * about ten seconds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { postgresStorage } from '@skillmount/storage-postgres';
import { childOutput } from '../support/child-output.js';
import { connectClient } from '../support/client.js';
import { setup, putTree } from '../storage-postgres/helpers.js';
import { skillMd } from '../support/skill-md.js';
import { within } from '../support/wait.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

const STORAGE = `
import { postgresStorage } from '@skillmount/storage-postgres';
const storage = () => postgresStorage({ connectionString: process.argv[1], table: process.argv[2] });
const ready = (port, close) => {
  console.log('listening ' + port);
  process.once('SIGUSR2', async () => {
    await close();
    // From the end of close: how long whatever close left open holds the process.
    const closed = Date.now();
    console.log('closed');
    process.once('exit', () => console.log('exited ' + (Date.now() - closed)));
  });
};
`;

const APPS = {
  fastify: `${STORAGE}
import Fastify from 'fastify';
import skillsPlugin from '@skillmount/fastify';
const app = Fastify();
await app.register(skillsPlugin, { storage: storage() });
await app.listen({ port: 0, host: '127.0.0.1' });
ready(app.server.address().port, () => app.close());
`,
  express: `${STORAGE}
import express from 'express';
import { skillsMiddleware } from '@skillmount/express';
const skills = skillsMiddleware({ storage: storage() });
const app = express();
app.use('/mcp', skills);
await skills.ready;
const server = await new Promise((resolve) => { const s = app.listen(0, '127.0.0.1', () => resolve(s)); });
ready(server.address().port, async () => {
  await skills.close();
  await new Promise((resolve) => { server.close(resolve); server.closeAllConnections(); });
});
`,
};

for (const [name, source] of Object.entries(APPS)) {
  test(`${name}: a storage given as "storage" closes with the app, and the process exits promptly on its own`, async (t) => {
    const { db, table, teardown } = await setup('exit_on_close');
    t.after(teardown);
    const writer = postgresStorage({ connectionString: db.connectionString, table });
    await putTree(writer, { 'greet/SKILL.md': skillMd('greet') });
    await writer.close();

    const child = spawn(process.execPath, ['--input-type=module', '-e', source, db.connectionString, table], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    t.after(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    const output = childOutput(child);
    const port = await output.port(15_000);
    const exited = once(child, 'exit') as Promise<[number | null, string | null]>;
    const { call, close } = await connectClient(`http://127.0.0.1:${port}/mcp`);
    try {
      assert.deepEqual(
        (await call('skills/list')).skills.map((s: { uri: string }) => s.uri),
        ['skill://greet/SKILL.md'],
      );
    } finally {
      await close();
    }
    child.kill('SIGUSR2');
    const [code, signal] = await within(exited, 8_000, 'the app process to exit after it closed');
    assert.equal(signal, null);
    assert.equal(code, 0);
    assert.match(output.text, /closed/);
    const took = Number(/exited (\d+)/.exec(output.text)?.[1]);
    assert.ok(took < 2000, `the process exited ${took} ms after the app closed; an open pool holds it about 10 s`);
  });
}
