/**
 * A build time split into a cost per skill and a cost per file: time ≈ a·skills + b·files, fitted
 * by least squares over the corpora built from one storage.
 */

export interface Sample {
  skills: number;
  files: number;
  ms: number;
}

export interface Fit {
  /** ms per skill. */
  perSkill: number;
  /** ms per file. */
  perFile: number;
  /** The largest |fitted − measured| ÷ measured over the samples. */
  worstError: number;
}

/**
 * Least squares with no constant term, the two normal equations solved directly. Plain (not
 * relative) errors: the large corpora decide the costs, and a fixed cost (threads starting, a first
 * query), which weighs most in the smallest corpus, shows as that corpus's miss instead of bending
 * both costs. Undefined when the samples cannot tell the two costs apart (fewer than two corpora,
 * or every corpus with the same files per skill).
 */
export function fitCosts(samples: readonly Sample[]): Fit | undefined {
  let ss = 0;
  let sf = 0;
  let ff = 0;
  let st = 0;
  let ft = 0;
  for (const { skills, files, ms } of samples) {
    ss += skills * skills;
    sf += skills * files;
    ff += files * files;
    st += skills * ms;
    ft += files * ms;
  }
  const det = ss * ff - sf * sf;
  // Relative to the terms it is made of: collinear samples leave only rounding.
  if (!(Math.abs(det) > 1e-9 * ss * ff)) return undefined;
  const perSkill = (st * ff - ft * sf) / det;
  const perFile = (ss * ft - sf * st) / det;
  const worstError = Math.max(...samples.map((s) => Math.abs(perSkill * s.skills + perFile * s.files - s.ms) / s.ms));
  return { perSkill, perFile, worstError };
}
