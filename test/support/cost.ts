/**
 * Set-up time a test file pays, by what for (`postgres`, `s3`, `build`, `peer`, …), for the cost
 * table scripts/test.mjs prints at the end of a run. scripts/test-cost.mjs owns the record; outside
 * the suite's runner (a file run alone with `node --test`) nothing is recorded.
 */
const record = (globalThis as Record<symbol, Map<string, number> | undefined>)[Symbol.for('skillmount.test.setup')];

/** Run `work` and add its wall time to this process's set-up time named `kind`. */
export async function setupCost<T>(kind: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    record?.set(kind, (record.get(kind) ?? 0) + performance.now() - started);
  }
}
