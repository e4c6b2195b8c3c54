/**
 * Locations the CLI cannot use: each gives a clear message naming the location, the right exit
 * code (2 for a mistake on the command line, 1 for storage that cannot be reached), and never
 * the password.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, test } from 'node:test';
import { startPostgres, uniqueName, type TestPostgres } from '../support/postgres.js';
import { EXAMPLES } from '../support/skills-suite.js';
import { runCli, type CliResult } from '../live/helpers.js';

const PASSWORD = 'hunter2-Secret';

let closedPort: number;
let db: TestPostgres;

before(async () => {
  // A port nothing listens on: bound, then released.
  closedPort = await new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
  db = await startPostgres();
});
after(() => db?.stop());

function expectFailure(r: CliResult, code: number, pattern: RegExp, what: string) {
  assert.equal(r.code, code, `${what}: exit code (stderr: ${r.stderr})`);
  assert.match(r.stderr, pattern, what);
  assert.equal(r.stdout, '', `${what}: nothing on stdout`);
  for (const secret of [PASSWORD, encodeURIComponent(PASSWORD), db && new URL(db.connectionString).password].filter(Boolean) as string[]) {
    assert.ok(!r.stderr.includes(secret), `${what}: the password is not printed:\n${r.stderr}`);
  }
}

test('an unknown scheme is a usage mistake (exit 2), shown without its password', async () => {
  const location = `ftp://reader:${PASSWORD}@files.example/skills`;
  const commands = [
    ['serve', location],
    ['check', location],
    ['publish', EXAMPLES, location],
  ];
  const results = await Promise.all(commands.map((args) => runCli(args)));
  results.forEach((r, i) => {
    expectFailure(
      r,
      2,
      /unsupported location "ftp:\/\/reader@files\.example\/skills" \(scheme ftp:\/\/\); give a folder path, s3:\/\/bucket\/prefix or postgres:\/\//,
      commands[i]![0]!,
    );
    assert.match(r.stderr, /skillmount --help/);
  });
});

test('s3:// without a bucket is a usage mistake', async () => {
  const runs = ['s3://', 's3:///skills/prod'].flatMap((location) =>
    [
      ['serve', location],
      ['publish', EXAMPLES, location],
    ].map(async (args) => {
      const r = await runCli(args);
      expectFailure(
        r,
        2,
        new RegExp(`"${location.replaceAll('/', '\\/')}" names no bucket; write s3://bucket or s3://bucket/prefix`),
        `${args[0]} ${location}`,
      );
    }),
  );
  await Promise.all(runs);
});

test('an unreachable PostgreSQL fails with exit 1, naming the location without its password', async () => {
  const location = `postgres://skills:${PASSWORD}@127.0.0.1:${closedPort}/skills#tenant-a`;
  const shown = `postgres://skills@127\\.0\\.0\\.1:${closedPort}/skills#tenant-a`;
  const [serve, check, publish, query] = await Promise.all([
    runCli(['serve', location, '--port', '0']),
    runCli(['check', location]),
    runCli(['publish', EXAMPLES, location]),
    // A password given as a query parameter is kept out too.
    runCli(['serve', `postgresql://skills@127.0.0.1:${closedPort}/skills?password=${PASSWORD}`, '--port', '0']),
  ]);
  expectFailure(serve, 1, new RegExp(`^skillmount: cannot load skills from ${shown}: .*namespace "tenant-a": connect ECONNREFUSED`, 'm'), 'serve');
  expectFailure(check, 1, new RegExp(`cannot load skills from ${shown}: .*ECONNREFUSED`), 'check');
  expectFailure(publish, 1, new RegExp(`^skillmount: cannot open ${shown}: .*cannot connect: connect ECONNREFUSED`, 'm'), 'publish');
  expectFailure(query, 1, new RegExp(`cannot load skills from postgresql://skills@127\\.0\\.0\\.1:${closedPort}/skills: .*ECONNREFUSED`), 'password parameter');
});

test('a malformed PostgreSQL URL is a usage mistake, its password masked', async () => {
  const r = await runCli(['serve', `postgres://skills:${PASSWORD}@[not-a-host/db`]);
  expectFailure(r, 2, /"postgres:\/\/skills:\*\*\*@\[not-a-host\/db" is not a valid PostgreSQL URL/, 'malformed URL');
});

test('an unreachable S3 endpoint fails with exit 1, naming the bucket and prefix', async () => {
  const env = {
    AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${closedPort}`,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'id',
    AWS_SECRET_ACCESS_KEY: PASSWORD,
    AWS_MAX_ATTEMPTS: '1',
    AWS_EC2_METADATA_DISABLED: 'true',
  };
  const [serve, publish] = await Promise.all([
    runCli(['serve', 's3://skills/prod', '--port', '0'], env),
    runCli(['publish', EXAMPLES, 's3://skills/prod'], env),
  ]);
  const unreachable = `the S3 endpoint http://127\\.0\\.0\\.1:${closedPort}/ could not be reached \\(connection refused, ECONNREFUSED\\): check AWS_ENDPOINT_URL_S3`;
  expectFailure(serve, 1, new RegExp(`^skillmount: cannot load skills from s3://skills/prod/: ${unreachable}`, 'm'), 'serve');
  expectFailure(publish, 1, new RegExp(`^skillmount: cannot publish to s3://skills/prod/: ${unreachable}`, 'm'), 'publish');
});

test('serve from a PostgreSQL table that does not exist says to publish first', async () => {
  const table = uniqueName('missing');
  const location = `${db.connectionString}#docs`;
  const shown = new URL(location);
  shown.password = '';
  const r = await runCli(['serve', location, '--table', table, '--port', '0']);
  expectFailure(
    r,
    1,
    new RegExp(
      `cannot load skills from ${escapeRegExp(shown.href)}: PostgreSQL table ${table} does not exist; run "skillmount publish <folder> ${escapeRegExp(shown.href)} --table ${table}" first`,
    ),
    'missing table',
  );
  // A dry run of publish creates nothing either, and reports what it would upload.
  const dry = await runCli(['publish', EXAMPLES, location, '--table', table, '--dry-run']);
  assert.equal(dry.code, 0, dry.stderr);
  assert.match(dry.stdout, /^dry run: would publish 11 files \(0 unchanged, 0 removed\) to .*; nothing was written$/m);
  const again = await runCli(['serve', location, '--table', table, '--port', '0']);
  assert.equal(again.code, 1, 'the dry run created no table');
});

test('options that do not fit the location, and publish sources that are not folders, are usage mistakes', async () => {
  const pgLocation = `postgres://skills:${PASSWORD}@127.0.0.1:${closedPort}/skills`;
  const cases: [string[], RegExp][] = [
    [['serve', EXAMPLES, '--table', 'files'], /--table applies to postgres:\/\/ locations only/],
    [['serve', pgLocation, '--poll-interval', '100'], /--poll-interval applies to s3:\/\/ locations only, not to postgres:\/\/skills@/],
    [['serve', pgLocation, '--full-list-interval', '0'], /--full-list-interval applies to s3:\/\/ locations only, not to postgres:\/\/skills@/],
    [
      ['serve', pgLocation, '--table', 'no such table'],
      /postgres:\/\/skills@127\.0\.0\.1:\d+\/skills: option "table" must be a table name, .*; got "no such table"/,
    ],
    [['serve', 's3://skills/../up'], /s3:\/\/skills\/\.\.\/up: option "prefix" must be a folder of plain/],
    [['publish', 's3://skills/prod', pgLocation], /publish reads a skills folder; "s3:\/\/skills\/prod" is not a folder path/],
    [['publish', EXAMPLES, '/tmp/elsewhere'], /publish writes to s3:\/\/bucket\/prefix or postgres:\/\/…\[#namespace\]; "\/tmp\/elsewhere" is a folder path/],
    [['publish', EXAMPLES], /expected <folder> <location>, got 1 argument/],
  ];
  const results = await Promise.all(cases.map(([args]) => runCli(args)));
  for (const [i, [args, pattern]] of cases.entries()) expectFailure(results[i]!, 2, pattern, args.join(' '));
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
