/**
 * The skills of many users, for the visibility case: each user's own skills under
 * `users/<user>/`, and skills every user shares under `shared/`. One catalog holds all of them
 * once; a tenant per user holds that user's own skills and a copy of the shared ones at the same
 * paths, so both serve the same URIs. Bytes come from the seeded generator of corpus.ts.
 */
import { fileBytes, size, type CorpusSize } from './corpus.js';

export interface UsersCorpus {
  users: number;
  /** Skills of each user's own. */
  ownSkills: number;
  /** Skills every user sees. */
  sharedSkills: number;
  /** Files per skill (SKILL.md included), each `kib` KiB. */
  filesPerSkill: number;
  kib: number;
}

export const userName = (u: number) => `user-${String(u).padStart(4, '0')}`;
export const sharedDir = 'shared';
const ownDir = (user: string, k: number) => `users/${user}/notes-${k}`;
const sharedSkillDir = (k: number) => `${sharedDir}/guide-${k}`;

/** The SKILL.md URI of a user's first skill: the file each user reads in the case. */
export const ownSkillMdUri = (user: string) => `skill://${ownDir(user, 1)}/SKILL.md`;
/** Whether `uri` is one a user may see: theirs, or shared. */
export const seenBy = (user: string, uri: string) => uri.startsWith(`skill://users/${user}/`) || uri.startsWith(`skill://${sharedDir}/`);

/** The size whose `fileBytes` gives every file of the corpus its bytes. */
const bytesOf = (c: UsersCorpus): CorpusSize => size(c.ownSkills + c.sharedSkills, c.filesPerSkill, c.kib);

export const usersLabel = (c: UsersCorpus) =>
  `${c.users.toLocaleString('en-US')} users × ${c.ownSkills} own skills + ${c.sharedSkills} shared, ${c.filesPerSkill} files of ${c.kib} KiB a skill`;

function filesOfSkill(dir: string, filesPerSkill: number): string[] {
  const paths = [`${dir}/SKILL.md`];
  for (let j = 1; j < filesPerSkill; j++)
    paths.push(`${dir}/${j % 2 === 1 ? 'references' : 'scripts'}/file-${String(j).padStart(3, '0')}.${j % 2 === 1 ? 'md' : 'py'}`);
  return paths;
}

export function ownPaths(c: UsersCorpus, user: string): string[] {
  return Array.from({ length: c.ownSkills }, (_, k) => filesOfSkill(ownDir(user, k + 1), c.filesPerSkill)).flat();
}

export function sharedPaths(c: UsersCorpus): string[] {
  return Array.from({ length: c.sharedSkills }, (_, k) => filesOfSkill(sharedSkillDir(k + 1), c.filesPerSkill)).flat();
}

/** The bytes of one file of the corpus (the same for a path wherever it is stored). */
export const usersFileBytes = (c: UsersCorpus, path: string): Uint8Array => fileBytes(bytesOf(c), path);
