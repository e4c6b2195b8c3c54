import { collect, median, timed } from '../measure.js';

export interface Pair {
  ours: number[];
  theirs: number[];
  /** Runs actually made per side (fewer than asked for when a run is long). */
  runs: number;
}

/**
 * Time `ours` and `theirs` alternately, `runs` times each (after one untimed warm-up pair when
 * `warmUp`), dropping to 3 runs once a single run takes longer than `longRunMs`.
 */
export async function alternate(runs: number, longRunMs: number, warmUp: boolean, ours: () => Promise<unknown>, theirs: () => Promise<unknown>): Promise<Pair> {
  if (warmUp) {
    await ours();
    await theirs();
  }
  const result: Pair = { ours: [], theirs: [], runs };
  for (let i = 0; i < result.runs; i++) {
    collect();
    result.ours.push((await timed(ours)).ms);
    collect();
    result.theirs.push((await timed(theirs)).ms);
    if (i === 0 && Math.max(result.ours[0]!, result.theirs[0]!) > longRunMs) result.runs = Math.min(result.runs, 3);
  }
  return result;
}

export const medians = (pair: Pair) => ({ ours: median(pair.ours), theirs: median(pair.theirs) });
