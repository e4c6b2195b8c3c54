/**
 * The digest a `resources/read` names in its `params._meta` (the entry the client holds), checked:
 * the service then serves exactly those bytes, or says the entry changed.
 */
import { invalidParams } from '../errors.js';
import { DIGEST_META_KEY, SKILL_DIGEST_PATTERN } from '../protocol/constants.js';

/** The named digest, undefined when none is named; `-32602` for a value that is not a digest. */
export function namedDigest(meta: unknown): string | undefined {
  if (typeof meta !== 'object' || meta === null) return undefined;
  const digest = (meta as Record<string, unknown>)[DIGEST_META_KEY];
  if (digest === undefined) return undefined;
  if (typeof digest !== 'string' || !SKILL_DIGEST_PATTERN.test(digest)) {
    const shown = typeof digest === 'string' ? JSON.stringify(digest.slice(0, 80)) : typeof digest;
    throw invalidParams(
      `resources/read: params._meta["${DIGEST_META_KEY}"] must be a digest from the skill entry ("sha256:" and 64 lowercase hex digits), got ${shown}`,
    );
  }
  return digest;
}
