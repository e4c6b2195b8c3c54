import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { keyFileSigner, SIGNATURE_FILE, signSkill } from '@skillmount/core';
import { isHiddenName } from '@skillmount/core/storage-kit';
import { FLAGS } from '../flags.js';
import { say } from '../terminal/print.js';
import { plural } from '../terminal/words.js';
import { parseCommand, UsageError } from '../usage.js';

/**
 * Every file under `dir` (relative, `/`-separated) that a server serves: symlinks, hidden names
 * (`.DS_Store`, `.git/`, which no catalog serves) and the signature left out.
 */
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

/** The folders under `root` that hold a SKILL.md, relative and `/`-separated. */
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
  let pem: string;
  try {
    pem = await readFile(values.key, 'utf8');
  } catch (error) {
    throw new Error(`cannot read the signing key ${values.key}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const signer = await keyFileSigner(pem);
  const root = path.resolve(location);
  // Deepest first: a nested skill's signature is one of the files of the skill around it, so it is written before that one is signed.
  const skills = (await skillFolders(root)).sort((a, b) => b.split('/').length - a.split('/').length);
  if (skills.includes('')) throw new Error(`${path.join(root, 'SKILL.md')}: a skill at the root of ${root} has no path to sign; give the folder above it`);
  for (const skill of skills) {
    const dir = path.join(root, ...skill.split('/'));
    const files = await Promise.all((await filesOf(dir)).map(async (file) => ({ path: file, bytes: new Uint8Array(await readFile(path.join(dir, file))) })));
    await writeFile(path.join(dir, SIGNATURE_FILE), await signSkill({ path: skill, files }, signer));
    say(`signed ${skill} (${plural(files.length, 'file')})`);
  }
  say(`${plural(skills.length, 'skill')} signed in ${root}`);
  return skills.length > 0 ? 0 : 1;
}
