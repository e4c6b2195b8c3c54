/**
 * What `check` and `publish` find in a tree, sorted: problems (a skill skipped, over a limit, a
 * file ignored), which fail the command, and warnings about what is served as published but that a
 * reader should know of (invisible or direction-changing characters in a SKILL.md), which fail it
 * only under `--strict`.
 */
import type { SkillWarning } from '@skillmount/core';
import { plural, warningText } from './words.js';

/** Codes reported as warnings, not problems: the skill is valid and served as it is. */
const WARNING_CODES: ReadonlySet<string> = new Set(['hidden-characters']);

/** Warning lines printed at most; `--json` has every one. */
export const MAX_WARNING_LINES = 20;

export interface Findings {
  problems: SkillWarning[];
  warnings: SkillWarning[];
}

/** The catalog's warnings, as problems and warnings. */
export function sortFindings(all: readonly SkillWarning[]): Findings {
  const findings: Findings = { problems: [], warnings: [] };
  for (const w of all) (WARNING_CODES.has(w.code) ? findings.warnings : findings.problems).push(w);
  return findings;
}

/** The warnings as printed lines: the first MAX_WARNING_LINES, then one line counting the rest. */
export function warningLines(warnings: readonly SkillWarning[], fallback: string): string[] {
  const lines = warnings.slice(0, MAX_WARNING_LINES).map((w) => `warning: ${warningText(w, fallback)}`);
  const rest = warnings.length - MAX_WARNING_LINES;
  if (rest > 0) lines.push(`warning: ${plural(rest, 'more warning')} of the same kind (--json lists them all)`);
  return lines;
}
