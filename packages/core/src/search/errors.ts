import { SkillProtocolError } from '../errors.js';
import { brand, isBranded } from '../brand.js';
import { INTERNAL_ERROR, INVALID_PARAMS } from '../protocol/constants.js';

/** What was wrong with a search: its query, its limit, its cursor, or a catalog without a search index. */
export type SkillSearchErrorReason = 'query' | 'limit' | 'cursor' | 'off';

/**
 * A search refused before any work: a bad query, limit or cursor (`-32602`, invalid params, with
 * `data: { reason }`), or a catalog loaded without `search` (`-32603`). The message says what was
 * wrong and the limit.
 *
 * @example
 * ```ts
 * import { SkillSearchError } from '@skillmount/core';
 *
 * try {
 *   // … catalog.search(query)
 * } catch (error) {
 *   if (error instanceof SkillSearchError) console.log(error.code, error.reason, error.message);
 * }
 * ```
 * @throws Nothing: the constructor only records the reason and the message.
 */
export class SkillSearchError extends SkillProtocolError {
  readonly reason: SkillSearchErrorReason;
  constructor(reason: SkillSearchErrorReason, message: string) {
    super(reason === 'off' ? INTERNAL_ERROR : INVALID_PARAMS, message, { reason });
    this.name = 'SkillSearchError';
    this.reason = reason;
  }
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isBranded(this, value);
  }
  static {
    brand(this, '@skillmount/core/SkillSearchError');
  }
}
