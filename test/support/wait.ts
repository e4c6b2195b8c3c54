/** Waiting in tests: a fixed pause, polling a condition, and a deadline on a promise; a timeout names what never happened. */

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolve once `check()` is true, or fail after `ms` with `what` in the message. */
export async function waitFor(check: () => boolean | Promise<boolean>, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(10);
  }
}

/** `promise`, or a failure once `ms` have passed, saying what never happened. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
