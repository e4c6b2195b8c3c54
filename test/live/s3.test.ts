/**
 * `skillmount serve s3://…` follows the bucket by polling: a changed object reaches a connected
 * session client as `list_changed` and a new digest. The server reaches S3 through a TCP relay;
 * cutting it makes S3 unreachable: the old catalog keeps serving and the cause is logged — by the
 * CLI (its polls fail) and, in-process, by a catalog whose reload runs while S3 is unreachable —
 * and once the relay is restored the next change is served, with no restart.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import type { SkillFiles, SkillWarning } from '@skillmount/core';
import { skillsPlugin } from '@skillmount/fastify';
import { s3Storage } from '@skillmount/storage-s3';
import Fastify from 'fastify';
import { expectedWarnings } from '../support/expected.js';
import { s3Env, startS3Server, type S3TestServer } from '../support/s3-server.js';
import { EXAMPLES } from '../support/skills-suite.js';
import { LIVE_PATIENCE_MS, runCli, sha256, startServe, tcpRelay, watchingClient, type Serving, type TcpRelay } from './helpers.js';
import { waitFor } from '../support/wait.js';

const SKILL = 'skill://pdf-processing/SKILL.md';
const FILE = 'skill://pdf-processing/templates/invoice.md';

let s3: S3TestServer;
let relay: TcpRelay;
let env: NodeJS.ProcessEnv;
let location: string;
let bucket: string;
let prefix: string;
let server: Serving;
let client: Awaited<ReturnType<typeof watchingClient>>;

const put = (path: string, content: string) => s3.client().send(new PutObjectCommand({ Bucket: bucket, Key: prefix + path, Body: content }));
/** What a publish ends with: the manifest rewritten, which is what a watching server asks about between full listings. */
const rewriteManifest = () => s3Storage({ client: s3.client(), bucket, prefix }).writeManifest();

before(async () => {
  s3 = await startS3Server();
  relay = await tcpRelay(s3.endpoint);
  env = { ...s3Env(s3), AWS_ENDPOINT_URL_S3: relay.url };
  bucket = s3.defaultBucket;
  await s3.bucket(bucket);
  prefix = `live-${process.pid}-${randomBytes(4).toString('hex')}/`;
  location = `s3://${bucket}/${prefix}`;
  const published = await runCli(['publish', EXAMPLES, location], env);
  assert.equal(published.code, 0, published.stderr);
  server = await startServe(location, ['--poll-interval', '200'], env);
  client = await watchingClient(server.url);
});

after(async () => {
  await client?.close();
  const code = await server?.stop();
  await relay?.close();
  await s3?.stop();
  assert.equal(code, 0, server?.stderr());
});

test('S3: a changed object reaches a connected client within 10 s (polling every 200 ms)', async (t) => {
  assert.match(server.stdout(), new RegExp(`\\(fastify, sessions, watching\\) from s3://${bucket}/${prefix}, polled every 200 ms`));
  const content = '# Invoice\n\nChanged in the bucket while the server runs.\n';
  const since = client.changes;
  const started = Date.now();
  await put('pdf-processing/templates/invoice.md', content);
  await rewriteManifest();
  await client.changed(since);
  t.diagnostic(`list_changed ${Date.now() - started} ms after the write`);
  assert.equal(await client.digestOf(SKILL, FILE), sha256(content), 'skills/get publishes the new digest');
  const read = await client.client.readResource({ uri: FILE });
  assert.equal((read.contents[0] as { text: string }).text, content);
});

test('S3 unreachable: the old catalog keeps serving and the cause is logged; once S3 is back the next change is served', async (t) => {
  // An in-process catalog over the same prefix, through the same relay, whose reload we start
  // ourselves: the real S3 storage, with its watch hook replaced by a trigger.
  // The last write below reaches this catalog before the manifest is rewritten: the storage says it is out of date.
  const storageErrors = expectedWarnings('@skillmount/storage-s3');
  const storage = s3Storage({ client: s3.client({ endpoint: relay.url }), bucket, prefix, onError: (e) => storageErrors.add(e.message) });
  let trigger: (() => void) | undefined;
  const triggered: SkillFiles = {
    list: (dir) => storage.list(dir),
    read: (p) => storage.read(p),
    listAll: () => storage.listAll(),
    watch(onChange) {
      trigger = onChange;
      return () => (trigger = undefined);
    },
  };
  const warnings: SkillWarning[] = [];
  const app = Fastify();
  await app.register(skillsPlugin, { storage: triggered, sessions: true, watch: true, onWarning: (w) => warnings.push(w) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  t.after(async () => {
    await app.close();
    await storage.close();
  });
  const inProcess = await watchingClient(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}/mcp`);
  t.after(() => inProcess.close());
  const entries = app.skills.entries;
  assert.equal(entries.length, 3);
  const served = await client.digestOf(SKILL, FILE);

  const mark = server.stderr().length;
  await relay.cut();
  const unreachable = /cannot list s3:\/\/\S+: (connection refused|the connection was reset)/;
  const logged = await server.waitForStderr(
    new RegExp(`warning: watching s3://\\S+ \\(polling every 200 ms\\) failed, will try again: ${unreachable.source}`),
    LIVE_PATIENCE_MS,
    mark,
  );
  assert.ok(logged.includes(`s3://${bucket}/${prefix}`), 'the warning names the bucket and prefix');
  assert.equal(await client.digestOf(SKILL, FILE), served, 'the CLI still serves the last catalog it loaded');
  assert.equal((await client.call('skills/list', {})).skills.length, 3);

  trigger!();
  await waitFor(() => warnings.some((w) => w.code === 'reload-failed'), 'a reload-failed warning', LIVE_PATIENCE_MS);
  const warning = warnings.find((w) => w.code === 'reload-failed')!;
  assert.match(warning.message, new RegExp(`^reload failed, still serving the previous catalog: ${unreachable.source}`));
  assert.equal(app.skills.entries, entries, 'the old catalog is still the one served');
  await assert.rejects(app.skills.reload(), unreachable);
  assert.equal((await inProcess.call('skills/list', {})).skills.length, 3, 'clients are still answered');
  assert.equal(inProcess.changes, 0, 'no list_changed for a failed reload');

  await relay.restore();
  const content = '# Invoice\n\nWritten once S3 was reachable again.\n';
  const since = client.changes;
  await put('pdf-processing/templates/invoice.md', content);
  // This catalog's storage is wrapped without treeToken: its reload lists, and finds the object newer than the manifest.
  const report = await app.skills.reload();
  assert.deepEqual(report.changed, [SKILL]);
  await rewriteManifest();
  await client.changed(since);
  assert.equal(await client.digestOf(SKILL, FILE), sha256(content), 'the CLI recovered on its own');
  assert.equal(await inProcess.digestOf(SKILL, FILE), sha256(content));
  assert.ok(
    storageErrors.messages.some((m) => /manifest s3:\/\/\S+ is out of date: 1 file was rewritten/.test(m)),
    `the out-of-date manifest is reported; reported: ${JSON.stringify(storageErrors.messages)}`,
  );

  // A second outage within the minute the log keeps a message quiet for: the reload that succeeded
  // in between ended the first, so the same warning is news again (well before that minute ends).
  const again = server.stderr().length;
  await relay.cut();
  try {
    await server.waitForStderr(
      new RegExp(`warning: watching s3://\\S+ \\(polling every 200 ms\\) failed, will try again: ${unreachable.source}`),
      30_000,
      again,
    );
  } finally {
    await relay.restore();
  }
});
