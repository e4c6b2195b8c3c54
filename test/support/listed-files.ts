/** The files a skill entry lists, for tests that look one up: an entry whose files are `'dynamic'` fails here by its URI. */
import assert from 'node:assert/strict';
import type { SkillResource } from '@skillmount/core';

export function listedFiles(entry: { uri: string; resources: SkillResource[] | 'dynamic' }): SkillResource[] {
  if (entry.resources === 'dynamic') assert.fail(`${entry.uri} lists its files as 'dynamic', not one by one`);
  return entry.resources;
}
