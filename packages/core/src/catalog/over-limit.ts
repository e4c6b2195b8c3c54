import { countOf, formatBytes } from '../text/size.js';
import type { SkillLimits, SkillWarning } from '../types.js';

/** One file of a skill as the limit check sees it: its storage path and size. */
export interface SizedFile {
  path: string;
  size: number;
}

const LARGEST_SHOWN = 3;

const folderOf = (path: string) => path.slice(0, Math.max(0, path.lastIndexOf('/')));

/**
 * The per-skill limit warnings for the skill in `dir`: each names what to fix (the largest files
 * for the byte limit, the fullest folder for the file-count limit) in human sizes, and carries the
 * exact counts (`files`, `bytes`, `limit`) for tools. Empty within both limits.
 */
export function limitProblems(dir: string, files: readonly SizedFile[], limits: SkillLimits): SkillWarning[] {
  let bytes = 0;
  for (const file of files) bytes += file.size;
  const counts = { files: files.length, bytes };
  const problems: SkillWarning[] = [];
  if (files.length > limits.files) {
    const [fullest, inFullest] = fullestFolder(files);
    const where = fullest === dir ? `directly in ${dir}` : `in ${fullest}`;
    problems.push({
      code: 'limit',
      path: dir,
      message:
        `skill has ${countOf(files.length, 'file')} (nested folders included); the limit is ${countOf(limits.files, 'file')} per skill. ` +
        `The most are ${where} (${countOf(inFullest, 'file')}): move files out of the skill folder or split it into smaller skills`,
      ...counts,
      limit: { files: limits.files },
    });
  }
  if (bytes > limits.bytes) {
    const largest = largestFiles(files).map((f) => `${f.path} (${formatBytes(f.size)})`);
    problems.push({
      code: 'limit',
      path: dir,
      message:
        `skill has ${formatBytes(bytes)} in ${countOf(files.length, 'file')}; the limit is ${formatBytes(limits.bytes)} per skill. ` +
        `The largest: ${largest.join(', ')}. Move large files out of the skill folder or make them smaller`,
      ...counts,
      limit: { bytes: limits.bytes },
    });
  }
  return problems;
}

// Larger first; equal sizes in path order, so the message is the same whatever order the storage lists in.
const before = (a: SizedFile, b: SizedFile) => a.size > b.size || (a.size === b.size && a.path < b.path);

/** The LARGEST_SHOWN largest files, largest first (in one pass: a skill over the limit may hold many files). */
function largestFiles(files: readonly SizedFile[]): SizedFile[] {
  const top: SizedFile[] = [];
  for (const file of files) {
    if (top.length === LARGEST_SHOWN && !before(file, top[LARGEST_SHOWN - 1]!)) continue;
    let i = top.length;
    while (i > 0 && before(file, top[i - 1]!)) i--;
    top.splice(i, 0, file);
    if (top.length > LARGEST_SHOWN) top.pop();
  }
  return top;
}

/** The folder holding the most files directly, with that count; the first such folder in path order on a tie. */
function fullestFolder(files: readonly SizedFile[]): [string, number] {
  const counts = new Map<string, number>();
  for (const file of files) {
    const folder = folderOf(file.path);
    counts.set(folder, (counts.get(folder) ?? 0) + 1);
  }
  let best: [string, number] = ['', 0];
  for (const [folder, count] of counts) {
    if (count > best[1] || (count === best[1] && folder < best[0])) best = [folder, count];
  }
  return best;
}
