// What a new user sees for the first mistakes people make: a wrong endpoint path, S3 without a
// region or with an unreachable endpoint, a storage pointed at one skill's folder, an unquoted
// `description: Use when: …`, and a wrong PostgreSQL URL or missing table with --tenant-header.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import { createLoginRole, startPostgres, testPool, type TestPostgres, uniqueName } from '../support/postgres.js';
import { s3Env, startS3Server, type S3TestServer } from '../support/s3-server.js';

const BIN = path.resolve(import.meta.dirname, '../../packages/cli/dist/bin.js');

/** The CLI as a user runs it, with only the environment given (no AWS settings from this machine). */
const cli = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const base = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };
    // No AWS config file either: the region must come from the environment or nowhere.
    const isolated = { AWS_CONFIG_FILE: '/nonexistent', AWS_SHARED_CREDENTIALS_FILE: '/nonexistent', AWS_EC2_METADATA_DISABLED: 'true' };
    execFile(process.execPath, [BIN, ...args], { env: { ...base, ...isolated, ...env }, timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

let dir: string;
const servers: Server[] = [];
before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'skillmount-first-run-'));
});
after(async () => {
  for (const s of servers) s.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  await rm(dir, { recursive: true, force: true });
});

test('ls and get against a path with no MCP endpoint: the status, a short excerpt and a hint, not the HTML page', async () => {
  // Express's own 404 page for a route that does not exist.
  const app = express();
  app.post('/api/mcp', (_req, res) => res.end());
  const server = createServer(app);
  servers.push(server);
  const base = await listen(server);
  for (const args of [
    ['ls', `${base}/mcp`],
    ['get', `${base}/mcp`, 'git-workflow'],
  ]) {
    const r = await cli(args);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /answered HTTP 404 \(an HTML page reading "Error Cannot POST \/mcp"\)/);
    assert.match(r.stderr, /check the URL's path/);
    assert.doesNotMatch(r.stderr, /<html|<!DOCTYPE|<pre>/i);
    assert.ok(r.stderr.length < 400, r.stderr);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  }
});

test('an error page that carries terminal escapes is shown escaped, and cut short', async () => {
  const hostile = `<html><body>\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2J gone ${'x'.repeat(5000)}</body></html>`;
  const server = createServer((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end(hostile));
  servers.push(server);
  const r = await cli(['ls', `${await listen(server)}/mcp`]);
  assert.equal(r.code, 1);
  assert.doesNotMatch(r.stderr, /[\x07\x1b]/);
  assert.match(r.stderr, /\\x1b\]52;c;/);
  assert.ok(r.stderr.length < 500, `${r.stderr.length} characters`);
});

test('401: the hint says how to send credentials', async () => {
  const server = createServer((_req, res) => res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}'));
  servers.push(server);
  const r = await cli(['ls', `${await listen(server)}/mcp`]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /answered HTTP 401 \(saying "\{"error":"unauthorized"\}"\); .*--header "Authorization: Bearer <token>"/);
});

test('check s3://… without a region: says to set AWS_REGION, and nothing about watching, polling or publishing', async () => {
  const r = await cli(['check', 's3://skills/prod']);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /cannot load skills from s3:\/\/skills\/prod\/: no AWS region is set: set AWS_REGION/);
  assert.doesNotMatch(r.stderr, /watching|polling|publish/);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
});

test('check s3://… with an endpoint nothing listens at: names the endpoint and the setting', async () => {
  // A port that was free a moment ago: nothing listens there.
  const probe = createServer();
  const free = await listen(probe);
  await new Promise((resolve) => probe.close(resolve));
  const env = { AWS_ENDPOINT_URL_S3: free, AWS_ACCESS_KEY_ID: 'k', AWS_SECRET_ACCESS_KEY: 's' };
  const r = await cli(['check', 's3://skills/prod'], env);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, new RegExp(`the S3 endpoint ${free}/ could not be reached \\(connection refused, ECONNREFUSED\\): check AWS_ENDPOINT_URL_S3`));
  assert.doesNotMatch(r.stderr, /watching|polling|publish/);
});

test("check on one skill's folder: says to point at the folder that contains it, by name", async () => {
  const parent = path.join(dir, 'skills');
  const skill = path.join(parent, 'pdf-tools');
  await mkdir(skill, { recursive: true });
  await writeFile(path.join(skill, 'SKILL.md'), '---\nname: pdf-tools\ndescription: Fill PDF forms.\n---\nBody\n');
  const r = await cli(['check', skill]);
  assert.equal(r.code, 1);
  assert.match(r.stdout, /\[root-skill\]/);
  assert.match(r.stdout, new RegExp(`Point the storage at the folder that contains it, ${parent.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `));
  const fixed = await cli(['check', parent]);
  assert.equal(fixed.code, 0, fixed.stdout);
});

