import { access, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { generateSigningKey } from '@skillmount/core';
import { say } from '../terminal/print.js';
import { parseWithPositionals } from '../usage.js';

export const PRIVATE_KEY_FILE = 'skillmount-signing.key';
export const PUBLIC_KEY_FILE = 'skillmount-signing.pub';

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

/**
 * `skillmount keygen DIR`: a new ECDSA P-256 signing key, the private half in
 * `DIR/skillmount-signing.key` (mode 0600) and the public half in `DIR/skillmount-signing.pub`.
 * Refuses to overwrite either; never prints the private key.
 */
export async function keygen(argv: string[]): Promise<number> {
  const { positionals } = parseWithPositionals(argv, {}, ['dir']);
  const dir = path.resolve(positionals[0]!);
  const privateFile = path.join(dir, PRIVATE_KEY_FILE);
  const publicFile = path.join(dir, PUBLIC_KEY_FILE);
  for (const file of [privateFile, publicFile]) {
    if (await exists(file)) throw new Error(`${file} already exists; keygen never overwrites a key: move it away or pick another folder`);
  }
  await mkdir(dir, { recursive: true });
  const { privateKey, publicKey } = await generateSigningKey();
  // wx: fail rather than replace a file that appeared meanwhile; 0o600 from the first byte written.
  await writeFile(privateFile, privateKey, { mode: 0o600, flag: 'wx' });
  await writeFile(publicFile, publicKey, { mode: 0o644, flag: 'wx' });
  say(`wrote ${privateFile} (private: keep it secret, mode 0600) and ${publicFile} (give it to those who verify)`);
  return 0;
}
