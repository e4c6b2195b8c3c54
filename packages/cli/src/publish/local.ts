import { parseUri, SkillCatalog, type SkillWarning } from '@skillmount/core';
import type { FsStorage } from '@skillmount/storage-fs';

/** A file of the folder that belongs to a valid skill, with what the check hashed. */
export interface LocalFile {
  /** Relative, `/`-separated, as it will be stored. */
  path: string;
  size: number;
  /** `sha256:<hex>` of the bytes the check read. */
  digest: string;
}

export interface CheckedFolder {
  /** How many skills passed the check. */
  skills: number;
  /** Every file of those skills, once each (nested skills share files), sorted by path. */
  files: LocalFile[];
  /** Everything `skillmount check` would report. */
  problems: SkillWarning[];
}

/**
 * Load the folder exactly as `skillmount check` and `serve` do, and keep the files of the skills
 * that passed: stray files outside any skill, hidden names (`.git`, `.DS_Store`) and the files of
 * skills with problems are not part of the result.
 */
export async function checkFolder(storage: FsStorage): Promise<CheckedFolder> {
  const problems: SkillWarning[] = [];
  const catalog = await SkillCatalog.load(storage, { pageSize: Infinity, onWarning: (w) => problems.push(w) });
  const files = new Map<string, LocalFile>();
  for (const entry of catalog.entries) {
    if (entry.resources === 'dynamic') continue; // a folder catalog never builds these
    for (const resource of entry.resources) {
      const parsed = parseUri(resource.uri);
      if (!parsed.ok) throw new Error(`the check produced a URI it cannot parse back (${resource.uri}: ${parsed.error})`);
      const path = parsed.segments.join('/');
      files.set(path, { path, size: resource.size, digest: resource.digest });
    }
  }
  catalog.close();
  return { skills: catalog.entries.length, files: [...files.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)), problems };
}
