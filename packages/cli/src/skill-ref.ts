import { parseUri } from '@skillmount/core';
import type { SkillEntry } from '@skillmount/core/client';

/**
 * How `skillmount get` finds the skill a user names: by URI (`skill://acme/billing/refunds/SKILL.md`),
 * by skill path (`acme/billing/refunds`: the URI after `scheme://`, without `/SKILL.md`), or by
 * name (`refunds`). A skill path names one skill; a name may name several (the same name under
 * different prefixes), and then nothing is picked: printing the wrong skill's file would go
 * unnoticed in a pipe, while the list of paths makes the choice one copy away.
 */
export type SkillMatch =
  | { kind: 'found'; skill: SkillEntry; by: 'path' | 'name'; alsoNamed: SkillEntry[] }
  | { kind: 'ambiguous'; by: 'path' | 'name'; skills: SkillEntry[] }
  | { kind: 'none' };

const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//;

/** The argument is a URI (has a scheme), to be asked for with skills/get as it is. */
export const isUriRef = (ref: string): boolean => SCHEME.test(ref);

/** The skill path a user typed, as segments: slashes at either end and a final `SKILL.md` are dropped. */
export function refSegments(ref: string): string[] {
  const segments = ref.replace(/^\/+|\/+$/g, '').split('/');
  if (segments.length > 1 && segments.at(-1) === 'SKILL.md') segments.pop();
  return segments;
}

/** An entry's skill path (`acme/billing/refunds`), decoded; undefined for a URI that does not parse. */
export function skillPathOf(skill: SkillEntry): string | undefined {
  const parsed = parseUri(skill.uri);
  return parsed.ok ? parsed.segments.slice(0, -1).join('/') : undefined;
}

const byUri = (a: SkillEntry, b: SkillEntry) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0);

/** The listed skill `ref` (a skill path or a name, not a URI) names. */
export function findSkill(ref: string, skills: readonly SkillEntry[]): SkillMatch {
  const segments = refSegments(ref);
  const path = segments.join('/');
  const atPath = skills.filter((s) => skillPathOf(s) === path).sort(byUri);
  // A name has no slash; the same text as a one-segment path is both.
  const named = segments.length === 1 ? skills.filter((s) => s.frontmatter.name === path).sort(byUri) : [];
  if (atPath.length === 1) return { kind: 'found', skill: atPath[0]!, by: 'path', alsoNamed: named.filter((s) => s !== atPath[0]) };
  // Several at one path differ only by URI scheme.
  if (atPath.length > 1) return { kind: 'ambiguous', by: 'path', skills: atPath };
  if (named.length === 1) return { kind: 'found', skill: named[0]!, by: 'name', alsoNamed: [] };
  if (named.length > 1) return { kind: 'ambiguous', by: 'name', skills: named };
  return { kind: 'none' };
}
