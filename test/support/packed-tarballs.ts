/**
 * The packages' tarballs as scripts/pack-all.mjs makes them, packed once per build and shared by
 * the files that install or judge them. They are kept under .tmp/test-packs/<key>, the key a digest of
 * everything packing reads: every file of packages/ but node_modules, the root package.json (it
 * pins pnpm), the workspace file, .npmrc, LICENSE and the scripts that pack.
 * A set is packed into a folder of its own and renamed into place whole, so suites running at
 * once never see half a set; two that miss at once both pack, and the first rename wins.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const CACHE = path.join(ROOT, '.tmp/test-packs');
/** Sets of other builds are removed once this old. */
const KEEP_MS = 24 * 3600_000;

function* filesUnder(dir: string): Generator<string> {
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    if (d.name === 'node_modules') continue;
    const full = path.join(dir, d.name);
    if (d.isDirectory()) yield* filesUnder(full);
    else if (d.isFile()) yield full;
  }
}

function buildKey(): string {
  const hash = createHash('sha256');
  const topLevel = ['package.json', 'pnpm-workspace.yaml', '.npmrc', 'LICENSE'].map((name) => path.join(ROOT, name)).filter((file) => existsSync(file));
  const scripts = ['pack-all.mjs', 'dist-state.mjs'].map((name) => path.join(ROOT, 'scripts', name));
  for (const file of [...topLevel, ...scripts, ...filesUnder(path.join(ROOT, 'packages'))].sort()) {
    hash.update(`${path.relative(ROOT, file)}\0`);
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex').slice(0, 24);
}

const tarballsIn = (dir: string) =>
  readdirSync(dir)
    .filter((name) => name.endsWith('.tgz'))
    .sort()
    .map((name) => path.join(dir, name));

/** Every package's tarball, sorted by path: from the cache when this build was packed before. */
export async function packedTarballs(): Promise<string[]> {
  const key = buildKey();
  const done = path.join(CACHE, key);
  if (existsSync(done)) return tarballsIn(done);

  mkdirSync(CACHE, { recursive: true });
  for (const name of readdirSync(CACHE)) {
    const full = path.join(CACHE, name);
    if (Date.now() - statSync(full).mtimeMs > KEEP_MS) rmSync(full, { recursive: true, force: true });
  }
  const fresh = mkdtempSync(path.join(CACHE, `${key}.packing-`));
  try {
    // Packing runs in the workspace, with the pnpm that started the tests when there is one.
    const { stdout } = await run(process.execPath, [path.join(ROOT, 'scripts/pack-all.mjs'), fresh], { cwd: ROOT, timeout: 300_000 });
    const printed = stdout.trim().split('\n');
    if (printed.join('\n') !== tarballsIn(fresh).join('\n')) throw new Error(`pack-all printed ${printed.join(', ')}; ${fresh} holds others`);
    try {
      renameSync(fresh, done);
    } catch (error) {
      // Another suite packed the same build first: use its set.
      if (!existsSync(done)) throw error;
    }
  } finally {
    rmSync(fresh, { recursive: true, force: true });
  }
  return tarballsIn(done);
}
