/**
 * A real rename race for the folder-storage attack tests: two entries swapped again and again by
 * another process, as someone who can rename inside a served folder would. Linux's
 * renameat2(RENAME_EXCHANGE) through python3's ctypes when both exist (an atomic swap: one of the
 * two names always exists); otherwise two plain renames in a loop through a third name, in a shell
 * process, which opens the same window less often.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';

const EXCHANGE = `
import ctypes, os, signal, sys, time
libc = ctypes.CDLL(None, use_errno=True)
a, b = os.fsencode(sys.argv[1]), os.fsencode(sys.argv[2])
end = time.monotonic() + float(sys.argv[3])
n = 0
def stop(*_):
    print(n)
    sys.exit(0)
signal.signal(signal.SIGTERM, stop)
while True:
    if libc.renameat2(-100, a, -100, b, 2) != 0:
        sys.exit("renameat2: " + os.strerror(ctypes.get_errno()))
    n += 1
    if n % 512 == 0 and time.monotonic() > end:
        break
print(n)
`;

// The fallback: a -> tmp, b -> a, tmp -> b, with a deadline checked every 256 rounds.
const RENAMES = `
end=$(( $(date +%s) + $3 )); n=0
while :; do mv -T "$1" "$1.swap" && mv -T "$2" "$1" && mv -T "$1.swap" "$2" || exit 1
  n=$((n+1)); if [ $((n % 256)) -eq 0 ] && [ "$(date +%s)" -ge "$end" ]; then break; fi; done; echo $n`;

let exchange: boolean | undefined;

/** True when the atomic swap (python3 + renameat2) runs here. */
export function atomicSwapAvailable(): boolean {
  exchange ??= spawnSync('python3', ['-c', 'import ctypes; ctypes.CDLL(None).renameat2'], { stdio: 'ignore' }).status === 0;
  return exchange;
}

export interface SwapLoop {
  /** How the swap is done: `renameat2` or `rename`. */
  readonly how: 'renameat2' | 'rename';
  /** Ends the loop (if still running) and resolves with the number of swaps done; both names are back in place when it was even. */
  stop(): Promise<number>;
}

/** Swap `a` and `b` (absolute paths) until `stop()` or `seconds` have passed. */
export function swapLoop(a: string, b: string, seconds: number): SwapLoop {
  const how = atomicSwapAvailable() ? 'renameat2' : 'rename';
  const child: ChildProcess =
    how === 'renameat2' ? spawn('python3', ['-c', EXCHANGE, a, b, String(seconds)]) : spawn('sh', ['-c', RENAMES, 'swap', a, b, String(Math.ceil(seconds))]);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const done = new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0 || signal === 'SIGTERM') resolve(Number(out.trim()) || 0);
      else reject(new Error(`the swap loop failed (${code ?? signal}): ${err.trim()}`));
    });
  });
  done.catch(() => {});
  return {
    how,
    stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return done;
    },
  };
}
