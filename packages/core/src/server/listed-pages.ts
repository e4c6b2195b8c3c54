/**
 * Walking `skills/list` pages to the end, for the surfaces that need every skill a request may see
 * (prompt names, a search over a source that cannot search): bounded in pages, so a source whose
 * cursors never end cannot hold a request forever.
 */
import type { SkillEntry } from '../types.js';

/** One page of a listing: its skills and the cursor of the next, if any. */
export type ListPage = (cursor: string | undefined) => Promise<{ skills: readonly SkillEntry[]; nextCursor?: string | undefined }>;

/** Every skill `list` answers, in list order, up to `maxPages` pages (the rest are left out). */
export async function allListed(list: ListPage, maxPages: number): Promise<SkillEntry[]> {
  const skills: SkillEntry[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const answer = await list(cursor);
    skills.push(...answer.skills);
    cursor = answer.nextCursor;
    if (cursor === undefined) break;
  }
  return skills;
}
