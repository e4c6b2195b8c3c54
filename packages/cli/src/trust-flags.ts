/**
 * `--trust FILE…` and `--require-signature`, read and checked the same way for every command
 * (`ls`, `get`, `check`, `serve`), before any storage is opened or any server asked.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { checkTrustedKeys, OptionError, type TrustedKey } from '@skillmount/core';
import { UsageError } from './usage.js';

export interface TrustFlags {
  /** One key per --trust file, named by the file's name (what every report calls the signer). */
  keys: readonly TrustedKey[];
  /** `--require-signature`: a skill not signed by one of `keys` is refused. */
  require: boolean;
}

/**
 * The `--trust` keys and `--require-signature`, or undefined without --trust. A file given twice
 * is read once; two files with one name are a usage error (the name is the signer in every
 * report), as is `--require-signature` without --trust. A file that cannot be read, or is not an
 * ECDSA P-256 public key, is an error naming it (a private key given by mistake is never quoted).
 */
export async function trustFlags(values: { trust?: string[] | undefined; 'require-signature'?: boolean | undefined }): Promise<TrustFlags | undefined> {
  const files = [...new Set(values.trust ?? [])];
  const require = values['require-signature'] === true;
  if (files.length === 0) {
    if (require) {
      throw new UsageError('--require-signature needs the keys to trust: give --trust <file> (the .pub file `skillmount keygen` writes), once per key');
    }
    return undefined;
  }
  const named = new Map<string, string>();
  for (const file of files) {
    const other = named.get(path.basename(file));
    if (other !== undefined) {
      throw new UsageError(`--trust ${other} and --trust ${file} have the same file name, which names the signer in every report; rename one of them`);
    }
    named.set(path.basename(file), file);
  }
  const keys = await Promise.all(files.map(async (file) => ({ name: path.basename(file), publicKey: await readKeyFile(file) })));
  return { keys: checkKeys(keys, files), require };
}

async function readKeyFile(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read the trusted key ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/**
 * Core's check of trusted keys (PEM, ECDSA P-256, no private key), the one a `SkillsClient`, the
 * catalog's `trust` option and `verifySkill` make: its OptionError on `trustedKeys[i].publicKey`
 * or `.name` is re-worded to name the i-th file. The names are the files' names, already made unique above.
 */
function checkKeys(keys: readonly TrustedKey[], files: readonly string[]): readonly TrustedKey[] {
  try {
    return checkTrustedKeys(keys);
  } catch (error) {
    const at = error instanceof OptionError ? /^trustedKeys\[(\d+)\]\.(publicKey|name)$/.exec(error.option) : null;
    const file = at ? files[Number(at[1])] : undefined;
    if (file === undefined) throw error;
    const detail = (error as OptionError).detail;
    // The name is the file's name: a name the reports cannot print is fixed by renaming the file.
    throw new Error(at?.[2] === 'name' ? `--trust ${file}: the file's name ${detail} (rename the file)` : `--trust ${file}: the file ${detail}`, {
      cause: error,
    });
  }
}
