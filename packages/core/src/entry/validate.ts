import { SkillEntrySchema } from '../protocol/schemas.js';
import { SKILL_MD } from '../protocol/constants.js';
import { frontmatterProblems } from '../skillmd/rules.js';
import { parseUri, skillUriKey } from '../uri/canonical.js';
import type { SkillEntry } from '../types.js';

/**
 * Every way an entry breaks SEP-2640's structural rules; empty when it is valid. Checks the shape,
 * the SKILL.md URI, name = last skill-path segment, the Agent Skills frontmatter rules, and that the
 * resources are complete-looking: SKILL.md listed, every file inside the skill folder, no repeats.
 *
 * @example
 * ```ts
 * import { entryProblems } from '@skillmount/core';
 *
 * const problems = entryProblems({ uri: 'skill://refunds/SKILL.md', frontmatter: { name: 'refunds' }, resources: [] });
 * if (problems.length > 0) console.error(problems.join('\n'));
 * ```
 * @throws Nothing: every problem is in the returned list.
 */
export function entryProblems(entry: unknown): string[] {
  const shape = SkillEntrySchema.safeParse(entry);
  if (!shape.success) {
    return shape.error.issues.map((issue) => `${issue.path.length ? issue.path.join('.') : 'entry'}: ${issue.message}`);
  }
  const skill = shape.data as SkillEntry;
  const problems: string[] = [];
  const parsed = parseUri(skill.uri);
  if (!parsed.ok) return [`uri ${skill.uri}: ${parsed.error}`];
  const segments = parsed.segments;
  if (segments.length < 2 || segments.at(-1) !== SKILL_MD) return [`uri ${skill.uri} must end with /${SKILL_MD} after the skill path`];
  const skillDir = segments.slice(0, -1);
  problems.push(...frontmatterProblems(skill.frontmatter, skillDir.at(-1)));
  if (skill.resources === 'dynamic') return problems;
  const seen = new Set<string>();
  let listsSkillMd = false;
  for (const resource of skill.resources) {
    const file = parseUri(resource.uri);
    if (!file.ok) {
      problems.push(`resource ${resource.uri}: ${file.error}`);
      continue;
    }
    const key = `${file.scheme}:${skillUriKey(file.segments)}`;
    if (seen.has(key)) problems.push(`resource ${resource.uri} is listed more than once`);
    seen.add(key);
    const inside = file.scheme === parsed.scheme && file.segments.length > skillDir.length && skillDir.every((segment, i) => file.segments[i] === segment);
    if (!inside) problems.push(`resource ${resource.uri} is outside the skill folder of ${skill.uri}`);
    if (key === `${parsed.scheme}:${skillUriKey(segments)}`) listsSkillMd = true;
  }
  if (!listsSkillMd) problems.push(`resources must list the skill's own ${SKILL_MD} (${skill.uri})`);
  return problems;
}
