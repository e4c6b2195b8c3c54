import { escapeControls } from '../text/escape.js';
import { brand, isBranded } from '../brand.js';
import type { InvalidSkillEntry, SkillLimitProblem, SkillSignatureRefusal, SkillSignatureVerdict, SkillVerificationReason } from './types.js';

/**
 * A file failed verification against the skill entry the host holds: not listed in it, a
 * different size or digest, or (for the skill's own SKILL.md) frontmatter that differs. The
 * content was not returned; the host must not use it and, for SKILL.md, must not load the skill.
 *
 * @example
 * ```ts
 * import type { SkillEntry, SkillsClient } from '@skillmount/core/client';
 * import { SkillVerificationError } from '@skillmount/core/client';
 *
 * declare const skills: SkillsClient;
 * declare const entry: SkillEntry;
 * try {
 *   await skills.read(entry, 'references/FORMS.md');
 * } catch (error) {
 *   if (error instanceof SkillVerificationError) console.error(error.reason, error.uri, error.differences);
 * }
 * ```
 * @throws Nothing: the constructor only records what failed.
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

/**
 * A skill was refused for its signature, before any of its files was read (only the signature
 * itself): unsigned or signed by a key the client does not trust (with `requireSignature`), or a
 * signature that does not match the skill (`code` says how: a file changed, added or removed, the
 * signature is another skill's, not whole, or not made by the key it names). Nothing was returned.
 *
 * @example
 * ```ts
 * import type { SkillEntry, SkillsClient } from '@skillmount/core/client';
 * import { SkillSignatureError } from '@skillmount/core/client';
 *
 * declare const skills: SkillsClient;
 * declare const entry: SkillEntry;
 * try {
 *   await skills.read(entry);
 * } catch (error) {
 *   if (error instanceof SkillSignatureError) console.error(error.code, error.skillUri, error.verdict);
 * }
 * ```
 * @throws Nothing: the constructor only records the verdict.
 */
export class SkillSignatureError extends Error {
  readonly code: SkillSignatureRefusal;
  /** The SKILL.md URI of the refused skill. */
  readonly skillUri: string;
  /** The verdict that refused it: its state, and for an invalid signature its code, detail and file. */
  readonly verdict: SkillSignatureVerdict;
  constructor(skillUri: string, verdict: SkillSignatureVerdict, code: SkillSignatureRefusal, message: string) {
    super(escapeControls(message, { lines: true }));
    this.name = 'SkillSignatureError';
    this.code = code;
    this.skillUri = skillUri;
    this.verdict = verdict;
  }
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isBranded(this, value);
  }
  static {
    brand(this, '@skillmount/core/SkillSignatureError');
  }
}

/**
 * A skill is over a per-skill limit (files or bytes), so it was not read.
 *
 * @example
 * ```ts
 * import type { SkillEntry, SkillsClient } from '@skillmount/core/client';
 * import { SkillLimitError } from '@skillmount/core/client';
 *
 * declare const skills: SkillsClient;
 * declare const entry: SkillEntry;
 * try {
 *   await skills.read(entry);
 * } catch (error) {
 *   if (error instanceof SkillLimitError) console.error(`${error.skillUri}: ${error.limit} ${error.actual} > ${error.max}`);
 * }
 * ```
 * @throws Nothing: the constructor only records the limit that was passed.
 */
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
 *
 * @example
 * ```ts
 * import type { SkillsClient } from '@skillmount/core/client';
 * import { SkillResultError } from '@skillmount/core/client';
 *
 * declare const skills: SkillsClient;
 * try {
 *   await skills.list();
 * } catch (error) {
 *   if (error instanceof SkillResultError) for (const bad of error.invalid) console.error(bad.index, bad.reason);
 * }
 * ```
 * @throws Nothing: the constructor only records the method, message and refused entries.
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

/**
 * The server did not declare what a call needs (the extension, or `directoryRead`).
 *
 * @example
 * ```ts
 * import type { SkillsClient } from '@skillmount/core/client';
 * import { SkillsUnsupportedError } from '@skillmount/core/client';
 *
 * declare const skills: SkillsClient;
 * try {
 *   await skills.readDirectory('skill://refunds');
 * } catch (error) {
 *   if (error instanceof SkillsUnsupportedError) console.error(`${error.method} is not served here`);
 * }
 * ```
 * @throws Nothing: the constructor only records the method and message.
 */
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
