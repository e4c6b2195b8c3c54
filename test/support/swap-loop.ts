/**
 * A real rename race for the folder-storage attack tests, and the folder they attack: pairs of
 * entries swapped again and again, as someone who can rename inside a served folder would. Linux's renameat2(RENAME_EXCHANGE)
 * through python3's ctypes, in another process, when both exist (an atomic swap: both names always
 * exist); otherwise three plain renames per swap in a worker thread, which opens the same window
 * less often.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { skillMd } from './skill-md.js';
import { tempDir } from './trees.js';

const EXCHANGE = `
import ctypes, os, signal, sys, time
libc = ctypes.CDLL(None, use_errno=True)
end = time.monotonic() + float(sys.argv[1])
pairs = [(os.fsencode(sys.argv[i]), os.fsencode(sys.argv[i + 1])) for i in range(2, len(sys.argv), 2)]
n = 0
def stop(*_):
    print(n)
    sys.exit(0)
signal.signal(signal.SIGTERM, stop)
print("ready", flush=True)
while True:
    for a, b in pairs:
        if libc.renameat2(-100, a, -100, b, 2) != 0:
            sys.exit("renameat2: " + os.strerror(ctypes.get_errno()))
    n += 1
    if n % 512 == 0 and time.monotonic() > end:
        break
print(n)
`;

const RENAMES = `
const { renameSync } = require('node:fs');
const { workerData: { pairs, seconds }, parentPort } = require('node:worker_threads');
const end = Date.now() + seconds * 1000;
let n = 0, stop = false;
parentPort.on('message', () => (stop = true));
parentPort.postMessage('ready');
const round = () => {
  for (let k = 0; k < 256; k++) {
    for (const [a, b] of pairs) { renameSync(a, a + '.swap'); renameSync(b, a); renameSync(a + '.swap', b); }
    n++;
  }
  if (stop || Date.now() > end) parentPort.postMessage(n);
  else setImmediate(round);
};
round();
`;

let exchange: boolean | undefined;

/** True when the atomic swap (python3 + renameat2) runs here. */
export function atomicSwapAvailable(): boolean {
  exchange ??= spawnSync('python3', ['-c', 'import ctypes; ctypes.CDLL(None).renameat2'], { stdio: 'ignore' }).status === 0;
  return exchange;
}

export interface SwapLoop {
  /** How the swap is done. */
  readonly how: 'renameat2' | 'rename';
  /** True until the loop has ended, by `stop()` or by running out of time. */
  readonly running: boolean;
  /** Ends the loop (if still running) and resolves with the number of rounds done. */
  stop(): Promise<number>;
}

/** Swap each pair of entries (absolute paths) in turn, until `stop()` or `seconds` have passed. Resolves once swapping has begun. */
export async function swapLoop(pairs: readonly (readonly [string, string])[], seconds: number, force?: 'rename'): Promise<SwapLoop> {
  const how = force ?? (atomicSwapAvailable() ? 'renameat2' : 'rename');
  if (how === 'rename') {
    const worker = new Worker(RENAMES, { eval: true, workerData: { pairs, seconds } });
    let ready!: () => void;
    const started = new Promise<void>((resolve) => (ready = resolve));
    const done = new Promise<number>((resolve, reject) => {
      worker.on('message', (n: number | 'ready') => (n === 'ready' ? ready() : void worker.terminate().then(() => resolve(n))));
      worker.once('error', reject);
    });
    let ended = false;
    void done.then(
      () => (ended = true),
      () => (ended = true),
    );
    await Promise.race([started, done]);
    return {
      how,
      get running() {
        return !ended;
      },
      stop: () => {
        worker.postMessage('stop');
        return done;
      },
    };
  }
  const child = spawn('python3', ['-c', EXCHANGE, String(seconds), ...pairs.flat()]);
  let out = '';
  let err = '';
  let ready!: () => void;
  const started = new Promise<void>((resolve) => (ready = resolve));
  child.stdout.on('data', (d) => {
    out += d;
    if (out.startsWith('ready\n')) ready();
  });
  child.stderr.on('data', (d) => (err += d));
  const done = new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve(Number(out.slice('ready\n'.length).trim()) || 0);
      else reject(new Error(`the swap loop failed (${code ?? signal}): ${err.trim()}`));
    });
  });
  done.catch(() => {});
  await Promise.race([started, done]);
  return {
    how,
    get running() {
      return child.exitCode === null && child.signalCode === null;
    },
    stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return done;
    },
  };
}

