import { decodeBase64Strict } from '../bytes/base64.js';
import { decodeUtf8, utf8Length } from '../bytes/text.js';
import { sha256DigestWeb } from '../bytes/web-digest.js';
import { frontmatterSizeProblem, skillMdSizeProblem } from '../skillmd/limits.js';
import { parseFrontmatter as parseSkillMd } from '../skillmd/parse.js';
import { splitFrontmatter } from '../skillmd/split.js';
import { SkillVerificationError } from './errors.js';
import { frontmatterDifferences } from './frontmatter-diff.js';
import type { SkillEntry, SkillResource } from './types.js';

const encoder = new TextEncoder();

/** A `resources/read` content item as the SDK returns it: text or a base64 blob. */
export interface ContentItem {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

const refresh = (skillUri: string) => `refresh the entry with get(${JSON.stringify(skillUri)}) and read again`;

/**
 * The exact bytes a content item carries: the UTF-8 of its text, or its blob decoded as strict
 * base64. A blob that is not canonical base64 is a verification failure: forgiving decoders skip
 * what they do not know, so damaged content would otherwise be checked (and used) as other bytes.
 */
export function contentBytes(item: ContentItem, uri: string, skillUri: string): Uint8Array {
  if (typeof item.text === 'string') return encoder.encode(item.text);
  if (typeof item.blob !== 'string') {
    throw new SkillVerificationError(
      'encoding',
      uri,
      skillUri,
      `${uri} arrived with neither text nor a blob; ` + `nothing was used. ${refresh(skillUri)}, or report the server`,
    );
  }
  const decoded = decodeBase64Strict(item.blob);
  if (decoded.ok) return decoded.bytes;
  throw new SkillVerificationError(
    'encoding',
    uri,
    skillUri,
    `${uri} arrived as a blob that is not valid base64: ${decoded.error}; the content was not used. ` +
      `A server must send standard padded base64; ${refresh(skillUri)}, or report the server`,
  );
}

/** Size first (cheap, and enough on its own), then the SHA-256 digest. */
export async function checkListedFile(listed: SkillResource, bytes: Uint8Array, skillUri: string): Promise<void> {
  if (bytes.byteLength !== listed.size) {
    throw new SkillVerificationError(
      'size',
      listed.uri,
      skillUri,
      `${listed.uri} arrived as ${bytes.byteLength} bytes but the skill entry lists ${listed.size}; ` +
        `the content was not used. The file changed or the entry is stale: ${refresh(skillUri)}`,
    );
  }
  const digest = await sha256DigestWeb(bytes);
  if (digest !== listed.digest) {
    throw new SkillVerificationError(
      'digest',
      listed.uri,
      skillUri,
      `${listed.uri} has digest ${digest} but the skill entry lists ${listed.digest}; ` +
        `the content was not used. The file changed or the entry is stale: ${refresh(skillUri)}`,
    );
  }
}

export type FrontmatterParser = (yaml: string) => Record<string, unknown>;

const frontmatterFailure = (skill: SkillEntry, uri: string, message: string, differences: string[] = [], cause?: unknown) =>
  new SkillVerificationError(
    'frontmatter',
    uri,
    skill.uri,
    `${message}; the skill must not be loaded. If the skill changed, ${refresh(skill.uri)}`,
    differences,
    cause === undefined ? undefined : { cause },
  );

/**
 * Refuse the skill's SKILL.md when it is over MAX_SKILL_MD_BYTES: from the size its entry lists,
 * before it is requested, or from what a `"dynamic"` skill sent, before it is parsed.
 */
export function checkSkillMdSize(skill: SkillEntry, uri: string, bytes: number, stage: 'listed' | 'received'): void {
  const problem = skillMdSizeProblem(bytes);
  if (problem) throw frontmatterFailure(skill, uri, `${uri} ${stage === 'listed' ? 'was not requested' : 'was not parsed'}: ${problem}`);
}

/**
 * Parse the skill's own SKILL.md and require its frontmatter to equal the entry's, field by field.
 * `text` is undefined when the bytes are not UTF-8. A `parse` of the host's own gets the YAML only
 * once SKILL.md and its frontmatter are within their size limits.
 */
export function checkSkillMd(
  skill: SkillEntry,
  uri: string,
  text: string | undefined,
  parse?: FrontmatterParser,
): { frontmatter: Record<string, unknown>; body: string } {
  const fail = (message: string, differences: string[] = [], cause?: unknown) => frontmatterFailure(skill, uri, message, differences, cause);
  if (text === undefined) throw fail(`${uri} is not valid UTF-8, so its frontmatter cannot be read`);
  checkSkillMdSize(skill, uri, utf8Length(text), 'received');
  let parsed: { frontmatter: Record<string, unknown>; body: string };
  if (parse) {
    const split = splitFrontmatter(text);
    if (!split) throw fail(`${uri} does not begin with YAML frontmatter between "---" lines`);
    const tooLong = frontmatterSizeProblem(utf8Length(split.yaml));
    if (tooLong) throw fail(`the frontmatter of ${uri} cannot be parsed: ${tooLong}`);
    let frontmatter: unknown;
    try {
      frontmatter = parse(split.yaml);
    } catch (error) {
      throw fail(`the frontmatter of ${uri} cannot be parsed: ${error instanceof Error ? error.message : String(error)}`, [], error);
    }
    if (frontmatter === null || typeof frontmatter !== 'object' || Array.isArray(frontmatter)) {
      throw fail(`the frontmatter of ${uri} is not a mapping of fields`);
    }
    parsed = { frontmatter: frontmatter as Record<string, unknown>, body: split.body };
  } else {
    const result = parseSkillMd(text);
    if (!result.ok) throw fail(`the frontmatter of ${uri} cannot be parsed: ${result.error}`);
    parsed = { frontmatter: result.frontmatter, body: result.body };
  }
  const differences = frontmatterDifferences(skill.frontmatter, parsed.frontmatter);
  if (differences.length > 0) {
    throw fail(`the frontmatter of ${uri} differs from the skill entry: ${differences.join('; ')}`, differences);
  }
  return parsed;
}

/** Text of SKILL.md: as sent, or the bytes decoded as strict UTF-8. */
export function skillMdText(item: ContentItem, bytes: Uint8Array): string | undefined {
  return typeof item.text === 'string' ? item.text : decodeUtf8(bytes);
}
