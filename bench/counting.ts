import type { SkillFiles } from '@skillmount/core';

export interface Counted {
  files: SkillFiles;
  /**
   * File bodies taken from storage: reads, bytes a listing brought along, and — for a storage
   * whose listing reads files to hash them (`listingReadsBodies`, a folder) — every digest it listed.
   */
  bodies(): number;
  reset(): void;
}

/** A storage that counts the bodies taken through it, with the same optional extras as the one it wraps. */
export function counting(files: SkillFiles, listingReadsBodies = false): Counted {
  let bodies = 0;
  const wrapped: SkillFiles = {
    list: (dir) => files.list(dir),
    read: (path) => {
      bodies++;
      return files.read(path);
    },
    ...(files.inMemory === true ? { inMemory: true } : {}),
  };
  // A tree token spares a reload its listing: pass it on, or the bench would not measure that.
  if (typeof files.treeToken === 'function') wrapped.treeToken = () => files.treeToken!();
  if (typeof files.listAll === 'function') {
    wrapped.listAll = async (options) => {
      const listing = await files.listAll!(options);
      for (const item of listing) if (item.content !== undefined || (listingReadsBodies && item.digest !== undefined)) bodies++;
      return listing;
    };
  }
  return {
    files: wrapped,
    bodies: () => bodies,
    reset: () => {
      bodies = 0;
    },
  };
}
