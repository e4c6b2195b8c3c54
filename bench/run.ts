/**
 * skillmount against the official MCP TypeScript SDK v2 (`@modelcontextprotocol/server`), both
 * measured in this one run on the same corpora, storages and machine.
 *
 *   pnpm bench                     # every case, every size (long: the SDK v2 reads S3 one file at a time)
 *   pnpm bench -- --quick          # the smallest sizes, one run of most cases, under two minutes
 *   node --import tsx bench/run.ts --smoke   # the smallest size, one run: checks that it all works
 *   … --out results.md             # also write the printed tables to a file
 *   node --import tsx bench/visible.ts [--quick | --smoke]   # the visibility case alone
 *
 * Needs built packages, the command line's among them (the replicas case runs it; `pnpm bench`
 * builds first when a package's sources are newer than its dist), a PostgreSQL server
 * (`DATABASE_URL`, else an embedded one is started), and starts a loopback S3-protocol server itself.
 */
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { corpusFiles, fileCount, totalBytes, type CorpusSize } from './corpus.js';
import { count, micros, mib, ms, perSecond, ratio, table } from './format.js';
import { machine } from './machine.js';
import { now } from './measure.js';
import { parseMode, planFor } from './plan.js';
import { attachCase, type AttachResult } from './cases/attach.js';
import { buildCase, type BuildResult } from './cases/build.js';
import { coldStartCase, coldStartSection, type ColdStartResult } from './cases/cold-start.js';
import { httpCase, type HttpResult } from './cases/http.js';
import { memoryCase, type MemoryResult } from './cases/memory.js';
import { modernCase, type ModernResult } from './cases/modern.js';
import { reloadCase, type ReloadResult } from './cases/reload.js';
import { replicasCase, replicasSection, type ReplicasResult } from './cases/replicas.js';
import { tenantsCase, tenantsSection, type TenantsResult } from './cases/tenants.js';
import { visibleCase, visibleSection } from './cases/visible.js';
import { folderStores } from './stores/folder.js';
import { postgresStores } from './stores/postgres.js';
import { s3Stores } from './stores/s3.js';
import type { SeededStore, StoreKind } from './stores/store.js';

const argv = process.argv.slice(2);
const mode = parseMode(argv);
const plan = planFor(mode);
const outIndex = argv.indexOf('--out');
const outFile = outIndex >= 0 ? argv[outIndex + 1] : undefined;

const lines: string[] = [];
const print = (line = '') => {
  console.log(line);
  lines.push(line);
};
// From the process's start (performance's time origin), so the imports count too.
const elapsed = () => `${(now() / 1000).toFixed(0)} s`;
const progress = (what: string) => process.stderr.write(`[bench ${elapsed()}] ${what}\n`);

// The AWS SDK warns once about Node 20 support; that says nothing about these figures.
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (!/AWS SDK for JavaScript/.test(warning.message)) console.warn(warning);
});

print(`# skillmount vs the official SDK v2 — ${mode} run`);
print();
print(`- Machine: ${machine()}`);
print(`- Compared with: @modelcontextprotocol/server 2.4.0 (\`SkillsExtension.load\`, \`loadSkills\`, \`createMcpHandler\`), measured in the same process run`);
print(
  `- Figures: medians of the runs shown per case (${mode === 'default' ? '5, or 3 for a case whose single run exceeds ' + plan.longRunMs / 1000 + ' s' : mode === 'quick' ? '3 for builds, else 1' : '1'}); ratio = how many times better ours is (theirs ÷ ours for times, ours ÷ theirs for rates)`,
);
print(`- Command: \`${mode === 'default' ? 'pnpm bench' : mode === 'quick' ? 'pnpm bench -- --quick' : 'node --import tsx bench/run.ts --smoke'}\``);
print();

// --- corpora ---------------------------------------------------------------------------------
const sizes = new Map<string, CorpusSize>();
for (const s of [...plan.build, ...plan.buildS3, ...plan.buildPostgres, plan.reload, plan.reloadS3, plan.memory, plan.http, plan.replicas])
  sizes.set(s.label, s);
print('## Corpora');
print();
print(
  'Deterministic (seeded generator): `group-GG/skill-NNNNN/` folders, each with a SKILL.md and files in `references/`, `scripts/`, `assets/`; every file the stated size.',
);
print();
print(
  table(
    ['corpus', 'skills', 'files', 'bytes'],
    [...sizes.values()].map((s) => [s.label, count(s.skills), count(fileCount(s)), mib(totalBytes(s))]),
  ),
);
print();

