/** Temporary skill trees on disk: a folder under the OS temp dir, and files written into it by relative `/` path. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A temporary folder under the OS temp dir, removed by `remove()` (retried while something still writes into it). */
export function tempDir(prefix = 'skillmount-test-'): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true, maxRetries: 5 }) };
}

/** Write `files` (relative `/` paths → content) under `root`, creating folders. */
export function writeTree(root: string, files: Record<string, string | Uint8Array>): void {
  for (const [rel, content] of Object.entries(files)) {
    const full = path.join(root, ...rel.split('/'));
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
}

/** A temporary folder holding `files`, removed after the test. */
export function tempTree(t: { after(fn: () => void): void }, files: Record<string, string | Uint8Array> = {}, prefix?: string): string {
  const tmp = tempDir(prefix);
  t.after(tmp.remove);
  writeTree(tmp.dir, files);
  return tmp.dir;
}

/**
 * Wait until files written before the call are old enough for a folder storage to trust their
 * change tokens: it reads again any file whose times are not 3 s older than the listing that read
 * it (an edit in the same timestamp tick keeps the token). After this, a listing reads only what changed.
 */
export const untilSettled = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 3_100));

/** `count` skills named skill-0, skill-1, …, each a SKILL.md and one reference file (`refs/notes.md`). */
export function numberedSkills(count: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let s = 0; s < count; s++) {
    const name = `skill-${s}`;
    files[`${name}/SKILL.md`] = `---\nname: ${name}\ndescription: Skill number ${s}.\n---\n# ${name}\n`;
    files[`${name}/refs/notes.md`] = `${name} notes\n`;
  }
  return files;
}
