import type { SkillFiles } from '@skillmount/core';

/** A storage that counts the bodies read through it, with the same optional extras as the one it wraps. */
export function counting(files: SkillFiles): { files: SkillFiles; reads(): number; reset(): void } {
  let reads = 0;
  const wrapped: SkillFiles = {
    list: (dir) => files.list(dir),
    read: (path) => {
      reads++;
      return files.read(path);
    },
  };
  if (typeof files.listAll === 'function') wrapped.listAll = () => files.listAll!();
  return { files: wrapped, reads: () => reads, reset: () => void (reads = 0) };
}
