/**
 * The jobs behind a reload without a watch: each folder the last listing saw checked against what
 * it saw, by metadata alone. A folder whose stamp is unchanged holds the same names (see
 * `settled.ts`), so it is not opened or read; only its files a catalog reads are looked at, one
 * `lstat` each, as an edit in place does not move the folder's stamp. Synchronous, like the jobs
 * of `jobs.ts`, and for the same reason. Nothing is read or served from what these jobs see: a
 * folder that differs in any way is listed afresh, opened and checked, and a file whose token
 * differs is read through `readFiles`.
 */
import { lstatSync, type Stats } from 'node:fs';
import path from 'node:path';
import { tokenOf, walkFolders, type Walked } from './jobs.js';
import { folderStamp, tokensSum } from './settled.js';

/**
 * A folder as the last listing saw it. `entries`: each entry's kind letter and name, `/`-separated
 * (a name never holds a `/`): `w` a file a catalog reads, `f` another file, `s` a subfolder to list
 * (`S` when inside a skill folder), `d` a folder named only (hidden), `u` anything else. `sum`:
 * the `tokensSum` of its `w` files' tokens.
 */
export interface FolderCheck {
  dir: string;
  inSkill: boolean;
  stamp: string;
  entries: string;
  sum: string;
}

/**
 * Folder records as one string, as a listing keeps them and as a job receives them: a single
 * string costs a message a copy, where objects cost a clone each, and holds less than objects.
 * Five NUL-separated fields per folder (a name never holds a NUL): dir, `1` when inside a skill
 * folder (else empty), stamp, sum, entries.
 */
export function recordsOf(checks: Iterable<FolderCheck>): string {
  const records: string[] = [];
  for (const check of checks) records.push(recordOf(check));
  return records.join('\0');
}

/** One folder's record, as `recordsOf` joins them. */
export const recordOf = ({ dir, inSkill, stamp, sum, entries }: FolderCheck): string => `${dir}\0${inSkill ? '1' : ''}\0${stamp}\0${sum}\0${entries}`;

/** The folders of `recordsOf`, in order. */
export function checksOf(records: string): FolderCheck[] {
  if (records === '') return [];
  const fields = records.split('\0');
  const checks: FolderCheck[] = [];
  for (let i = 0; i + 4 < fields.length; i += 5)
    checks.push({ dir: fields[i]!, inSkill: fields[i + 1] === '1', stamp: fields[i + 2]!, sum: fields[i + 3]!, entries: fields[i + 4]! });
  return checks;
}

/**
 * What checking a folder found: the same names, and the tokens of its `w` entries in order,
 * `/`-separated (a string when their sum is the one recorded, else with the new sum); or the
 * folder listed afresh.
 */
export type Checked = string | { tokens: string; sum: string } | Walked;

/** Check each folder (see the module comment); a folder that differs is listed as `walkFolders` would, without reading. */
export function checkFolders(root: string, checks: readonly FolderCheck[], line: number): Checked[] {
  return checks.map((check): Checked => {
    const tokens = tokensIfSame(root, check);
    if (tokens === undefined) return walkFolders(root, [{ dir: check.dir, inSkill: check.inSkill }], false, line)[0]!;
    const sum = tokensSum(tokens);
    return sum === check.sum ? tokens : { tokens, sum };
  });
}

/** True when every folder holds the same names and the same tokens as recorded: the first difference ends the job. */
export function verifyFolders(root: string, checks: readonly FolderCheck[]): boolean {
  for (const check of checks) {
    const tokens = tokensIfSame(root, check);
    if (tokens === undefined || tokensSum(tokens) !== check.sum) return false;
  }
  return true;
}

function tokensIfSame(root: string, { dir, stamp, entries }: FolderCheck): string | undefined {
  const full = dir === '' ? root : joined(root, path.sep === '/' ? dir : dir.split('/').join(path.sep));
  const folder = statOf(full);
  if (!folder?.isDirectory() || folderStamp(folder) !== stamp) return undefined;
  let tokens = '';
  let first = true;
  for (let start = 0; start < entries.length; ) {
    let end = entries.indexOf('/', start);
    if (end < 0) end = entries.length;
    if (entries.charCodeAt(start) === W) {
      const file = statOf(joined(full, entries.slice(start + 1, end)));
      if (!file?.isFile()) return undefined;
      tokens = first ? tokenOf(file) : `${tokens}/${tokenOf(file)}`;
      first = false;
    }
    start = end + 1;
  }
  return tokens;
}

const W = 'w'.charCodeAt(0);

// `path.join` normalises every time; these parts are plain names under a real path already.
const joined = (parent: string, relative: string): string => (parent.endsWith(path.sep) ? parent + relative : parent + path.sep + relative);

/** The entry's metadata, or undefined when it cannot be had: the folder is then listed, and says why. */
function statOf(full: string): Stats | undefined {
  try {
    return lstatSync(full, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}
