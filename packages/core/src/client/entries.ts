import { entryProblems } from '../entry/validate.js';
import { canonicalUri } from '../uri/canonical.js';
import type { InvalidSkillEntry, SkillEntry } from './types.js';

const uriOf = (value: unknown): string | undefined => {
  const uri = (value as { uri?: unknown } | null)?.uri;
  return typeof uri === 'string' ? uri : undefined;
};

/**
 * Split listed entries into valid skills and refused ones. Every copy of a URI listed more than
 * once is refused (compared in canonical form), since a host cannot tell which copy is meant.
 * `index` is the position in `values`.
 */
export function partitionEntries(values: readonly unknown[]): { skills: SkillEntry[]; invalid: InvalidSkillEntry[] } {
  const keys = values.map((value) => {
    const uri = uriOf(value);
    return uri === undefined ? undefined : (canonicalUri(uri) ?? uri);
  });
  const counts = new Map<string, number>();
  for (const key of keys) if (key !== undefined) counts.set(key, (counts.get(key) ?? 0) + 1);
  const skills: SkillEntry[] = [];
  const invalid: InvalidSkillEntry[] = [];
  values.forEach((value, index) => {
    const problems = entryProblems(value);
    const key = keys[index];
    if (key !== undefined && (counts.get(key) ?? 0) > 1) problems.push(`the same uri is listed ${counts.get(key)} times`);
    if (problems.length === 0) {
      skills.push(value as SkillEntry);
      return;
    }
    const uri = uriOf(value);
    invalid.push(uri === undefined ? { index, reason: problems.join('; ') } : { index, uri, reason: problems.join('; ') });
  });
  return { skills, invalid };
}
