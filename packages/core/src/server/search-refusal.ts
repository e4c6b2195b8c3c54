/**
 * A search's refusal as the skills service answers it: a query, limit or cursor the index refuses
 * is the caller's mistake (-32602, with the index's words for what was wrong); anything else is
 * left as it is (-32603 once it reaches the wire).
 */
import { SkillProtocolError, invalidParams } from '../errors.js';

/** Codes of the index's errors that name a bad argument. */
const ARGUMENT_CODES = new Set(['bad-query', 'bad-cursor', 'bad-limit']);

export function searchRefusal(error: unknown): unknown {
  if (error instanceof SkillProtocolError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && ARGUMENT_CODES.has(code)) return invalidParams(`search_skills: ${(error as Error).message}`);
  return error;
}
