import { createHash } from 'node:crypto';

/**
 * `sha256:<64 lowercase hex>` of the exact bytes.
 *
 * @example
 * ```ts
 * import { sha256Digest } from '@skillmount/core';
 *
 * sha256Digest(new TextEncoder().encode('hello')); // 'sha256:2cf24dba…'
 * ```
 * @throws Nothing.
 */
export function sha256Digest(bytes: Uint8Array): string {
  // join, not +: one flat string, where `+` leaves a rope V8 keeps beside its flattened copy (a
  // catalog holds one digest per file).
  return ['sha256', createHash('sha256').update(bytes).digest('hex')].join(':');
}
