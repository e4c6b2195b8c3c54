import { MAX_BYTES_PER_SKILL, MAX_FILES_PER_SKILL } from '../protocol/constants.js';
import { formatBytes } from '../text/size.js';
import type { SkillEntry, SkillLimitProblem, SkillLimits } from './types.js';

export const DEFAULT_LIMITS: SkillLimits = { files: MAX_FILES_PER_SKILL, bytes: MAX_BYTES_PER_SKILL };

/**
 * Whether a skill is over the per-skill limits, judged from its entry alone, before any read: a host
 * can decline it and tell the user why. Undefined when within limits, and for `"dynamic"` skills,
 * whose entry has nothing to count (`read()` then counts what it fetches).
 *
 * @example
 * ```ts
 * import type { SkillEntry } from '@skillmount/core/client';
 * import { checkLimits } from '@skillmount/core/client';
 *
 * declare const entry: SkillEntry;
 * const over = checkLimits(entry, { files: 50 });
 * if (over) console.warn(over.message); // decline the skill before reading it
 * ```
 * @throws Nothing: a skill over a limit gives the problem, not an error.
 */
export function checkLimits(skill: SkillEntry, limits: Partial<SkillLimits> = {}): SkillLimitProblem | undefined {
  const max = { ...DEFAULT_LIMITS, ...limits };
  if (skill.resources === 'dynamic') return undefined;
  const files = skill.resources.length;
  if (files > max.files) {
    return {
      limit: 'files',
      actual: files,
      max: max.files,
      message: `${skill.uri} lists ${files} files; ` + `the limit is ${max.files} per skill, so it is not loaded`,
    };
  }
  const bytes = skill.resources.reduce((sum, r) => sum + r.size, 0);
  if (bytes > max.bytes) {
    return {
      limit: 'bytes',
      actual: bytes,
      max: max.bytes,
      message: `${skill.uri} lists ${formatBytes(bytes)} of files (${bytes} bytes); ` + `the limit is ${formatBytes(max.bytes)} per skill, so it is not loaded`,
    };
  }
  return undefined;
}

/**
 * Bytes fetched per `"dynamic"` skill entry, counted per file (a re-read replaces that file's
 * count), so the total-size limit applies to what was retrieved under the entry the host holds.
 * Keyed by the entry object that `list()` or `get()` returned: a fresh listing starts afresh, and a
 * tally goes away with its entry, so a long-lived client neither grows nor ends up refusing every read.
 */
export class DynamicReadTally {
  readonly #entries = new WeakMap<object, Map<string, number>>();

  /** Record a fetched file; returns the problem instead when it would take the skill over `max` bytes. */
  add(entry: SkillEntry, fileKey: string, size: number, max: number): SkillLimitProblem | undefined {
    const files = this.#entries.get(entry) ?? new Map<string, number>();
    let total = size;
    for (const [key, bytes] of files) if (key !== fileKey) total += bytes;
    if (total > max) {
      return {
        limit: 'bytes',
        actual: total,
        max,
        message:
          `${fileKey} would bring the dynamic skill ${entry.uri} to ${formatBytes(total)} read under this entry (${total} bytes); ` +
          `the limit is ${formatBytes(max)} per skill, so the file was not used. Refresh the entry with list() or get() to start a new count`,
      };
    }
    files.set(fileKey, size);
    this.#entries.set(entry, files);
    return undefined;
  }
}
