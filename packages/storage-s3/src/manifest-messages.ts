import type { ManifestEntry } from './manifest-decode.js';

/** Entries per message from a parsing thread: each one takes the serving thread a few milliseconds to receive. */
export const SLICE = 2000;

/** The manifest's bytes, moved to the thread (not copied). */
export interface ParseRequest {
  bytes: ArrayBuffer;
  maxEntries: number;
}

export type ParseReply = { ready: true } | { entries: [string, ManifestEntry][] } | { done: number } | { problem: string };