const kinds: { folder: StoreKind; s3: StoreKind; s3Bare: StoreKind; postgres: StoreKind } = {
  folder: folderStores(),
  s3: await s3Stores(),
  // The same corpus without a manifest, as a prefix written by other tools: a reload must list it.
  s3Bare: await s3Stores({ manifest: false }),
  postgres: await postgresStores(),
};
const seeded = new Map<string, SeededStore>();
const seedTimes: string[][] = [];
/** The corpus `size` in storage `kind`, seeded once per `purpose` (a case that writes to it gets one of its own). */
async function storeOf(kind: keyof typeof kinds, size: CorpusSize, purpose = ''): Promise<SeededStore> {
  const key = `${kind}:${size.label}${purpose ? `:${purpose}` : ''}`;
  let store = seeded.get(key);
  if (!store) {
    progress(`seeding ${kinds[kind].kind} with ${size.label}${purpose ? ` for ${purpose}` : ''}`);
    const start = now();
    store = await kinds[kind].seed(size, corpusFiles(size));
    seedTimes.push([kinds[kind].kind, `${size.label}${purpose ? ` (${purpose})` : ''}`, ms(now() - start)]);
    seeded.set(key, store);
  }
  return store;
}

const builds: BuildResult[] = [];
const fullBuild = (store: string, size: string) => builds.find((b) => b.store === store && b.size === size)?.ours ?? NaN;
const colds: ColdStartResult[] = [];
const replicas: ReplicasResult[] = [];
let tenants: TenantsResult[] = [];
const reloads: ReloadResult[] = [];
const https: HttpResult[] = [];
let modern: ModernResult | undefined;
const attaches: AttachResult[] = [];
let memory: MemoryResult | undefined;

