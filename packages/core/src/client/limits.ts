import { MAX_BYTES_PER_SKILL, MAX_FILES_PER_SKILL } from '../protocol/constants.js';
import { formatBytes } from '../text/size.js';
import type { SkillEntry, SkillLimitProblem, SkillLimits } from './types.js';

export const DEFAULT_LIMITS: SkillLimits = { files: MAX_FILES_PER_SKILL, bytes: MAX_BYTES_PER_SKILL };

/**
 * Whether a skill is over the per-skill limits, judged from its entry alone, before any read: a host
 * can decline it and tell the user why. Undefined when within limits, and for `"dynamic"` skills,
 * whose entry has nothing to count (`read()` then counts what it fetches).
 */
export function checkLimits(skill: SkillEntry, limits: Partial<SkillLimits> = {}): SkillLimitProblem | undefined {
  const max = { ...DEFAULT_LIMITS, ...limits };
  if (skill.resources === 'dynamic') return undefined;
  const files = skill.resources.length;
  if (files > max.files) {
    return { limit: 'files', actual: files, max: max.files, message: `${skill.uri} lists ${files} files; the limit is ${max.files} per skill, so it is not loaded` };
  }
  const bytes = skill.resources.reduce((sum, r) => sum + r.size, 0);
  if (bytes > max.bytes) {
    return { limit: 'bytes', actual: bytes, max: max.bytes, message: `${skill.uri} lists ${formatBytes(bytes)} of files (${bytes} bytes); the limit is ${formatBytes(max.bytes)} per skill, so it is not loaded` };
  }
  return undefined;
}

/**
 * Bytes fetched per `"dynamic"` skill, counted per file (a re-read replaces that file's count),
 * so the total-size limit applies to what was actually retrieved.
 */
export class DynamicReadTally {
  readonly #skills = new Map<string, Map<string, number>>();

  /** Record a fetched file; returns the problem instead when it would take the skill over `max` bytes. */
  add(skillKey: string, fileKey: string, size: number, max: number): SkillLimitProblem | undefined {
    const files = this.#skills.get(skillKey) ?? new Map<string, number>();
    let total = size;
    for (const [key, bytes] of files) if (key !== fileKey) total += bytes;
    if (total > max) {
      return {
        limit: 'bytes',
        actual: total,
        max,
        message: `${fileKey} would bring the dynamic skill ${skillKey} to ${formatBytes(total)} read (${total} bytes); the limit is ${formatBytes(max)} per skill, so the file was not used`,
      };
    }
    files.set(fileKey, size);
    this.#skills.set(skillKey, files);
    return undefined;
  }
}
