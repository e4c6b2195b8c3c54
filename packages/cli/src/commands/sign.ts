import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SIGNATURE_FILE, signSkill } from '@skillmount/core';
import { isHiddenName } from '@skillmount/core/storage-kit';
import { signerFromFile } from '../signatures.js';
import { FLAGS } from '../flags.js';
import { say } from '../terminal/print.js';
import { plural } from '../terminal/words.js';
import { parseCommand, UsageError } from '../usage.js';

/** Every file under `dir` a catalog serves (relative, `/`-separated): symlinks, hidden names and the signature left out. */
async function filesOf(dir: string, base = dir): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (isHiddenName(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesOf(full, base)));
    else if (entry.isFile()) out.push(path.relative(base, full).split(path.sep).join('/'));
  }
  return out.filter((f) => f !== SIGNATURE_FILE);
}

/** The folders under `root` that hold a SKILL.md, relative and `/`-separated, hidden ones left out (a catalog serves none). */
async function skillFolders(root: string, dir = root): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const found = entries.some((e) => e.isFile() && e.name === 'SKILL.md') ? [path.relative(root, dir).split(path.sep).join('/')] : [];
  for (const entry of entries) {
    if (entry.isDirectory() && !isHiddenName(entry.name)) found.push(...(await skillFolders(root, path.join(dir, entry.name))));
  }
  return found;
}

/**
 * `skillmount sign FOLDER --key FILE`: write `skill.oms.sig` into every skill folder under FOLDER,
 * covering its other files (those a server serves) and its path from FOLDER (as `check` and a
 * server name it); nested skills first, so the skill around one covers its signature.
 */
export async function sign(argv: string[]): Promise<number> {
  const { values, location } = parseCommand(argv, FLAGS.sign, 'folder');
  if (values.key === undefined) throw new UsageError('--key <file> is required: the private key `skillmount keygen DIR` wrote');
  const signer = await signerFromFile(values.key);
  const root = path.resolve(location);
  const skills = await skillFolders(root);
  if (skills.includes('')) throw new Error(`${path.join(root, 'SKILL.md')}: a skill at the root of ${root} has no path to sign; give the folder above it`);
  // Innermost first: a skill's folder holds the skills nested in it, so their new signatures are among its files.
  const depth = (skill: string) => skill.split('/').length;
  for (const skill of [...skills].sort((a, b) => depth(b) - depth(a))) {
    const dir = path.join(root, ...skill.split('/'));
    const files = await Promise.all((await filesOf(dir)).map(async (file) => ({ path: file, bytes: new Uint8Array(await readFile(path.join(dir, file))) })));
    await writeFile(path.join(dir, SIGNATURE_FILE), await signSkill({ path: skill, files }, signer));
    say(`signed ${skill} (${plural(files.length, 'file')})`);
  }
  say(`${plural(skills.length, 'skill')} signed in ${root}`);
  return skills.length > 0 ? 0 : 1;
}
