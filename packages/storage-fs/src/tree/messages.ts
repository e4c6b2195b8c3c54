import type { Checked } from './check.js';
import type { Failure, Folder, Listed, Walked } from './jobs.js';

/** What the listing thread asks of a worker; `line` is the listing's settle line (see `settled.ts`). */
export type Request =
  | { id: number; type: 'folders'; root: string; folders: Folder[]; read: boolean; line: number }
  | { id: number; type: 'files'; root: string; files: { path: string; content: boolean }[]; line: number }
  | { id: number; type: 'check'; root: string; records: string; line: number }
  | { id: number; type: 'verify'; root: string; records: string };

/** What a worker answers: one reply per request. */
export type Reply =
  | { id: number; walked: Walked[] }
  | { id: number; items: Listed[] }
  | { id: number; checked: Checked[] }
  | { id: number; same: boolean }
  | { id: number; error: TreeError };

/** A failure as it crosses threads: the system error code, and what failed where when known. */
export interface TreeError {
  code?: string;
  message: string;
  relative?: string;
  action?: 'cannot list' | 'cannot read';
}

export function treeError(error: unknown): TreeError {
  const { code, message, relative, action } = (error ?? {}) as Failure;
  return { ...(code ? { code } : {}), message: String(message ?? error), ...(relative !== undefined ? { relative } : {}), ...(action ? { action } : {}) };
}