try {
  // --- catalog build ---------------------------------------------------------------------------
  const buildJobs: [keyof typeof kinds, CorpusSize][] = [
    ...plan.build.map((s): [keyof typeof kinds, CorpusSize] => ['folder', s]),
    ...plan.buildS3.map((s): [keyof typeof kinds, CorpusSize] => ['s3', s]),
    ...plan.buildPostgres.map((s): [keyof typeof kinds, CorpusSize] => ['postgres', s]),
  ];
  for (const [kind, size] of buildJobs) {
    const store = await storeOf(kind, size);
    progress(`build: ${store.kind} ${size.label}`);
    const runs = plan.runsFor(fileCount(size));
    builds.push(await buildCase(store, runs, plan.longRunMs, plan.warmUp && fileCount(size) <= 5_000));
  }
  print('## Catalog build');
  print();
  print(
    'Ours: `SkillCatalog.load(storage)`. SDK v2: `loadSkills(dir)` for the folder, `SkillsExtension.load(storage)` handed the same adapter type (`s3Storage`, `postgresStorage`) for S3 and PostgreSQL. Both built catalogs are checked to publish the same skills, files, digests and sizes.',
  );
  print();
  print(
    table(
      ['storage', 'corpus', 'runs', 'ours', 'SDK v2', 'ratio', 'bodies read (ours)'],
      builds.map((b) => [b.store, b.size, String(b.runs), ms(b.ours), ms(b.theirs), ratio(b.theirs / b.ours), `${count(b.bodiesRead)} of ${count(b.files)}`]),
    ),
  );
  print();

  // --- cold start -------------------------------------------------------------------------------
  for (const [kind, size] of buildJobs) {
    const store = await storeOf(kind, size);
    progress(`cold start: ${store.kind} ${size.label}`);
    colds.push(await coldStartCase(store, plan.coldRuns, plan.longRunMs));
  }
  for (const line of coldStartSection(colds, fullBuild)) print(line);

  // --- reload -----------------------------------------------------------------------------------
  // The folder twice: as a reload without events walks it, and with its watch on (the change feed).
  const reloadJobs: [keyof typeof kinds, CorpusSize, boolean][] = [
    ['folder', plan.reload, false],
    ['folder', plan.reload, true],
    ['s3', plan.reloadS3, false],
    ['s3Bare', plan.reloadS3, false],
    ['postgres', plan.reload, false],
  ];
  for (const [kind, size, watched] of reloadJobs) {
    const store = await storeOf(kind, size);
    progress(`reload: ${store.kind} ${size.label}${watched ? ', watched' : ''}`);
    const unwatched = watched ? reloads.find((r) => r.store === store.kind && r.size === size.label && !r.watched) : undefined;
    reloads.push(await reloadCase(store, plan.reloadRuns, plan.longRunMs, watched, unwatched));
  }
  print('## Reload');
  print();
  print(
    'A loaded catalog reloaded with nothing changed, then after rewriting 1% of the files (every hundredth, SKILL.md files among them). Bodies read are counted at the storage, the same way for both. ' +
      '"watch on": the folder storage watched (its change feed), each timed reload started once the events have arrived; the SDK v2 figures there are those of the row above (it has no change feed).',
  );
  print();
  const reloadRows: string[][] = [];
  for (const r of reloads) {
    for (const [what, side] of [
      ['nothing changed', r.unchanged],
      [`1% changed (${r.changedFiles} files)`, r.changed],
    ] as const) {
      reloadRows.push([
        r.watched ? `${r.store}, watch on` : r.store,
        r.size,
        r.runs[0] === r.runs[1] ? String(r.runs[0]) : `${r.runs[0]} / ${r.runs[1]}`,
        what,
        `${ms(side.ours.ms)}`,
        count(side.ours.bodies),
        `${ms(side.theirs.ms)}`,
        count(side.theirs.bodies),
        ratio(side.theirs.ms / side.ours.ms),
        Number.isNaN(fullBuild(r.store, r.size)) ? '—' : `${((side.ours.ms / fullBuild(r.store, r.size)) * 100).toFixed(1)}%`,
      ]);
    }
  }
  print(table(['storage', 'corpus', 'runs', 'reload', 'ours', 'ours: bodies', 'SDK v2', 'SDK v2: bodies', 'ratio', 'ours vs our full build'], reloadRows));
  print();

  // --- memory -------------------------------------------------------------------------------------
  {
    const store = await storeOf('folder', plan.memory);
    progress(`memory: ${plan.memory.label}`);
    memory = await memoryCase(store, plan.memoryRuns);
    const m = memory;
    const figures = (side: MemoryResult['ours']) => [side.peakRssGrowth, side.rssGrowth, side.heapRetained];
    const shares = (ours: MemoryResult['ours'], theirs: MemoryResult['ours']) =>
      figures(ours).map((v, i) => `${((v / figures(theirs)[i]!) * 100).toFixed(0)}%`);
    print('## Memory of a loaded catalog');
    print();
    print(
      `${m.size} from a folder (${count(m.files)} files), each side loaded in its own fresh process (\`--expose-gc\`)${m.runs > 1 ? `, median of ${m.runs} processes per side` : ''}. Growth is over the process's RSS after its imports and a full GC; heap retained is measured after the load and a full GC, with the catalog held.`,
    );
    print();
    print(
      table(
        ['', 'peak RSS growth', 'RSS growth after GC', 'heap retained'],
        [
          ['ours', ...figures(m.ours).map(mib)],
          ['ours, `workerThreads: false`', ...figures(m.oursInline).map(mib)],
          ['SDK v2', ...figures(m.theirs).map(mib)],
          ['ours / SDK v2', ...shares(m.ours, m.theirs)],
          ['ours (`workerThreads: false`) / SDK v2', ...shares(m.oursInline, m.theirs)],
        ],
      ),
    );
    print();
  }

  // --- HTTP ---------------------------------------------------------------------------------------
  {
    const folder = await storeOf('folder', plan.http);
    const postgres = await storeOf('postgres', plan.http);
    // The smoke run checks the wiring, not the figures: each of our four servers once, across the two storages.
    const smoke = mode === 'smoke';
    progress(`http: folder ${plan.http.label}`);
    const httpRuns = plan.httpRuns;
    https.push(await httpCase('folder', plan.http.label, folder.served!, httpRuns, smoke ? ['sdk-v2', 'fastify-stateless', 'express-session'] : undefined));
    progress(`http: PostgreSQL ${plan.http.label}`);
    https.push(
      await httpCase(
        'PostgreSQL',
        plan.http.label,
        postgres.served!,
        httpRuns,
        // The quick run measures Express on the folder only.
        smoke ? ['sdk-v2', 'fastify-session', 'express-stateless'] : mode === 'quick' ? ['sdk-v2', 'fastify-stateless', 'fastify-session'] : undefined,
      ),
    );
    if (mode === 'default') {
      progress(`http: folder without the bytes cache ${plan.http.label}`);
      https.push(
        await httpCase('folder, cacheBytes 0', plan.http.label, { ...folder.served!, cacheBytes: 0 }, httpRuns, [
          'sdk-v2',
          'fastify-stateless',
          'express-stateless',
        ]),
      );
    }
    print('## Over HTTP (127.0.0.1)');
    print();
    print(
      'Each server in its own process; one lean client (keep-alive HTTP, JSON-RPC) for all of them: a full `skills/list` walk, then `resources/read` of every file with 1 and with 8 requests in flight, each file checked by size and sha256 against its entry. SDK v2: `createMcpHandler` with a fresh `McpServer` per request and the catalog attached to it, behind a node:http adapter. Ours: `@skillmount/fastify` and `@skillmount/express`, stateless and with sessions (both answer the skills requests from the catalog, with no SDK server or transport per request), default catalog options unless the storage column says otherwise (the verified-bytes cache, `cacheBytes`, is on by default; `cacheBytes 0` rows read storage on every request). One untimed pass first. Server CPU per read: the user + system CPU time of the server process (`process.cpuUsage()`, asked over IPC before and after each pass) divided by the files read; its ratio is theirs ÷ ours. It moves far less with the load on the machine than the rates.',
    );
    print();
    const rows: string[][] = [];
    for (const h of https) {
      const v2 = h.sides.find((s) => s.kind === 'sdk-v2')!;
      for (const side of h.sides) {
        const mine = side.kind !== 'sdk-v2';
        rows.push([
          h.storage,
          side.kind,
          `${ms(side.listMs)} (${side.pages} page${side.pages === 1 ? '' : 's'})`,
          mine ? ratio(v2.listMs / side.listMs) : '',
          perSecond(side.read1),
          mine ? ratio(side.read1 / v2.read1) : '',
          perSecond(side.read8),
          mine ? ratio(side.read8 / v2.read8) : '',
          micros(side.cpu1),
          mine ? ratio(v2.cpu1 / side.cpu1) : '',
          micros(side.cpu8),
          mine ? ratio(v2.cpu8 / side.cpu8) : '',
        ]);
      }
    }
    print(`Corpus ${plan.http.label} (${count(fileCount(plan.http))} files).`);
    print();
    print(
      table(
        [
          'storage',
          'server',
          'list walk',
          'ratio',
          'verified reads, 1 in flight',
          'ratio',
          'verified reads, 8 in flight',
          'ratio',
          'server CPU per read, 1 in flight',
          'ratio',
          'server CPU per read, 8 in flight',
          'ratio',
        ],
        rows,
      ),
    );
    print();
  }

  // --- protocol 2026-07-28 ---------------------------------------------------------------------------
  {
    const folder = await storeOf('folder', plan.http);
    progress(`http 2026-07-28: folder ${plan.http.label}`);
    modern = await modernCase(plan.http.label, folder.served!, plan.httpRuns);
    print('## Over HTTP, protocol 2026-07-28');
    print();
    print(
      'Verified reads of every file with 8 requests in flight, folder storage, by the same lean client speaking 2026-07-28 (`_meta` envelope and headers on every request, no session). SDK v2: `createMcpHandler` with a fresh `McpServer` per request. Ours: `@skillmount/fastify` stateless, which answers skills methods from the catalog with no server per request on both eras; its 2025-11-25 stateless figure beside them.',
    );
    print();
    const v2 = modern.sides.find((s) => s.kind === 'sdk-v2')!;
    print(`Corpus ${modern.size} (${count(modern.files)} files).`);
    print();
    print(
      table(
        ['server', 'verified reads, 8 in flight', 'ratio to SDK v2'],
        modern.sides.map((side) => [side.label, perSecond(side.read8), side === v2 ? '' : ratio(side.read8 / v2.read8)]),
      ),
    );
    print();
  }

  // --- per-request setup --------------------------------------------------------------------------
  for (const size of new Map([plan.http, plan.memory].map((s) => [s.label, s])).values()) {
    const store = await storeOf('folder', size);
    progress(`attach: ${size.label}`);
    attaches.push(await attachCase(store, plan.attachRuns));
  }
  print('## Per-request server setup');
  print();
  print(
    'A new `McpServer` with the skills attached, as a stateless endpoint does for every request: SDK v1 `McpServer` + `attach` for ours (as the endpoints build it, and with one shared `jsonSchemaValidator`), SDK v2 `McpServer` + `SkillsExtension.attach` for theirs. None of it depends on the catalog size.',
  );
  print();
  print(
    table(
      ['catalog', 'ours (SDK v1 defaults)', 'ours (shared validator)', 'SDK v2'],
      attaches.map((a) => [a.size, `${a.ours.toFixed(0)} µs`, `${a.oursSharedValidator.toFixed(0)} µs`, `${a.theirs.toFixed(0)} µs`]),
    ),
  );
  print();

  // --- replicas -------------------------------------------------------------------------------------
  {
    // Stores of their own: publishing writes to them, and the other cases' corpora stay as they were.
    const folder = await storeOf('folder', plan.replicas);
    for (const kind of ['postgres', 's3'] as const) {
      const store = await storeOf(kind, plan.replicas, 'replicas');
      progress(`replicas: ${store.kind} ${plan.replicas.label}`);
      replicas.push(await replicasCase(store, folder, plan.replicaPasses, plan.replicaPublishes));
    }
    for (const line of replicasSection(replicas, availableParallelism())) print(line);
  }

  // --- many tenants ----------------------------------------------------------------------------------
  progress(`tenants: ${plan.tenants.join(', ')}`);
  tenants = await tenantsCase(kinds.postgres.connectionString!, plan.tenantSize, plan.tenants);
  for (const line of tenantsSection(tenants)) print(line);

  // --- one catalog with visible() or a tenant per user ------------------------------------------------
  progress(`visibility: ${plan.visible.corpus.users} users`);
  for (const line of visibleSection(await visibleCase(kinds.postgres.connectionString!, plan.visible.corpus, plan.visible.runs))) print(line);

  // --- targets --------------------------------------------------------------------------------------
  print('## Targets');
  print();
  print(table(['target', 'measured', 'met'], targetRows()));
  print();
  print('## Seeding (not measured against anything)');
  print();
  print(table(['storage', 'corpus', 'time'], seedTimes));
  print();
  print(`Total run time: ${elapsed()} (wall time from the start of this process; a build before it is not counted).`);
  progress('done');
} finally {
  for (const store of seeded.values()) await store.remove().catch(() => undefined);
  for (const kind of Object.values(kinds)) await kind.stop().catch(() => undefined);
  if (outFile) writeFileSync(outFile, lines.join('\n') + '\n');
}

