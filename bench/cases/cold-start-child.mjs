/**
 * One catalog load in a fresh process, for the cold-start case and test/bench/guard.test.ts:
 * imports the packages, loads the catalog from the storage, and prints when each step ended, in ms
 * since the process started (`performance.now()` counts from the process's time origin, before
 * Node's own start-up), and the CPU time the load took (`process.cpuUsage()`, user + system, every
 * thread of the process).
 *
 *   node bench/cases/cold-start-child.mjs <ours|ours-inline|sdk-v2> <storage-json>
 *
 * `ours-inline` opens a folder with `workerThreads: false` (no listing threads).
 * Plain JavaScript run by plain Node, so no loader (tsx) runs before the imports. The storage is
 * the JSON of bench/http/types.ts `StorageSpec`: a folder, a PostgreSQL namespace or an S3 bucket.
 */
const importStart = performance.now();
const [which, spec] = [process.argv[2], JSON.parse(process.argv[3] ?? '{}')];
const quiet = { onWarning: () => {} };

/** Our adapter over the storage (the SDK v2 is handed the same one for S3 and PostgreSQL), and how to release it. */
async function openStorage() {
  if (spec.folder !== undefined) {
    const { fsStorage } = await import('@skillmount/storage-fs');
    return { storage: fsStorage(spec.folder, { workerThreads: which !== 'ours-inline' }), close: async () => {} };
  }
  if (spec.postgres !== undefined) {
    const [{ default: pg }, { postgresStorage }] = await Promise.all([import('pg'), import('@skillmount/storage-postgres')]);
    const pool = new pg.Pool({ connectionString: spec.postgres.connectionString, max: 10 });
    return { storage: postgresStorage({ pool, table: spec.postgres.table, namespace: spec.postgres.namespace }), close: () => pool.end() };
  }
  const { s3Storage } = await import('@skillmount/storage-s3');
  const s3 = spec.s3;
  const storage = s3Storage({
    bucket: s3.bucket,
    endpoint: s3.endpoint,
    region: s3.region,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    checksums: 'WHEN_REQUIRED',
  });
  return { storage, close: async () => storage.close?.() };
}

let load;
if (which === 'ours' || which === 'ours-inline') {
  // The catalog alone, as the SDK v2 side imports its skills module alone: no server, no SDK v1.
  const [{ SkillCatalog }, opened] = await Promise.all([import('@skillmount/core/catalog'), openStorage()]);
  load = { run: () => SkillCatalog.load(opened.storage, quiet), close: opened.close };
} else if (spec.folder !== undefined) {
  const { loadSkills } = await import('@modelcontextprotocol/server/ext/skills/node');
  load = { run: () => loadSkills(spec.folder, quiet), close: async () => {} };
} else {
  const [{ SkillsExtension }, opened] = await Promise.all([import('@modelcontextprotocol/server/ext/skills'), openStorage()]);
  load = { run: () => SkillsExtension.load(opened.storage, quiet), close: opened.close };
}
const cpuStart = process.cpuUsage();
const loadStart = performance.now();
const catalog = await load.run();
const loaded = performance.now();
const cpu = process.cpuUsage(cpuStart);
await load.close();
const report = { skills: catalog.entries.length, importStart, loadStart, loaded, loadCpu: (cpu.user + cpu.system) / 1000 };
process.stdout.write(JSON.stringify(report), () => process.exit(0));
