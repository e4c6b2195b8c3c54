/**
 * Signature verdicts as `ls` and `get` show and judge them (`--trust`, `--require-signature`):
 * from an MCP server through the skills client, or from a site's downloaded artifact.
 */
import { SIGNATURE_FILE, signedSkillPath, type TrustedKey, verifySkill } from '@skillmount/core';
import { type SkillEntry, SkillResultError, type SkillSignatureVerdict, type SkillsClient, SkillVerificationError } from '@skillmount/core/client';
import { field } from './terminal/print.js';
import type { TrustFlags } from './trust-flags.js';

/** A verdict, or why the signature could not be read (its bytes are not the ones the entry lists). */
export type Verdict = SkillSignatureVerdict | { state: 'unreadable'; detail: string };

/** The verdict on a skill an MCP server lists, its signature read through the client's verified read. */
export async function serverVerdict(skills: SkillsClient, skill: SkillEntry): Promise<Verdict> {
  try {
    return await skills.verifySignature(skill);
  } catch (error) {
    if (error instanceof SkillVerificationError || error instanceof SkillResultError) return { state: 'unreadable', detail: error.message };
    throw error;
  }
}

/**
 * The verdict on a site's skill from the files of its artifact. The index names a skill by its
 * name only, so a signature made for a path ending in that name (`team/pdf` for `pdf`) is checked
 * against its own path; any other is a copy.
 */
export async function siteVerdict(name: string, files: ReadonlyMap<string, Uint8Array>, keys: readonly TrustedKey[]): Promise<SkillSignatureVerdict> {
  const signature = files.get(SIGNATURE_FILE);
  const signed = signature ? signedSkillPath(signature) : undefined;
  const skillPath = signed !== undefined && signed.split('/').at(-1) === name ? signed : name;
  const result = await verifySkill({ path: skillPath, files: [...files].map(([path, bytes]) => ({ path, bytes })) }, { trustedKeys: keys });
  return { ...result, skillPath };
}

/** Whether a client with these flags refuses the skill: an invalid or unreadable signature always, anything not verified with --require-signature. */
export const refused = (verdict: Verdict, flags: TrustFlags): boolean =>
  verdict.state === 'invalid' || verdict.state === 'unreadable' || (flags.require && verdict.state !== 'verified');

/** The SIGNATURE cell of a table, escaped. */
export function verdictCell(verdict: Verdict): string {
  if (verdict.state === 'verified') return `verified (${field(verdict.signer.name)})`;
  if (verdict.state === 'invalid') return `invalid (${verdict.code})`;
  return verdict.state;
}

/** What to say on stderr about a verdict (escaped), or undefined for a verified one, or an unsigned one a client would read. */
export function verdictProblem(verdict: Verdict, flags: TrustFlags): string | undefined {
  switch (verdict.state) {
    case 'verified':
      return undefined;
    case 'unsigned':
      return flags.require ? 'not signed, and --require-signature refuses it' : undefined;
    case 'untrusted-key':
      return `signed by a key not given with --trust (key hint ${verdict.hint})${flags.require ? ', and --require-signature refuses it' : ''}`;
    case 'invalid':
      return `its signature does not verify, so it is refused: ${field(verdict.detail)} [${verdict.code}]`;
    case 'unreadable':
      return `its signature could not be read as its entry lists it, so it is refused: ${field(verdict.detail)}`;
  }
}

/** What `get` says on stderr about the verdict on the skill it printed a file of (escaped). */
export function verdictNote(verdict: Verdict, flags: TrustFlags): string | undefined {
  return verdict.state === 'verified' ? `signed by ${field(verdict.signer.name)}` : verdictProblem(verdict, flags);
}

/** For a summary line: how many skills are in each state and how many are refused (`2 verified, 1 invalid (1 refused)`); '' for none. */
export function verdictCounts(verdicts: readonly Verdict[], refusedCount: number): string {
  const counts = new Map<string, number>();
  for (const verdict of verdicts) counts.set(verdict.state, (counts.get(verdict.state) ?? 0) + 1);
  const states = (['verified', 'unsigned', 'untrusted-key', 'invalid', 'unreadable'] as const)
    .filter((state) => counts.has(state))
    .map((state) => `${counts.get(state)} ${state}`);
  return `${states.join(', ')}${refusedCount > 0 ? ` (${refusedCount} refused)` : ''}`;
}
