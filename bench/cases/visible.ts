/**
 * One catalog with a `visible()` rule (A) against a tenant per user (B), for the same users and
 * skills, over HTTP with the lean client of bench/cases/http.ts. Each side is a Fastify server in a
 * fresh process (bench/cases/visible-server.ts) over one PostgreSQL table: A's catalog is one
 * namespace holding every user's skills and the shared ones, B's tenants are a namespace per user
 * holding that user's skills and a copy of the shared ones. Measured in one run: a user's first
 * `skills/list`, memory once every user has been answered, then `skills/list` and
 * `resources/read` of a user's SKILL.md in steady state, with the server's CPU per request.
 */
import path from 'node:path';
import pg from 'pg';
import { postgresStorage } from '@skillmount/storage-postgres';
import { connect, type BenchClient, type Entry, type Resource } from '../http/client.js';
import { forkServer, type ForkedServer } from '../http/servers.js';
import { count, mib, ms, perSecond, micros, ratio, table } from '../format.js';
import { mapLimit, median, timed } from '../measure.js';
import { ownPaths, ownSkillMdUri, seenBy, sharedPaths, userName, usersFileBytes, usersLabel, type UsersCorpus } from '../users-corpus.js';
import { cpuTimed } from './http.js';
import { p95 } from './tenants.js';
import type { VisibleServerSpec, VisibleSideName } from './visible-server.js';

export interface VisibleSide {
  /** The catalog loaded before the server listens (A); 0 for B, whose tenants load on demand. */
  loadMs: number;
  firstMedian: number;
  firstP95: number;
  rssGrowth: number;
  heapGrowth: number;
  /** Median ms of one `skills/list`, one request in flight, every user in memory. */
  warmListMs: number;
  /** `skills/list` and `resources/read` (a user's SKILL.md) per second, 8 in flight, and server CPU µs per request. */
  list8: number;
  listCpu: number;
  read8: number;
  readCpu: number;
  /** visible() calls per `skills/list` (A). */
  ruleCallsPerList: number;
}

export interface VisibleResult {
  label: string;
  users: number;
  /** Skills and files in A's one catalog, and files over all of B's tenants. */
  skills: number;
  files: number;
  tenantFiles: number;
  /** Skills each user sees. */
  perUser: number;
  runs: number;
  a: VisibleSide;
  b: VisibleSide;
}

const SERVER = path.join(import.meta.dirname, 'visible-server.ts');
const BATCH = 2000;
const IN_FLIGHT = 8;
const WARM_UP_PASSES = 3;

