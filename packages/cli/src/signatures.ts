import { readFile } from 'node:fs/promises';
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
