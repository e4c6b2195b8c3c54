/**
 * `@skillmount/core/storage-kit`: what every storage shares, for storage authors. Dependency-free
 * (Node built-ins at most), so it loads anywhere a storage runs, worker threads included.
 *
 * @module @skillmount/core/storage-kit
 */
export type { ListAllOptions, SkillFileEntry, SkillFileKind, SkillFileListing, SkillFileReadOptions, SkillFiles } from './types.js';
export { isPlainPath, isPlainSegment, joinPath, plainPathProblem, plainSegmentProblem } from './paths.js';
export {
  canBeSkillFolder,
  isHiddenName,
  isHiddenPath,
  isSkillFile,
  isSkillMdPath,
  SKILL_MD,
  skillFolderOf,
  skillFoldersHolding,
  skillFoldersIn,
} from './skill-folders.js';
export { mapLimit } from './limit.js';
export { storageError, toStorageError, type StorageFailure } from './errors.js';
export { StorageError } from './storage-error.js';
