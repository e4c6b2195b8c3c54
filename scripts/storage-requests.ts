/**
 * How many storage requests a catalog build costs, over S3 and PostgreSQL, for a tree of
 * `--skills` skills × `--files` small files (default 2000 × 10): S3 LIST and GET requests,
 * PostgreSQL queries and body reads, for the build, for a reload with nothing changed and for a
 * reload after one file changed, with timings.
 *
 *   node --import tsx scripts/storage-requests.ts [--skills 2000 --files 10]
 *
 * S3 is the tests' S3-protocol server (or S3_ENDPOINT), PostgreSQL is DATABASE_URL (or a private
 * server started for the run). The data is seeded straight into the stores (the S3 server's raw
 * put, one SQL transaction), not file by file over HTTP.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { SkillCatalog } from '@skillmount/core';
import { migrate, postgresStorage } from '@skillmount/storage-postgres';
import { s3Storage } from '@skillmount/storage-s3';
import pg from 'pg';
import { startPostgres } from '../test/support/postgres.js';
import { startS3Server, type S3TestServer } from '../test/support/s3-server.js';

const { values } = parseArgs({ options: { skills: { type: 'string', default: '2000' }, files: { type: 'string', default: '10' } } });
const SKILLS = positive(values.skills, '--skills');
const FILES = positive(values.files, '--files');
const CHANGED = 'skill-00007/refs/file-3.md';

function positive(value: string | undefined, name: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got "${value}"`);
  return n;
}

/** The tree: skill-NNNNN/SKILL.md plus FILES - 1 small reference files per skill. */
function tree(): Map<string, string> {
  const files = new Map<string, string>();
  for (let s = 0; s < SKILLS; s++) {
    const name = `skill-${String(s).padStart(5, '0')}`;
    files.set(`${name}/SKILL.md`, `---\nname: ${name}\ndescription: Generated skill number ${s}.\n---\n# ${name}\n`);
    for (let f = 1; f < FILES; f++) files.set(`${name}/refs/file-${f}.md`, `${name}, reference ${f}\n`);
  }
  return files;
}

interface Row {
  step: string;
  counts: Record<string, number>;
  bodiesRead: number;
  ms: number;
}

async function measure(step: string, counts: () => Record<string, number>, reset: () => void, run: () => Promise<SkillCatalog>): Promise<Row> {
  reset();
  const started = performance.now();
  const catalog = await run();
  const ms = performance.now() - started;
  return { step, counts: counts(), bodiesRead: catalog.bodiesRead, ms };
}

function print(title: string, columns: string[], rows: Row[]): void {
  console.log(`\n${title}`);
  const header = ['', ...columns, 'bodies read', 'time'];
  const table = [header, ...rows.map((r) => [r.step, ...columns.map((c) => String(r.counts[c] ?? 0)), String(r.bodiesRead), `${(r.ms / 1000).toFixed(2)} s`])];
  const widths = header.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  for (const row of table) console.log('  ' + row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('   '));
}

/** Count every HTTP attempt a client sends, by operation (retries included). */
function countRequests(client: S3Client): { counts: Record<string, number>; reset(): void } {
  const counts: Record<string, number> = {};
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const name = (context as { commandName?: string }).commandName ?? 'other';
      const key = name === 'ListObjectsV2Command' ? 'LIST' : name === 'GetObjectCommand' ? 'GET' : 'other';
      counts[key] = (counts[key] ?? 0) + 1;
      return next(args);
    },
    { step: 'deserialize', name: 'storageRequestsCounter' },
  );
  return {
    counts,
    reset: () => {
      for (const k of Object.keys(counts)) delete counts[k];
    },
  };
}

async function seedS3(server: S3TestServer, client: S3Client, bucket: string, prefix: string, files: Map<string, string>): Promise<void> {
  const encoder = new TextEncoder();
  const entries = [...files];
  if (!server.putRaw) {
    // An outside server (S3_ENDPOINT): plain PutObject, 32 at a time.
    let next = 0;
    const worker = async () => {
      while (next < entries.length) {
        const [path, body] = entries[next++]!;
        await client.send(new PutObjectCommand({ Bucket: bucket, Key: prefix + path, Body: encoder.encode(body) }));
      }
    };
    await Promise.all(Array.from({ length: 32 }, worker));
    return;
  }
  for (let i = 0; i < entries.length; i += 2000) {
    await server.putRaw(bucket, Object.fromEntries(entries.slice(i, i + 2000).map(([path, body]) => [prefix + path, encoder.encode(body)])));
  }
}

