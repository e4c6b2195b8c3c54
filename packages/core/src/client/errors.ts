import { escapeControls } from '../text/escape.js';
import { brand, isBranded } from '../brand.js';
import type { InvalidSkillEntry, SkillLimitProblem, SkillVerificationReason } from './types.js';

/**
 * A file failed verification against the skill entry the host holds: not listed in it, a
 * different size or digest, or (for the skill's own SKILL.md) frontmatter that differs. The
 * content was not returned; the host must not use it and, for SKILL.md, must not load the skill.
 */
export class SkillVerificationError extends Error {
  readonly reason: SkillVerificationReason;
  /** The file that failed. */
  readonly uri: string;
  /** The SKILL.md URI of the skill whose entry was checked against. */
  readonly skillUri: string;
  /** For `frontmatter`: one line per differing field. */
  readonly differences: readonly string[];
  constructor(
    reason: SkillVerificationReason,
    uri: string,
    skillUri: string,
    message: string,
    differences: readonly string[] = [],
    options?: { cause?: unknown },
  ) {
    super(escapeControls(message, { lines: true }), options);
    this.name = 'SkillVerificationError';
    this.reason = reason;
    this.uri = uri;
    this.skillUri = skillUri;
    this.differences = differences;
  }
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isBranded(this, value);
  }
  static {
    brand(this, '@skillmount/core/SkillVerificationError');
  }
}

/** A skill is over a per-skill limit (files or bytes), so it was not read. */
export class SkillLimitError extends Error {
  readonly skillUri: string;
  readonly limit: SkillLimitProblem['limit'];
  readonly actual: number;
  readonly max: number;
  constructor(skillUri: string, problem: SkillLimitProblem) {
    super(escapeControls(problem.message, { lines: true }));
    this.name = 'SkillLimitError';
    this.skillUri = skillUri;
    this.limit = problem.limit;
    this.actual = problem.actual;
    this.max = problem.max;
  }
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isBranded(this, value);
  }
  static {
    brand(this, '@skillmount/core/SkillLimitError');
  }
}

/**
 * A server's result broke the extension's rules: invalid or repeated entries, another skill than
 * the one asked for, missing cache fields on 2026-07-28, paging that loops, or a read whose
 * contents do not name the requested file.
 */
export class SkillResultError extends Error {
  /** The method whose result was refused. */
  readonly method: string;
  /** For `skills/list`: every refused entry. */
  readonly invalid: readonly InvalidSkillEntry[];
  constructor(method: string, message: string, invalid: readonly InvalidSkillEntry[] = []) {
    super(escapeControls(message, { lines: true }));
    this.name = 'SkillResultError';
    this.method = method;
    this.invalid = invalid;
  }
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isBranded(this, value);
  }
  static {
    brand(this, '@skillmount/core/SkillResultError');
  }
}

/** The server did not declare what a call needs (the extension, or `directoryRead`). */
export class SkillsUnsupportedError extends Error {
  readonly method: string;
  constructor(method: string, message: string) {
    super(message);
    this.name = 'SkillsUnsupportedError';
    this.method = method;
  }
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isBranded(this, value);
  }
  static {
    brand(this, '@skillmount/core/SkillsUnsupportedError');
  }
}
