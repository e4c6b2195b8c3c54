/**
 * The `skills` installer (npm `skills`), run the way a user runs `npx skills add <url>`, on the
 * Node.js that runs the test. Telemetry is off by the installer's own switches, and a preload
 * refuses and records any connection beyond 127.0.0.1.
 */
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const REPO = path.resolve(import.meta.dirname, '../..');
const CLI = path.join(REPO, 'node_modules/skills/bin/cli.mjs');
const PRELOAD = pathToFileURL(path.join(import.meta.dirname, 'fixtures/loopback-only.mjs')).href;

export interface InstallRun {
  stdout: string;
  /** Every host the installer opened a connection to. */
  hosts: string[];
}

/**
 * `skills add <url> --agent claude-code --skill '*' --copy -y` in `project`, with `home` as its
 * home folder (where it keeps nothing of the user's). Rejects with its output when it fails.
 */
export async function skillsAdd(url: string, project: string, home: string): Promise<InstallRun> {
  return skills(['add', url, '--agent', 'claude-code', '--skill', '*', '--copy', '-y'], project, home);
}

/**
 * `skills <args…>` in `project` (`update -p -y`, `experimental_install`), with `home` as its home
 * folder; the installer's own child runs (an update re-runs `add`) inherit the same switches and
 * preload. Rejects with its output when it exits with an error.
 */
export async function skills(args: string[], project: string, home: string): Promise<InstallRun> {
  const log = path.join(home, 'connections.log');
  writeFileSync(log, '');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    // The installer's own switches: no telemetry, no audit look-up.
    DISABLE_TELEMETRY: '1',
    DO_NOT_TRACK: '1',
    NO_COLOR: '1',
    NODE_OPTIONS: `--import ${PRELOAD}`,
    SKILLMOUNT_CONNECT_LOG: log,
  };
  try {
    const { stdout } = await run(process.execPath, [CLI, ...args], { cwd: project, env, timeout: 120_000 });
    return { stdout, hosts: readFileSync(log, 'utf8').split('\n').filter(Boolean) };
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`skills ${args.join(' ')} failed: ${e.message}\n--- stdout\n${e.stdout}\n--- stderr\n${e.stderr}`);
  }
}

/** Every file under `dir`, by `/` path relative to it, with its bytes. */
export function readTree(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (rel: string) => {
    for (const name of readdirSync(path.join(dir, rel))) {
      const child = rel === '' ? name : `${rel}/${name}`;
      if (statSync(path.join(dir, child)).isDirectory()) walk(child);
      else files.set(child, readFileSync(path.join(dir, child)));
    }
  };
  walk('');
  return files;
}

/** The `wellKnownDigest` of each skill in the project's `skills-lock.json`. */
export function lockedDigests(project: string): Record<string, string> {
  const lock = JSON.parse(readFileSync(path.join(project, 'skills-lock.json'), 'utf8')) as { skills: Record<string, { wellKnownDigest?: string }> };
  return Object.fromEntries(Object.entries(lock.skills).map(([name, entry]) => [name, entry.wellKnownDigest ?? '']));
}