async function s3Run(files: Map<string, string>): Promise<void> {
  const server = await startS3Server();
  try {
    const bucket = server.defaultBucket;
    await server.bucket(bucket);
    const prefix = `requests-${randomBytes(4).toString('hex')}/`;
    let started = performance.now();
    await seedS3(server, server.client(), bucket, prefix, files);
    const seeded = performance.now() - started;

    const client = server.client();
    const counter = countRequests(client);
    const storage = s3Storage({ client, bucket, prefix });
    let catalog!: SkillCatalog;
    const rows: Row[] = [];
    const counts = () => ({ ...counter.counts });
    rows.push(await measure('catalog build', counts, counter.reset, async () => (catalog = await SkillCatalog.load(storage, { onWarning: () => {} }))));
    rows.push(
      await measure('reload, nothing changed', counts, counter.reset, async () => {
        await catalog.reload();
        return catalog;
      }),
    );
    await server.client().send(new PutObjectCommand({ Bucket: bucket, Key: prefix + CHANGED, Body: 'changed\n' }));
    rows.push(
      await measure('reload, one file changed', counts, counter.reset, async () => {
        await catalog.reload();
        return catalog;
      }),
    );
    counter.reset();
    started = performance.now();
    await storage.listAll();
    const poll = performance.now() - started;
    const pollLists = counter.counts.LIST ?? 0;

    print(
      `S3 (${server.external ? 'S3_ENDPOINT' : "the tests' s3rver on 127.0.0.1"}, s3://${bucket}/${prefix}; seeded in ${(seeded / 1000).toFixed(1)} s, ${catalog.entries.length} skills served)`,
      ['LIST', 'GET', 'other'],
      rows,
    );
    console.log(
      `  LIST requests per 1000 keys: ${(((rows[0]!.counts.LIST ?? 0) / files.size) * 1000).toFixed(2)} (${files.size} keys, ${Math.ceil(files.size / 1000)} pages of 1000)`,
    );
    console.log(`  a watch poll: ${pollLists} LIST, ${(poll / 1000).toFixed(2)} s`);
    await storage.close();
  } finally {
    await server.stop();
  }
}

async function postgresRun(files: Map<string, string>): Promise<void> {
  const db = await startPostgres();
  const table = `storage_requests_${process.pid}_${randomBytes(4).toString('hex')}`;
  const pool = new pg.Pool({ connectionString: db.connectionString, max: 10 });
  pool.on('error', () => {});
  try {
    await migrate(pool, { table });
    const started = performance.now();
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO ${pg.escapeIdentifier(table)} (namespace, path, content) SELECT '', p, convert_to(c, 'UTF8') FROM unnest($1::text[], $2::text[]) AS f(p, c)`,
        [[...files.keys()], [...files.values()]],
      );
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    const seeded = performance.now() - started;

    // Every query the storage sends goes through pool.query: count them, and the body reads among them.
    const counts: Record<string, number> = {};
    const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
    (pool as { query: unknown }).query = (...args: unknown[]) => {
      counts.queries = (counts.queries ?? 0) + 1;
      if (/^\s*SELECT content\b/i.test(String(args[0]))) counts['body reads'] = (counts['body reads'] ?? 0) + 1;
      return query(...args);
    };
    const reset = () => {
      for (const k of Object.keys(counts)) delete counts[k];
    };
    const storage = postgresStorage({ pool, table });
    let catalog!: SkillCatalog;
    const rows: Row[] = [];
    const snapshot = () => ({ ...counts });
    rows.push(await measure('catalog build', snapshot, reset, async () => (catalog = await SkillCatalog.load(storage, { onWarning: () => {} }))));
    rows.push(
      await measure('reload, nothing changed', snapshot, reset, async () => {
        await catalog.reload();
        return catalog;
      }),
    );
    await storage.put(CHANGED, 'changed\n');
    rows.push(
      await measure('reload, one file changed', snapshot, reset, async () => {
        await catalog.reload();
        return catalog;
      }),
    );
    await storage.put('skill-00007/SKILL.md', `---\nname: skill-00007\ndescription: Changed.\n---\n`);
    rows.push(
      await measure('reload, one SKILL.md changed', snapshot, reset, async () => {
        await catalog.reload();
        return catalog;
      }),
    );
    print(
      `PostgreSQL (table ${table}; seeded in one transaction in ${(seeded / 1000).toFixed(1)} s, ${catalog.entries.length} skills served)`,
      ['queries', 'body reads'],
      rows,
    );
    console.log('  size and sha256 come from the rows, so only SKILL.md bodies are read (for their frontmatter)');
    await storage.close();
  } finally {
    await pool.query(`DROP TABLE IF EXISTS ${pg.escapeIdentifier(table)}`).catch(() => undefined);
    await pool.query(`DROP FUNCTION IF EXISTS ${pg.escapeIdentifier(`${table}_notify`)}()`).catch(() => undefined);
    await pool.query(`DROP TABLE IF EXISTS ${pg.escapeIdentifier(`${table}_gen`)}`).catch(() => undefined);
    await pool.query(`DROP FUNCTION IF EXISTS ${pg.escapeIdentifier(`${table}_bump`)}()`).catch(() => undefined);
    await pool.end();
    await db.stop();
  }
}

const files = tree();
console.log(
  `storage requests for a catalog of ${SKILLS} skills × ${FILES} files (${files.size} files, ${[...files.values()].reduce((n, f) => n + f.length, 0)} bytes)`,
);
await s3Run(files);
await postgresRun(files);
