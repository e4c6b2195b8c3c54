/** `serve --trust FILE… --require-signature`: the catalog's `trust` option, read from the key files. */
import path from 'node:path';
import { OptionError, type SkillTrustOptions } from '@skillmount/core';
import { trustedKeys } from './signatures.js';
import { UsageError } from './usage.js';

export interface TrustFlags {
  /** The catalog option; undefined without --trust. */
  option: SkillTrustOptions | undefined;
  /** The --trust files, in the order of `option.keys`. */
  files: readonly string[];
}

/**
 * Read the `--trust` files (each key named by its file name, which results report as the signer).
 * A file that cannot be read is an error naming it; `--require-signature` without `--trust` is a usage error.
 */
export async function trustFlags(files: readonly string[] | undefined, requireSignature: boolean): Promise<TrustFlags> {
  if (files === undefined || files.length === 0) {
    if (requireSignature) {
      throw new UsageError('--require-signature needs --trust <file>: the public keys (skillmount-signing.pub) whose signatures to accept');
    }
    return { option: undefined, files: [] };
  }
  const named = new Map<string, string>();
  for (const file of files) {
    const name = path.basename(file);
    const other = named.get(name);
    if (other !== undefined && other !== file) {
      throw new UsageError(`--trust ${other} and --trust ${file} have the same file name, which names the signer in every report; rename one of them`);
    }
    named.set(name, file);
  }
  const unique = [...new Set(files)];
  return { option: { keys: await trustedKeys(unique), requireSignature }, files: unique };
}

/**
 * The catalog's refusal of a key (an `OptionError` on `trust.keys[i]`, or `catalog.trust.keys[i]` for
 * tenants) as an error naming the file it was read from; undefined for any other error.
 */
export function keyFileError(error: unknown, flags: TrustFlags): Error | undefined {
  if (!(error instanceof OptionError)) return undefined;
  const at = /^(?:catalog\.)?trust\.keys\[(\d+)\]/.exec(error.option);
  const file = at ? flags.files[Number(at[1])] : undefined;
  return file === undefined ? undefined : new Error(`--trust ${file}: ${error.detail.replace(/^\(the key named "[^"]*"\) /, '')}`, { cause: error });
}
