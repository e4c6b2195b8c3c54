import type { ReloadReport, SkillEntry } from '../types.js';

/** What changed between two sorted, frozen entry lists, by SKILL.md URI. */
export function diffEntries(before: readonly SkillEntry[], after: readonly SkillEntry[]): ReloadReport {
  const old = new Map(before.map((e) => [e.uri, e]));
  const added: string[] = [];
  const changed: string[] = [];
  for (const entry of after) {
    const previous = old.get(entry.uri);
    if (!previous) added.push(entry.uri);
    else if (previous !== entry && JSON.stringify(previous) !== JSON.stringify(entry)) changed.push(entry.uri);
    old.delete(entry.uri);
  }
  const removed = [...old.keys()];
  return { added, removed, changed, listChanged: added.length + removed.length + changed.length > 0 };
}
