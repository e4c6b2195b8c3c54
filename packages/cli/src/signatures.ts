import { createPublicKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  keyFileSigner,
  parseUri,
  SIGNATURE_FILE,
  type SkillCatalog,
  type SkillSignatureResult,
  type SkillSigner,
  type TrustedKey,
  verifySkill,
} from '@skillmount/core';

/** The signer of a private key file (`skillmount keygen`'s skillmount-signing.key); the message never quotes the key. */
export async function signerFromFile(file: string): Promise<SkillSigner> {
  let pem: string;
  try {
    pem = await readFile(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read the signing key ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  return keyFileSigner(pem);
}

/** The public keys of `--trust` files, named by their file names; a file that is not an ECDSA P-256 public key is refused. */
export async function trustedKeys(files: readonly string[]): Promise<TrustedKey[]> {
  return Promise.all(
    files.map(async (file) => {
      let publicKey: string;
      try {
        publicKey = await readFile(file, 'utf8');
      } catch (error) {
        throw new Error(`cannot read the trusted key ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      }
      const problem = publicKeyProblem(publicKey);
      if (problem) throw new Error(`--trust ${file}: ${problem}; give the .pub file \`skillmount keygen\` writes (skillmount-signing.pub)`);
      return { name: path.basename(file), publicKey };
    }),
  );
}

/** Why a key file's text is not an ECDSA P-256 public key, or undefined. */
function publicKeyProblem(text: string): string | undefined {
  if (!text.includes('-----BEGIN PUBLIC KEY-----')) {
    return text.includes('PRIVATE KEY-----') ? 'it is a private key, not a public one' : 'it holds no PEM "PUBLIC KEY" block';
  }
  try {
    const key = createPublicKey(text);
    if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return undefined;
  } catch {
    return 'its PEM "PUBLIC KEY" block is not a key';
  }
  return 'it is not an ECDSA P-256 public key';
}

export interface SignatureFinding {
  uri: string;
  skill: string;
  result: SkillSignatureResult;
}

/** The signature state of every signed skill of the catalog (skills without `skill.oms.sig` are left out). */
export async function checkSignatures(catalog: SkillCatalog, prefixSegments: number, keys: readonly TrustedKey[]): Promise<SignatureFinding[]> {
  const findings: SignatureFinding[] = [];
  for (const entry of catalog.entries) {
    if (entry.resources === 'dynamic') continue;
    const base = entry.uri.slice(0, -'SKILL.md'.length);
    if (!entry.resources.some((r) => r.uri === `${base}${SIGNATURE_FILE}`)) continue;
    const parsed = parseUri(entry.uri);
    if (!parsed.ok) continue;
    const skill = parsed.segments.slice(prefixSegments, -1).join('/');
    const files = await Promise.all(
      entry.resources.map(async (r) => {
        const file = parseUri(r.uri);
        const relative = file.ok ? file.segments.slice(parsed.segments.length - 1).join('/') : r.uri;
        return { path: relative, bytes: (await catalog.read(r.uri)).bytes };
      }),
    );
    findings.push({ uri: entry.uri, skill, result: await verifySkill({ path: skill, files }, { trustedKeys: keys }) });
  }
  return findings;
}

/** One line for a person. */
export function signatureLine(finding: SignatureFinding): string {
  const { result, skill } = finding;
  if (result.state === 'verified') return `signed ${skill}: by ${result.signer.name}`;
  if (result.state === 'untrusted-key') return `signature ${skill}: signed by a key not given with --trust (hint ${result.hint.slice(0, 16)}…) [untrusted-key]`;
  if (result.state === 'invalid') return `signature ${skill}: ${result.detail} [${result.code}]`;
  return `unsigned ${skill}`;
}
