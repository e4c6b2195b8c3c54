import { SKILL_MD } from '../protocol/constants.js';
import type { SkillWarning } from '../types.js';
import { joinPath, type StorageTree } from './walk.js';

// ASCII case-insensitive: `skill.md`, `Skill.md`, `SKILL.MD` and the like.
const SKILL_MD_ANY_CASE = /^skill\.md$/i;

/**
 * A `skill-md-case` warning for every visible folder that has no `SKILL.md` but a file whose name
 * is `SKILL.md` in another case: the folder is not a skill, and without the warning it would be
 * left out in silence (on a case-insensitive disk the name still reads differently in storage).
 */
export function misnamedSkillMds(tree: StorageTree, isHidden: (name: string) => boolean): SkillWarning[] {
  const warnings: SkillWarning[] = [];
  for (const [dir, children] of tree) {
    if (dir !== '' && dir.split('/').some(isHidden)) continue;
    if (children.some((c) => c.kind === 'file' && c.name === SKILL_MD)) continue;
    const misnamed = children.find((c) => c.kind === 'file' && SKILL_MD_ANY_CASE.test(c.name));
    if (!misnamed) continue;
    warnings.push({
      code: 'skill-md-case',
      path: joinPath(dir, misnamed.name),
      message: `found ${misnamed.name}; the file must be named ${SKILL_MD} exactly. Rename it, or this folder is not served as a skill`,
    });
  }
  return warnings;
}
