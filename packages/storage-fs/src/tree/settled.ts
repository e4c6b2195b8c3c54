/**
 * When metadata proves nothing changed. A file's change token (size, mtime, ctime, inode) and a
 * folder's stamp only move when the file system's clock has moved on: an edit that keeps the size
 * and lands in the same timestamp tick as the previous one leaves them as they were (git calls such
 * an entry "racily clean"). So a token proves the bytes read with it only when the file's times
 * are safely older than the listing that read it, and a folder's stamp proves its names only when
 * its times are safely older than the listing that read them. Node built-ins only: the listing
 * worker threads load this too.
 */
import crypto from 'node:crypto';
import type { Stats } from 'node:fs';

/**
 * How much older than a listing's start a timestamp must be to prove anything. The coarsest clock
 * of a common file system is FAT's (mtime in 2-second steps); a network file system stamps files
 * with its server's clock, which may run behind ours; and a write sets the time before its bytes
 * land. Three seconds covers the first with a second to spare for the others; the cost of a wider
 * window is only that files changed within it are read again by each listing.
 */
export const SETTLE_MS = 3_000;

/** The time a listing starting now compares timestamps with: anything changed at or after it is unsettled. */
export const settleLine = (listingStart: number): number => listingStart - SETTLE_MS;

/** True when both of the entry's times are before `line`: a change after it would show in its metadata. */
export const isSettled = (stat: Stats, line: number): boolean => stat.mtimeMs < line && stat.ctimeMs < line;

/**
 * A folder's stamp: its times, inode and device. An entry added, removed or renamed in it moves its
 * mtime and ctime; a file edited in place does not, so the files are still checked one by one.
 */
export const folderStamp = (stat: Stats): string => `${stat.mtimeMs}:${stat.ctimeMs}:${stat.ino}:${stat.dev}`;

/**
 * The tokens of a folder's files a catalog reads, in listing order and `/`-separated, summed up: a
 * folder's record holds this instead of every token. A hash, not a checksum: files' metadata can
 * be set (`utimes`), so a sum that an edit could be made to keep would hide it.
 */
export const tokensSum = (tokens: string): string =>
  // The one-shot `hash` (Node 20.12 and later) costs a quarter of a Hash object for input this short.
  typeof crypto.hash === 'function' ? crypto.hash('sha256', tokens, 'base64') : crypto.createHash('sha256').update(tokens).digest('base64');