test('check: an unquoted "description: Use when: …" gets the YAML error and the quoted line to write instead', async () => {
  const root = path.join(dir, 'colon');
  await mkdir(path.join(root, 'triage'), { recursive: true });
  await writeFile(path.join(root, 'triage', 'SKILL.md'), '---\nname: triage\ndescription: Use when: a bug report arrives\n---\nBody\n');
  const r = await cli(['check', root]);
  assert.equal(r.code, 1);
  assert.match(
    r.stdout,
    /Nested mappings are not allowed in compact mappings\. A value holding ": " must be quoted: description: "Use when: a bug report arrives"/,
  );
});

test('serve --tenant-header with S3 and no region fails at start, before "serving"', async () => {
  const r = await cli(['serve', 's3://skills/tenants', '--tenant-header', 'x-tenant', '--port', '0']);
  assert.equal(r.code, 1, r.stdout);
  assert.doesNotMatch(r.stdout, /serving/);
  assert.match(r.stderr, /cannot serve tenants from s3:\/\/skills\/tenants\/: no AWS region is set/);
});

test('serve --tenant-header with an S3 server it reaches still starts', async (t) => {
  let s3: S3TestServer;
  try {
    s3 = await startS3Server();
  } catch (error) {
    return t.skip(`no S3 server: ${(error as Error).message}`);
  }
  t.after(() => s3.stop());
  await s3.bucket(s3.defaultBucket);
  const child = execFile(process.execPath, [BIN, 'serve', `s3://${s3.defaultBucket}/tenants`, '--tenant-header', 'x-tenant', '--port', '0'], {
    env: { ...process.env, ...s3Env(s3) },
  });
  t.after(() => child.kill('SIGKILL'));
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      if (/serving each tenant's skills/.test(out)) resolve();
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
  child.kill('SIGTERM');
});

test('serve --tenant-header with PostgreSQL: a refused connection, a wrong password, a missing database or table fail at start', async (t) => {
  let db: TestPostgres;
  try {
    db = await startPostgres();
  } catch (error) {
    return t.skip(`no PostgreSQL: ${(error as Error).message}`);
  }
  const admin = testPool(db.connectionString, 2);
  const role = await createLoginRole(admin, db.connectionString, 'first_run');
  t.after(async () => {
    await role.drop();
    await admin.end();
    await db.stop();
  });
  const serve = (url: string, ...extra: string[]) => cli(['serve', url, '--tenant-header', 'x-tenant', '--port', '0', ...extra]);
  const withPassword = (password: string) => {
    const url = new URL(role.connectionString);
    url.password = password;
    return url.toString();
  };
  const withDatabase = (name: string) => {
    const url = new URL(role.connectionString);
    url.pathname = `/${name}`;
    return url.toString();
  };
  const probe = createServer();
  const free = new URL(await listen(probe)).port;
  await new Promise((resolve) => probe.close(resolve));
  const refusedUrl = new URL(role.connectionString);
  refusedUrl.port = free;

  const refused = await serve(refusedUrl.toString());
  assert.match(refused.stderr, /cannot connect to postgres:\/\/first_run_\w+@127\.0\.0\.1:\d+\/\w+: connect ECONNREFUSED .*is PostgreSQL running there\?/);

  // A table no test makes: a server with trust authentication lets any password in, and then finds
  // only the missing table (with the default table, another test file's could be there, and serve
  // would start).
  const wrongPassword = await serve(withPassword('not-the-password'), '--table', uniqueName('first_run_none'));
  if (!/does not exist; run "skillmount publish/.test(wrongPassword.stderr)) {
    assert.match(wrongPassword.stderr, /password authentication failed .*the password was refused: check the user and password in the URL/);
  }
  assert.doesNotMatch(wrongPassword.stderr, /not-the-password/);

  const noDatabase = await serve(withDatabase(uniqueName('nodb')));
  assert.match(noDatabase.stderr, /does not exist; no such database: check the database name in the URL/);

  const table = uniqueName('first_run_missing');
  const noTable = await serve(role.connectionString, '--table', table);
  assert.match(noTable.stderr, new RegExp(`cannot serve tenants from .*: PostgreSQL table ${table} does not exist; run "skillmount publish <folder> `));

  for (const r of [refused, wrongPassword, noDatabase, noTable]) {
    assert.equal(r.code, 1, r.stderr);
    assert.doesNotMatch(r.stdout, /serving/);
    assert.doesNotMatch(r.stderr, new RegExp(new URL(role.connectionString).password));
  }
});

test('serve --tenant-header with a PostgreSQL URL whose server accepts connections and never answers fails at start, within the bound', async (t) => {
  // A listener that accepts and stays silent: what a wrong port on a busy host, or a half-open
  // network path, looks like to the driver, which by itself would wait forever.
  const silent = createNetServer((socket) => socket.on('error', () => undefined));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    silent.close();
  });
  const { port } = silent.address() as AddressInfo;
  const r = await cli(['serve', `postgres://someone@127.0.0.1:${port}/skills`, '--tenant-header', 'x-tenant', '--port', '0']);
  assert.equal(r.code, 1, r.stdout);
  assert.doesNotMatch(r.stdout, /serving/);
  assert.match(
    r.stderr,
    /cannot connect to postgres:\/\/someone@127\.0\.0\.1:\d+\/skills: .*connection timeout; the server accepted no connection within 10 s: check the host and port/,
  );
});