/** Seeds both layouts in a table of its own, measures both sides, drops the table. */
export async function visibleCase(connectionString: string, corpus: UsersCorpus, runs: number): Promise<VisibleResult> {
  const pool = new pg.Pool({ connectionString, max: 4 });
  pool.on('error', () => undefined);
  const tableName = `bench_visible_${process.pid}`;
  const namespace = 'bench-visible-all';
  const prefix = 'bench-visible-tenant/';
  const users = Array.from({ length: corpus.users }, (_, u) => userName(u));
  const started: ForkedServer[] = [];
  const clients: BenchClient[] = [];
  try {
    await postgresStorage({ pool, table: tableName }).migrate();
    const shared = sharedPaths(corpus);
    const rows: [string, string][] = shared.map((p) => [namespace, p]);
    for (const user of users) {
      for (const p of ownPaths(corpus, user)) rows.push([namespace, p], [`${prefix}${user}`, p]);
      for (const p of shared) rows.push([`${prefix}${user}`, p]);
    }
    await insert(pool, tableName, corpus, rows);
    const spec = (side: VisibleSideName): VisibleServerSpec => ({ side, connectionString, table: tableName, namespace, prefix, users: corpus.users });
    const perUser = corpus.ownSkills + corpus.sharedSkills;

    // One side at a time up to the memory figure: A's load and B's first requests have the machine to themselves.
    const sides: Side[] = [];
    for (const name of ['one-catalog', 'tenants'] as const) {
      const server = await forkServer(SERVER, [JSON.stringify(spec(name))], `visibility ${name}`, ['--expose-gc']);
      started.push(server);
      const client = await connect(server.url);
      clients.push(client);
      const first: number[] = [];
      const files: Resource[] = [];
      for (const user of users) {
        const { ms: took, value } = await timed(() => client.call('skills/list', {}, { 'x-user': user }));
        first.push(took);
        files.push(checkedPage(user, value, perUser));
      }
      const memory = await server.ask<{ rssGrowth: number; heapGrowth: number; tenants: number }>('memory', 'memory');
      if (name === 'tenants' && memory.tenants !== corpus.users) throw new Error(`bench: ${memory.tenants} of ${corpus.users} tenants stayed in memory`);
      sides.push({
        server,
        client,
        files,
        first,
        memory,
        loadMs: Number(server.ready.loadMs),
        samples: { warm: [], list8: [], listCpu: [], read8: [], readCpu: [], calls: [] },
      });
    }

    const owner = new Map(sides[0]!.files.map((file, u) => [file.uri, users[u]!]));
    const headersOf = (file: Resource) => ({ 'x-user': owner.get(file.uri)! });
    const listAll = (side: Side) =>
      mapLimit(users, IN_FLIGHT, async (user) => checkedCount(user, await side.client.call('skills/list', {}, { 'x-user': user }), perUser));
    // Untimed passes first: connections, the first read of every SKILL.md into the catalogs' caches, and
    // JIT (after one pass only, B's reads still took up to twice A's CPU in the timed pass).
    for (let pass = 0; pass < WARM_UP_PASSES; pass++) {
      for (const side of sides) {
        await listAll(side);
        await side.client.readAll(side.files, IN_FLIGHT, headersOf);
      }
    }
    // Runs interleave the sides, so that drift on the machine affects them alike.
    for (let run = 0; run < runs; run++) {
      for (const side of sides) {
        const warm: number[] = [];
        for (const user of users) warm.push((await timed(() => side.client.call('skills/list', {}, { 'x-user': user }))).ms);
        side.samples.warm.push(median(warm));
        const callsBefore = await side.server.ask<number>('calls', 'calls');
        const list = await cpuTimed(side.server, () => listAll(side));
        side.samples.calls.push(((await side.server.ask<number>('calls', 'calls')) - callsBefore) / users.length);
        side.samples.list8.push((users.length / list.ms) * 1000);
        side.samples.listCpu.push(list.cpu / users.length);
        const read = await cpuTimed(side.server, () => side.client.readAll(side.files, IN_FLIGHT, headersOf));
        side.samples.read8.push((side.files.length / read.ms) * 1000);
        side.samples.readCpu.push(read.cpu / side.files.length);
      }
    }
    const [a, b] = sides.map(summary) as [VisibleSide, VisibleSide];
    const skills = corpus.users * corpus.ownSkills + corpus.sharedSkills;
    return {
      label: usersLabel(corpus),
      users: corpus.users,
      skills,
      files: skills * corpus.filesPerSkill,
      tenantFiles: corpus.users * perUser * corpus.filesPerSkill,
      perUser,
      runs,
      a,
      b,
    };
  } finally {
    await Promise.allSettled(clients.map((c) => c.close()));
    await Promise.allSettled(started.map((s) => s.stop()));
    await pool.query(`DROP TABLE IF EXISTS ${tableName}`).catch(() => undefined);
    await pool.query(`DROP FUNCTION IF EXISTS ${tableName}_notify() CASCADE`).catch(() => undefined);
    await pool.end();
  }
}

interface Side {
  server: ForkedServer;
  client: BenchClient;
  /** Each user's SKILL.md, in the order of the users. */
  files: Resource[];
  first: number[];
  memory: { rssGrowth: number; heapGrowth: number };
  loadMs: number;
  samples: Record<'warm' | 'list8' | 'listCpu' | 'read8' | 'readCpu' | 'calls', number[]>;
}

