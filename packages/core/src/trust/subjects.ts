/** What a skill signature covers: every file of the skill but the signature itself, and the skill's path. */
import { sha256DigestWeb } from '../bytes/web-digest.js';
import { SIGNATURE_FILE, type Resource } from './oms.js';
import { type SkillDigestFile, skillDigest } from './skill-digest.js';

/** A skill as signing and verifying see it: its path (`pdf`, `team/pdf`) and its files with their bytes. */
export interface SkillToSign {
  /** The skill's path from the root of the skills folder, `/`-separated: part of what is signed. */
  path: string;
  /** Every file of the skill's folder, relative paths; a file named `skill.oms.sig` is left out. */
  files: readonly { path: string; bytes: Uint8Array }[];
}

const FRONTMATTER = /^---\r?\n[\s\S]*?\r?\n---(?:\r?\n|$)/;

/**
 * SKILL.md's frontmatter block (from the first `---` line through the closing one), or '' when
 * there is none: of the text as `new TextDecoder().decode` gives it (a leading BOM dropped).
 */
export function frontmatterBlock(text: string): string {
  return FRONTMATTER.exec(text)?.[0] ?? '';
}

/** The digest of SKILL.md's frontmatter block, or of nothing when there is none. */
export async function frontmatterDigest(skillMd: Uint8Array | undefined): Promise<string> {
  return sha256DigestWeb(new TextEncoder().encode(frontmatterBlock(skillMd ? new TextDecoder().decode(skillMd) : '')));
}

export interface Subjects {
  resources: Resource[];
  skillDigest: string;
  /** Undefined when SKILL.md's bytes were not at hand. */
  frontmatterDigest: string | undefined;
}

const byBytes = (a: string, b: string): number => {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
};

/** The resources (sorted by the UTF-8 bytes of their names), the skill digest and the frontmatter digest of the skill's files. */
export async function subjectsOf(skill: SkillToSign): Promise<Subjects & { frontmatterDigest: string }> {
  const files = skill.files.filter((file) => file.path !== SIGNATURE_FILE);
  const digested = await Promise.all(files.map(async (file) => ({ path: file.path, digest: await sha256DigestWeb(file.bytes) })));
  const subjects = await subjectsOfDigests(digested);
  return { ...subjects, frontmatterDigest: await frontmatterDigest(files.find((file) => file.path === 'SKILL.md')?.bytes) };
}

/**
 * The same from the files' digests (`sha256:<hex>`), as a listing gives them, so the bytes need not
 * be at hand; the signature's own entry is left out. No frontmatter digest: that needs SKILL.md's bytes.
 */
export async function subjectsOfDigests(files: readonly SkillDigestFile[]): Promise<Subjects> {
  const digested = files.filter((file) => file.path !== SIGNATURE_FILE).sort((a, b) => byBytes(a.path, b.path));
  return {
    resources: digested.map((file) => ({ name: file.path, algorithm: 'sha256', digest: file.digest.slice(7) })),
    skillDigest: await skillDigest(digested),
    frontmatterDigest: undefined,
  };
}
