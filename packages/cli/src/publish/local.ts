import { parseUri, sha256Digest, SkillCatalog, type SkillWarning } from '@skillmount/core';
import type { FsStorage } from '@skillmount/storage-fs';

/** A file of the folder that belongs to a valid skill, with what the check hashed. */
export interface LocalFile {
  /** Relative, `/`-separated, as it will be stored. */
  path: string;
  size: number;
  /** `sha256:<hex>` of the bytes the check read. */
  digest: string;
}

/** A skill that passed the check: its path (`team/pdf`) and the stored paths of the files it lists. */
export interface CheckedSkill {
  path: string;
  files: string[];
}

export interface CheckedFolder {
  /** How many skills passed the check. */
  skills: number;
  /** Each of them. */
  bySkill: CheckedSkill[];
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
  const bySkill: CheckedSkill[] = [];
  for (const entry of catalog.entries) {
    if (entry.resources === 'dynamic') continue; // a folder catalog never builds these
    const skill: CheckedSkill = { path: storedPath(entry.uri).slice(0, -'/SKILL.md'.length), files: [] };
    for (const resource of entry.resources) {
      const path = storedPath(resource.uri);
      files.set(path, { path, size: resource.size, digest: resource.digest });
      skill.files.push(path);
    }
    bySkill.push(skill);
  }
  catalog.close();
  return {
    skills: catalog.entries.length,
    bySkill,
    files: [...files.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
    problems,
  };
}

function storedPath(uri: string): string {
  const parsed = parseUri(uri);
  if (!parsed.ok) throw new Error(`the check produced a URI it cannot parse back (${uri}: ${parsed.error})`);
  return parsed.segments.join('/');
}

/** A checked file read again, never more than the size the check saw, and refused unless it still has the digest the check hashed. */
export async function readChecked(folder: Pick<FsStorage, 'read'>, file: LocalFile): Promise<Uint8Array> {
  let bytes;
  try {
    bytes = await folder.read(file.path, { maxBytes: file.size });
  } catch (error) {
    throw new Error(`"${file.path}" cannot be read again after the check read it (${(error as Error).message}); run publish again`, { cause: error });
  }
  if (bytes.byteLength !== file.size || sha256Digest(bytes) !== file.digest) {
    throw new Error(`"${file.path}" changed while publishing (after the check read it); run publish again`);
  }
  return bytes;
}