function summary(side: Side): VisibleSide {
  const { samples } = side;
  return {
    loadMs: side.loadMs,
    firstMedian: median(side.first),
    firstP95: p95(side.first),
    rssGrowth: side.memory.rssGrowth,
    heapGrowth: side.memory.heapGrowth,
    warmListMs: median(samples.warm),
    list8: median(samples.list8),
    listCpu: median(samples.listCpu),
    read8: median(samples.read8),
    readCpu: median(samples.readCpu),
    ruleCallsPerList: median(samples.calls),
  };
}

async function insert(pool: pg.Pool, tableName: string, corpus: UsersCorpus, rows: readonly [string, string][]): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) {
    const batch = rows.slice(i, i + BATCH);
    await pool.query(`INSERT INTO ${tableName} (namespace, path, content) SELECT * FROM unnest($1::text[], $2::text[], $3::bytea[])`, [
      batch.map((r) => r[0]),
      batch.map((r) => r[1]),
      batch.map((r) => Buffer.from(usersFileBytes(corpus, r[1]))),
    ]);
  }
  await pool.query(`ANALYZE ${tableName}`);
}

/** A user's page holds exactly the skills they may see, on one page; returns their SKILL.md's resource. */
function checkedPage(user: string, page: { skills: Entry[]; nextCursor?: string }, perUser: number): Resource {
  const uris = page.skills.map((s) => s.uri);
  if (uris.length !== perUser || page.nextCursor !== undefined || !uris.every((uri) => seenBy(user, uri)))
    throw new Error(`bench: ${user} was listed ${uris.length} skills (${uris.slice(0, 8).join(', ')}), not their ${perUser} on one page`);
  const mine = page.skills.find((s) => s.uri === ownSkillMdUri(user));
  const file = Array.isArray(mine?.resources) ? mine.resources.find((r) => r.uri === mine.uri) : undefined;
  if (!file) throw new Error(`bench: ${user}'s page has no ${ownSkillMdUri(user)} with its SKILL.md listed`);
  return file;
}

function checkedCount(user: string, page: { skills: Entry[] }, perUser: number): void {
  if (page.skills.length !== perUser) throw new Error(`bench: ${user} was listed ${page.skills.length} skills, not ${perUser}`);
}

const time = (value: number) => (value < 1 ? `${(value * 1000).toFixed(0)} µs` : ms(value));
/** A's figure over B's, to two significant digits below 0.1. */
const aOverB = (a: number, b: number) => {
  const value = a / b;
  return Number.isFinite(value) && value > 0 && value < 0.1 ? `${value.toPrecision(2)}×` : ratio(value);
};

