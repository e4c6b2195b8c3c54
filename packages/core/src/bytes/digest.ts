import { createHash } from 'node:crypto';

/** `sha256:<64 lowercase hex>` of the exact bytes. */
export function sha256Digest(bytes: Uint8Array): string {
  return 'sha256:' + createHash('sha256').update(bytes).digest('hex');
}
