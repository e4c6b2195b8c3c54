/**
 * The names the read tool and the prompts give skills: a skill's own name, or, when two skills the
 * request can see share it, its path (`acme/billing/refunds`). Worked out over the skills visible
 * to the request only, so a hidden skill never changes another skill's name.
 */
import { SKILL_MD } from '../protocol/constants.js';
import { parseUri } from '../uri/canonical.js';
import type { BaseUri } from '../uri/base.js';
import type { SkillContext, SkillEntry } from '../types.js';
import type { SkillHandlers } from './handlers.js';
import { allListed } from './listed-pages.js';

/**
 * `skills/list` pages walked for one answer (`prompts/list`, and a name looked up in a source with
 * no index of names); a larger source's later skills are not named (documented).
 */
export const MAX_NAMING_PAGES = 1000;

/** Every skill the request may see, in list order, through the skills service (so `visible()` and the budget apply). */
export async function visibleSkills(handlers: SkillHandlers, ctx: SkillContext): Promise<SkillEntry[]> {
  return allListed((cursor) => handlers.list(cursor, ctx), MAX_NAMING_PAGES);
}

/** The skill's path below the base URI (`acme/billing/refunds`), from its SKILL.md URI. */
export function skillPath(entry: SkillEntry, base: BaseUri): string {
  const parsed = parseUri(entry.uri);
  if (!parsed.ok) return entry.frontmatter.name;
  const folder = parsed.segments.at(-1) === SKILL_MD ? parsed.segments.slice(0, -1) : parsed.segments;
  return folder.slice(base.segments.length).join('/');
}

/** Each skill by the name it goes by: its own name, or its path where the name is shared. */
export function namedSkills(skills: readonly SkillEntry[], base: BaseUri): Map<string, SkillEntry> {
  const count = new Map<string, number>();
  for (const entry of skills) count.set(entry.frontmatter.name, (count.get(entry.frontmatter.name) ?? 0) + 1);
  const named = new Map<string, SkillEntry>();
  for (const entry of skills) {
    const shared = (count.get(entry.frontmatter.name) ?? 0) > 1;
    named.set(shared ? skillPath(entry, base) : entry.frontmatter.name, entry);
  }
  return named;
}

/**
 * The skill `name` names for the request: its name when no other visible skill shares it, or its
 * path (always accepted). A name several visible skills share gives their paths instead; a name no
 * visible skill goes by gives undefined. A catalog answers from its index of names, in time that
 * does not grow with it; any other source is walked page by page (`findSkillByListing`).
 */
export async function findSkill(handlers: SkillHandlers, name: string, ctx: SkillContext): Promise<SkillEntry | { shared: string[] } | undefined> {
  const named = await handlers.named(name, ctx);
  if (named === undefined) return findSkillByListing(handlers, name, ctx);
  if (named.skill) return named.skill;
  return named.bearing.length > 1 ? { shared: named.bearing.map((entry) => skillPath(entry, handlers.base)) } : undefined;
}

/** `findSkill` by walking every visible skill (`skills/list`, up to MAX_NAMING_PAGES pages): for sources with no index of names. */
export async function findSkillByListing(handlers: SkillHandlers, name: string, ctx: SkillContext): Promise<SkillEntry | { shared: string[] } | undefined> {
  const skills = await visibleSkills(handlers, ctx);
  const named = namedSkills(skills, handlers.base).get(name) ?? skills.find((entry) => skillPath(entry, handlers.base) === name);
  if (named) return named;
  const sharing = skills.filter((entry) => entry.frontmatter.name === name);
  return sharing.length > 1 ? { shared: sharing.map((entry) => skillPath(entry, handlers.base)) } : undefined;
}
