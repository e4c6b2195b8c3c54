/** The last listing's folders checked (see `check.ts`) all at once, in a few large jobs spread over the threads. */
import { checksOf, type Checked, type FolderCheck } from './check.js';
import type { TreeRunner } from './runner.js';

// Checks are mostly an lstat each: jobs of about this many, and at most this many jobs.
const COST_PER_JOB = 2048;
const MAX_JOBS = 8;

/** A folder the last listing saw, and what checking it found. */
export interface CheckedFolder {
  check: FolderCheck;
  result: Checked;
}

/** Every folder checked, for a listing: what each check found, by folder. `parts`: see `partsOf`. */
export async function checkAll(root: string, runner: TreeRunner, parts: readonly string[], line: number): Promise<Map<string, CheckedFolder>> {
  const results = await Promise.all(parts.map((part) => runner.check(root, part, line)));
  const checked = new Map<string, CheckedFolder>();
  parts.forEach((part, i) => {
    const found = results[i]!;
    checksOf(part).forEach((check, j) => {
      checked.set(check.dir, { check, result: found[j]! });
    });
  });
  return checked;
}

/** True when every folder holds what was recorded, names and tokens: each job stops at its first difference. */
export async function verifyAll(root: string, runner: TreeRunner, parts: readonly string[]): Promise<boolean> {
  const same = await Promise.all(parts.map((part) => runner.verify(root, part)));
  return same.every(Boolean);
}

/** Folder records (see `recordOf`) joined into the parts that jobs check, each about as costly. */
export function partsOf(records: readonly string[]): string[] {
  // An lstat for the folder, and roughly one per file: a record's fields and a name with its letter average well over 16 characters.
  const costOf = (record: string) => 1 + (record.length >> 5);
  let cost = 0;
  for (const record of records) cost += costOf(record);
  const perJob = Math.ceil(cost / Math.min(MAX_JOBS, Math.max(1, Math.ceil(cost / COST_PER_JOB))));
  const parts: string[] = [];
  let part: string[] = [];
  let partCost = 0;
  for (const record of records) {
    if (partCost >= perJob) {
      parts.push(part.join('\0'));
      part = [];
      partCost = 0;
    }
    part.push(record);
    partCost += costOf(record);
  }
  if (part.length > 0) parts.push(part.join('\0'));
  return parts;
}
