/**
 * A catalog's skills by the names the read tool and the prompts take: a frontmatter name, or a
 * skill's path below the base URI (`acme/billing/refunds`). Read from the catalog's snapshot with
 * no storage call and no walk of its pages: the work does not grow with the catalog.
 */
import { SKILL_MD } from '../protocol/constants.js';
import { buildSkillUri } from '../uri/canonical.js';
import type { BaseUri } from '../uri/base.js';
import type { SkillEntry } from '../types.js';
import { catalogInternals, type SkillCatalog } from './catalog.js';

const NONE: readonly SkillEntry[] = Object.freeze([]);

/** The served skills whose frontmatter name is `name`, in list order (hidden ones included: the caller asks its rules). */
export function skillsNamed(catalog: SkillCatalog, name: string): readonly SkillEntry[] {
  return catalogInternals(catalog).snapshot.names.get(name) ?? NONE;
}

/**
 * The served skill whose SKILL.md is at `base` + `path` + `/SKILL.md`, where `base` is the
 * catalog's own base URI: the one skill whose path is `path`. Undefined for a path no skill is at,
 * and for one no URI can spell (an empty or `..` segment, an unpaired surrogate).
 */
export function skillAtPath(catalog: SkillCatalog, base: BaseUri, path: string): SkillEntry | undefined {
  const { snapshot, pathOf } = catalogInternals(catalog);
  let uri: string;
  let key: string;
  try {
    uri = buildSkillUri([...base.segments, ...path.split('/'), SKILL_MD], base.scheme);
    key = pathOf(uri, 'skill');
  } catch {
    return undefined;
  }
  const entry = snapshot.skills.get(key);
  // A catalog publishes the one spelling buildSkillUri gives: any other URI is not that path's skill.
  return entry?.uri === uri ? entry : undefined;
}
