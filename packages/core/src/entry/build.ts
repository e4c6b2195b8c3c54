import { CatalogError } from '../errors.js';
import { sha256Digest } from '../bytes/digest.js';
import { decodeUtf8 } from '../bytes/text.js';
import { SKILL_MD } from '../protocol/constants.js';
import { parseFrontmatter } from '../skillmd/parse.js';
import { frontmatterProblems } from '../skillmd/rules.js';
import { buildSkillUri } from '../uri/canonical.js';
import { segmentProblem } from '../uri/segment.js';
import type { SkillEntry, SkillFrontmatter, SkillResource, SkillWarning } from '../types.js';
import { compare } from '../text/compare.js';
import { deepFreeze } from './freeze.js';

/**
 * Build a valid, frozen entry for one skill from its files, for apps that write their own
 * `SkillSource`. `skillPath` is `/`-separated (`acme/billing/refunds`); `files` maps paths relative
 * to the skill folder to their content and must include `SKILL.md`. Throws a `CatalogError` that
 * lists every problem.
 *
 * @example
 * ```ts
 * import { buildSkillEntry } from '@skillmount/core';
 *
 * const entry = buildSkillEntry('acme/refunds', {
 *   'SKILL.md': '---\nname: refunds\ndescription: Handle refunds.\n---\nSteps…\n',
 *   'templates/email.md': 'Dear customer, …',
 * });
 * console.log(entry.uri); // 'skill://acme/refunds/SKILL.md'
 * ```
 * @throws {@link CatalogError} listing every problem: a bad path segment, a missing SKILL.md, invalid
 * front matter or a name that is not the folder's.
 */
export function buildSkillEntry(skillPath: string, files: Readonly<Record<string, string | Uint8Array>>): SkillEntry {
  const problems: SkillWarning[] = [];
  const dir = skillPath.replace(/^\/+|\/+$/g, '').split('/');
  for (const segment of dir) {
    const problem = segmentProblem(segment);
    if (problem) problems.push({ code: 'bad-name', path: skillPath, message: `skill path segment "${segment}": ${problem}` });
  }
  const encoder = new TextEncoder();
  const resources: SkillResource[] = [];
  let frontmatter: SkillFrontmatter | undefined;
  for (const [path, content] of Object.entries(files)) {
    const segments = path.split('/');
    const bad = segments.map(segmentProblem).find(Boolean);
    if (bad) {
      problems.push({ code: 'bad-name', path, message: `file path cannot be a skill URI (${bad})` });
      continue;
    }
    const bytes = typeof content === 'string' ? encoder.encode(content) : content;
    resources.push({ uri: buildSkillUri([...dir, ...segments]), digest: sha256Digest(bytes), size: bytes.byteLength });
    if (path === SKILL_MD) {
      const text = decodeUtf8(bytes);
      const parsed = text === undefined ? { ok: false as const, code: 'frontmatter' as const, error: 'SKILL.md is not valid UTF-8' } : parseFrontmatter(text);
      if (!parsed.ok) problems.push({ code: parsed.code, path, message: parsed.error });
      else {
        for (const message of frontmatterProblems(parsed.frontmatter, dir.at(-1))) problems.push({ code: 'frontmatter', path, message });
        frontmatter = parsed.frontmatter as SkillFrontmatter;
      }
    }
  }
  if (!(SKILL_MD in files)) problems.push({ code: 'missing-skill-md', path: skillPath, message: `files must include ${SKILL_MD}` });
  if (problems.length > 0) throw new CatalogError(problems, `skill ${skillPath}`);
  resources.sort((a, b) => compare(a.uri, b.uri));
  return deepFreeze({ uri: buildSkillUri([...dir, SKILL_MD]), frontmatter: frontmatter!, resources });
}