// The folder under attack: public notes in every skill, a secret one symlink away.

export const SECONDS = 2.5;
export const SKILLS = 4;
export const SECRET = 'BEGIN PRIVATE KEY: outside the served folder\n';
export const SECRET_DIGEST = `sha256:${createHash('sha256').update(SECRET).digest('hex')}`;
export const publicNotes = (i: number) => `public notes of skill ${i}\n`;
export const hasSecret = (bytes: Uint8Array | undefined) => bytes !== undefined && Buffer.from(bytes).includes(SECRET);

/** A served folder of SKILLS skills, each with `ref/notes.md` and a hidden `.ref` symlink to the outside folder, which holds `notes.md` too. */
export function arena(): { root: string; outside: string; pairs: [string, string][]; remove: () => void } {
  const tmp = tempDir('skillmount-swap-');
  const root = path.join(tmp.dir, 'served');
  const outside = path.join(tmp.dir, 'outside');
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'notes.md'), SECRET, { mode: 0o600 });
  writeFileSync(path.join(outside, 'SKILL.md'), skillMd('ref'));
  const pairs: [string, string][] = [];
  for (let i = 0; i < SKILLS; i++) {
    const skill = path.join(root, `skill-${i}`);
    mkdirSync(path.join(skill, 'ref'), { recursive: true });
    writeFileSync(path.join(skill, 'SKILL.md'), skillMd(`skill-${i}`));
    writeFileSync(path.join(skill, 'ref', 'notes.md'), publicNotes(i));
    symlinkSync(outside, path.join(skill, '.ref'));
    pairs.push([path.join(skill, 'ref'), path.join(skill, '.ref')]);
  }
  return { root, outside, pairs, remove: tmp.remove };
}

/**
 * Puts every pair back as `arena()` made it (the first entry the folder, the second the symlink):
 * the swapping stops wherever it is, and a skill left with `ref` as the symlink is skipped whole.
 */
export function unswap(pairs: readonly (readonly [string, string])[]): void {
  for (const [folder, link] of pairs) {
    if (!lstatSync(folder).isSymbolicLink()) continue;
    renameSync(folder, `${folder}.swap`);
    renameSync(link, folder);
    renameSync(`${folder}.swap`, link);
  }
}

/**
 * Runs `attempt` again and again for SECONDS (and `minRuns` times at least, 3 by default) while the
 * entries are swapped; returns how many times it ran, and whether the swapping was still going when
 * the attempts were done (else one of them waited for it to end). The swapping stops when the
 * attempts do, or after `swapSeconds` (SECONDS + 30 by default) if they take longer.
 */
export async function duringSwaps(
  pairs: [string, string][],
  attempt: () => Promise<void>,
  { minRuns = 3, swapSeconds = SECONDS + 30 }: { minRuns?: number; swapSeconds?: number } = {},
): Promise<{ runs: number; rounds: number; how: SwapLoop['how']; swapping: boolean }> {
  const loop = await swapLoop(pairs, swapSeconds);
  const end = Date.now() + SECONDS * 1000;
  let runs = 0;
  let rounds = 0;
  let swapping = false;
  try {
    // A few attempts at least, however loaded the machine: the swapping goes on meanwhile.
    while (Date.now() < end || runs < minRuns) {
      await attempt();
      runs++;
    }
    swapping = loop.running;
  } finally {
    rounds = await loop.stop();
  }
  return { runs, rounds, how: loop.how, swapping };
}
