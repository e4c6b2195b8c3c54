/**
 * `skillmount serve --full-list-interval`: with the manifest `publish` writes, a watch poll asks
 * only whether the manifest changed, so an object overwritten by another tool (a plain PutObject,
 * the manifest left as it was) is served once the next full listing runs. A short interval makes
 * that listing come soon, for one catalog and for each tenant's. Against the real S3-protocol
 * server, with the real built CLI.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { after, before, test } from 'node:test';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { connectClient } from '../support/client.js';
import { s3Env, startS3Server, type S3TestServer } from '../support/s3-server.js';
import { EXAMPLES } from '../support/skills-suite.js';
import { waitFor } from '../support/wait.js';
import { BIN, runCli, sha256 } from '../live/helpers.js';

const SKILL = 'skill://pdf-processing/SKILL.md';
const FILE = 'skill://pdf-processing/templates/invoice.md';
const KEY = 'pdf-processing/templates/invoice.md';

let s3: S3TestServer;
let env: NodeJS.ProcessEnv;
let bucket: string;

before(async () => {
  s3 = await startS3Server();
  env = s3Env(s3);
  bucket = s3.defaultBucket;
  await s3.bucket(bucket);
});
after(() => s3?.stop());

/** A fresh prefix with the examples published into it (objects and manifest), as `s3://bucket/prefix/`. */
async function published(under = ''): Promise<{ prefix: string; location: string }> {
  const prefix = `full-list-${process.pid}-${randomBytes(4).toString('hex')}/`;
  const r = await runCli(['publish', EXAMPLES, `s3://${bucket}/${prefix}${under}`], env);
  assert.equal(r.code, 0, r.stderr);
  return { prefix, location: `s3://${bucket}/${prefix}` };
}

/** `skillmount serve <location> --port 0 …`, resolved with its URL once it prints it; stopped after the test. */
async function serve(t: { after(fn: () => Promise<void>): void }, location: string, args: string[]) {
  const child = spawn(process.execPath, [BIN, 'serve', location, '--port', '0', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  t.after(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const [code] = child.exitCode === null && child.signalCode === null ? await once(child, 'exit') : [child.exitCode];
    assert.equal(code, 0, `serve stops cleanly on SIGTERM: ${stderr}`);
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      const m = /skillmount: serving .* at (http:\/\/\S+)/.exec(stdout);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code} before printing its URL: ${stderr}`)));
  });
  return { url };
}

/** Overwrite one object the way another tool would: a PutObject, and no manifest rewrite. */
async function overwrite(key: string, content: string): Promise<void> {
  await s3.client().send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: content }));
}

/** The digest `skills/get` publishes for the invoice template. */
async function digestOf(call: (method: string, params?: unknown) => Promise<Record<string, any>>): Promise<string | undefined> {
  const { skill } = await call('skills/get', { uri: SKILL });
  return (skill.resources as { uri: string; digest: string }[]).find((r) => r.uri === FILE)?.digest;
}

test('serve --watch --full-list-interval: an object overwritten without a manifest rewrite is served', async (t) => {
  const { prefix, location } = await published();
  const s = await serve(t, location, ['--watch', '--poll-interval', '100', '--full-list-interval', '300']);
  const { call, close } = await connectClient(s.url);
  const content = '# Invoice\n\nOverwritten by another tool; the manifest still describes the old bytes.\n';
  assert.notEqual(await digestOf(call), sha256(content));
  await overwrite(prefix + KEY, content);
  await waitFor(async () => (await digestOf(call)) === sha256(content), `the overwritten ${KEY} to be served`, 20_000);
  await close();
});

test('serve --tenant-header --full-list-interval: a tenant sees an object overwritten in its prefix without a manifest rewrite', async (t) => {
  const { prefix, location } = await published('acme/');
  const s = await serve(t, location, ['--tenant-header', 'x-tenant', '--poll-interval', '100', '--full-list-interval', '300']);
  const { call, close } = await connectClient(s.url, { 'x-tenant': 'acme' });
  const content = '# Invoice\n\nOverwritten in the tenant prefix by another tool.\n';
  // The first request loads the tenant's catalog and starts its watch.
  assert.notEqual(await digestOf(call), sha256(content));
  await overwrite(`${prefix}acme/${KEY}`, content);
  await waitFor(async () => (await digestOf(call)) === sha256(content), `acme's overwritten ${KEY} to be served`, 20_000);
  await close();
});

test('serve --full-list-interval: a value that is not milliseconds from 0 or "never" is refused, naming the flag and the value', async () => {
  const bad = ['-1', '5m', '1.5', '', '1e3', 'sometimes'];
  const results = await Promise.all(bad.map((value) => runCli(['serve', 's3://skills/prod', `--full-list-interval=${value}`, '--port', '0'], env)));
  results.forEach((r, i) => {
    assert.equal(r.code, 2, `"${bad[i]}": ${r.stderr}`);
    assert.match(
      r.stderr,
      new RegExp(
        `^skillmount: --full-list-interval must be a whole number of milliseconds from 0 \\(0 lists the prefix on every poll\\) ` +
          `or "never" \\(list only when the manifest changes\\), got "${bad[i]!.replace('.', '\\.')}"$`,
        'm',
      ),
    );
    assert.equal(r.stdout, '');
  });
});

test('serve --full-list-interval applies to s3:// locations only', async () => {
  const r = await runCli(['serve', EXAMPLES, '--full-list-interval', 'never', '--port', '0']);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /--full-list-interval applies to s3:\/\/ locations only, not to /);
});

test('--help lists --full-list-interval with its default and "never"', async () => {
  const r = await runCli(['serve', '--help']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stdout,
    /--full-list-interval <ms\|never>\n\s+S3 with a manifest: list the whole prefix at least this often.*default 300000.*never: only when the manifest changes/s,
  );
});