function targetRows(): string[][] {
  const rows: string[][] = [];
  const mark = (ok: boolean) => (ok ? 'yes' : '**no**');
  for (const b of builds) {
    const goal = b.store === 'folder' ? 6 : 10;
    if (b.store === 'folder' && b.files < 10_000) continue;
    rows.push([`build from ${b.store}, ${b.size}: ≥ ${goal}× the SDK v2`, ratio(b.theirs / b.ours), mark(b.theirs / b.ours >= goal)]);
  }
  for (const r of reloads) {
    const share = r.unchanged.ours.ms / (builds.find((b) => b.store === r.store && b.size === r.size)?.ours ?? NaN);
    const store = r.watched ? `${r.store} (watch on)` : r.store;
    rows.push([`reload, nothing changed, ${store} ${r.size}: 0 bodies read`, count(r.unchanged.ours.bodies), mark(r.unchanged.ours.bodies === 0)]);
    // A store with no build of its own (S3 without a manifest) has no share to state.
    if (!Number.isNaN(share))
      rows.push([`reload, nothing changed, ${store} ${r.size}: < 10% of a full build`, `${(share * 100).toFixed(1)}%`, mark(share < 0.1)]);
  }
  if (memory) {
    const share = memory.ours.peakRssGrowth / memory.theirs.peakRssGrowth;
    // The target is for a 40 000-file catalog; at smaller sizes both sides' growth is mostly the V8 young generation.
    const applies = memory.files >= 40_000;
    rows.push([
      `peak RSS growth, ${memory.size} catalog: ≤ 50% of the SDK v2's${applies ? '' : ' (target set at 40,000 files)'}`,
      `${(share * 100).toFixed(0)}%`,
      applies ? mark(share <= 0.5) : 'n/a',
    ]);
  }
  for (const h of https) {
    const v2 = h.sides.find((s) => s.kind === 'sdk-v2')!;
    for (const side of h.sides) {
      if (side.kind === 'sdk-v2') continue;
      rows.push([
        `HTTP ${h.storage}, ${side.kind}: server CPU per verified read, 8 in flight, ≥ 1.5× better than the SDK v2`,
        ratio(v2.cpu8 / side.cpu8),
        mark(v2.cpu8 / side.cpu8 >= 1.5),
      ]);
      rows.push([
        `HTTP ${h.storage}, ${side.kind}: verified reads, 8 in flight ≥ 1.5× the SDK v2`,
        ratio(side.read8 / v2.read8),
        mark(side.read8 / v2.read8 >= 1.5),
      ]);
      rows.push([`HTTP ${h.storage}, ${side.kind}: list walk no slower than the SDK v2`, ratio(v2.listMs / side.listMs), mark(side.listMs <= v2.listMs)]);
    }
  }
  if (modern) {
    const v2 = modern.sides.find((s) => s.kind === 'sdk-v2')!;
    const ours = modern.sides.find((s) => s.kind !== 'sdk-v2' && s.era === 'modern')!;
    rows.push([`HTTP 2026-07-28, folder: verified reads, 8 in flight ≥ 2× the SDK v2`, ratio(ours.read8 / v2.read8), mark(ours.read8 / v2.read8 >= 2)]);
  }
  return rows;
}
