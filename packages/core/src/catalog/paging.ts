import { invalidParams } from '../errors.js';

// Cursors are opaque to clients: "continue after this URI", so a page stays stable while the catalog changes.
const VERSION = 'a1';

export function encodeCursor(afterUri: string): string {
  return Buffer.from(`${VERSION}:${afterUri}`, 'utf8').toString('base64url');
}

/** The URI a cursor continues after; a `-32602` error for anything we did not issue. */
export function decodeCursor(cursor: unknown): string | undefined {
  if (cursor === undefined) return undefined;
  if (typeof cursor !== 'string') throw invalidParams('params.cursor must be a string returned as nextCursor');
  const text = /^[A-Za-z0-9_-]{1,8192}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  if (!text.startsWith(`${VERSION}:`) || Buffer.from(text, 'utf8').toString('base64url') !== cursor) {
    throw invalidParams(`Invalid cursor "${cursor.slice(0, 64)}": pass back a nextCursor exactly as received, or omit it to start over`);
  }
  return text.slice(VERSION.length + 1);
}

/** One page of `items` (sorted by `uriOf`) after `afterUri`. */
export function page<T>(items: readonly T[], uriOf: (item: T) => string, afterUri: string | undefined, pageSize: number): { items: T[]; nextCursor?: string } {
  let start = 0;
  if (afterUri !== undefined) {
    let lo = 0;
    let hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (uriOf(items[mid]!) <= afterUri) lo = mid + 1;
      else hi = mid;
    }
    start = lo;
  }
  const end = Math.min(items.length, start + pageSize);
  const slice = items.slice(start, end);
  return end < items.length && slice.length > 0 ? { items: slice, nextCursor: encodeCursor(uriOf(slice.at(-1)!)) } : { items: slice };
}