export function visibleSection(r: VisibleResult): string[] {
  const { a, b } = r;
  return [
    '## One catalog with visible() or a tenant per user',
    '',
    `${r.label}. ` +
      `A: one \`SkillCatalog\` over one PostgreSQL namespace holding every user's skills and the shared ones once (${count(r.skills)} skills, ${count(r.files)} files), ` +
      "loaded before the server listens, served with `visible: (entry, ctx) => entry.uri is in ctx.user's folder or the shared one`. " +
      'B: `tenantCatalogs` with `key: (ctx) => ctx.user`, `storage: (user) => postgresStorage({ pool, table, namespace })`, `max` = the user count, never idle; ' +
      `each tenant a namespace holding its user's skills and a copy of the shared ones (${count(r.tenantFiles)} files over all tenants). ` +
      "Both: `@skillmount/fastify`, stateless, the user from an `x-user` header through the plugin's `context` option, one pool of 10 connections, the default catalog options (verified-bytes cache on), " +
      `each side in its own fresh process (\`--expose-gc\`). Every user sees ${r.perUser} skills, on one page.`,
    '',
    "First `skills/list`: each user's first request, users one after the other, over HTTP (B loads the user's catalog then; A's was loaded before it listened, its load time in the first row). " +
      "Memory: RSS and heap after a full GC once every user has been answered, over a baseline taken after the imports, the pool's first connection and a full GC. " +
      `Then, the sides interleaved, ${r.runs === 1 ? 'one timed pass' : `${r.runs} timed passes (medians)`} after ${WARM_UP_PASSES} untimed ones, by the lean client of the HTTP case: ` +
      "every user's `skills/list` with 1 and with 8 requests in flight, then `resources/read` of each user's SKILL.md with 8 in flight, checked by size and sha256; " +
      "server CPU per request as there. A/B: A's figure divided by B's, both measured in this run (below 1, A takes less time, memory or CPU, or answers fewer requests a second).",
    '',
    table(
      ['', 'A: one catalog, `visible()`', 'B: `tenantCatalogs`, a tenant per user', 'A/B'],
      [
        ['catalog load before the first request', ms(a.loadMs), 'none (a tenant loads on its first request)', '—'],
        ["a user's first `skills/list`: median", time(a.firstMedian), time(b.firstMedian), aOverB(a.firstMedian, b.firstMedian)],
        ["a user's first `skills/list`: p95", time(a.firstP95), time(b.firstP95), aOverB(a.firstP95, b.firstP95)],
        ['RSS growth, every user answered', mib(a.rssGrowth), mib(b.rssGrowth), aOverB(a.rssGrowth, b.rssGrowth)],
        ['heap growth, every user answered', mib(a.heapGrowth), mib(b.heapGrowth), aOverB(a.heapGrowth, b.heapGrowth)],
        ['`skills/list`, 1 in flight: median', time(a.warmListMs), time(b.warmListMs), aOverB(a.warmListMs, b.warmListMs)],
        ['`skills/list`, 8 in flight', perSecond(a.list8), perSecond(b.list8), aOverB(a.list8, b.list8)],
        ['server CPU per `skills/list`, 8 in flight', micros(a.listCpu), micros(b.listCpu), aOverB(a.listCpu, b.listCpu)],
        ["`resources/read` of a user's SKILL.md, 8 in flight", perSecond(a.read8), perSecond(b.read8), aOverB(a.read8, b.read8)],
        ['server CPU per `resources/read`, 8 in flight', micros(a.readCpu), micros(b.readCpu), aOverB(a.readCpu, b.readCpu)],
        ['`visible()` calls per `skills/list`', count(Math.round(a.ruleCallsPerList)), '— (no rule)', '—'],
      ],
    ),
    '',
    `- Memory: A holds every skill once; B holds a catalog per user, the shared skills copied into each. A/B: ${aOverB(a.heapGrowth, b.heapGrowth)} of the heap, ${aOverB(a.rssGrowth, b.rssGrowth)} of the RSS (the heap counts live objects only; RSS also counts what the allocator kept from the loads and requests).`,
    `- \`skills/list\`: A fills a page by asking \`visible()\` about the catalog's skills in URI order until the page is full, so a user who sees fewer skills than a page holds (${r.perUser} here, pages of 100) has the whole catalog walked: ` +
      `${count(Math.round(a.ruleCallsPerList))} calls per request. Its cost grows with every user's skills, not with the user's own: ${micros(a.listCpu)} of server CPU per list against B's ${micros(b.listCpu)} (${aOverB(a.listCpu, b.listCpu)}).`,
    `- \`resources/read\`: A asks the rule only about the skills whose folders hold the file, whatever the catalog's size: server CPU per read A/B ${aOverB(a.readCpu, b.readCpu)}.`,
    `- First request: B loads a user's catalog from storage on their first request (median ${time(b.firstMedian)}, p95 ${time(b.firstP95)}); A pays one load of every user's skills (${ms(a.loadMs)}) before its first request, and then answers any user's first request as a warm one.`,
    '',
  ];
}
