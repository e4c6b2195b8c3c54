/**
 * Which visible skills the index publishes, and as what: a skill the installer would refuse (its
 * name, description or an archive path), one over the installer's limits, one with `"dynamic"`
 * files (no digest to publish), and a second skill with a name already published are left out,
 * each with a `well-known-skipped` warning. Pure: no storage call.
 */
import { SKILL_MD } from '../protocol/constants.js';
import { parseUri } from '../uri/canonical.js';
import type { SkillEntry, SkillWarning } from '../types.js';
import { archivePathProblem, entryProblem, INSTALLER_LIMITS } from './rules.js';

/** One file of a published skill: where it is in the archive, and what the catalog published for it. */
export interface PublishedFile {
  path: string;
  uri: string;
  size: number;
  digest: string;
}

/** A skill the index publishes: a lone SKILL.md as `skill-md`, anything more as an archive. */
export interface Candidate {
  name: string;
  description: string;
  type: 'skill-md' | 'archive';
  entry: SkillEntry;
  /** Sorted by path. */
  files: PublishedFile[];
}

const MIB = 1024 * 1024;

/** The candidates among `entries` (in their order), telling `skip` about each one left out. */
export function selectCandidates(entries: readonly SkillEntry[], skip: (warning: SkillWarning) => void): Candidate[] {
  const chosen = new Map<string, Candidate>();
  for (const entry of entries) {
    const left = (why: string) =>
      skip({ code: 'well-known-skipped', uri: entry.uri, message: `${entry.uri} is left out of /.well-known/agent-skills/index.json: ${why}` });
    const { name, description } = entry.frontmatter;
    const problem = entryProblem(name, description);
    if (problem) {
      left(`the skills installer refuses ${problem}`);
      continue;
    }
    const earlier = chosen.get(name);
    if (earlier) {
      left(`${earlier.entry.uri} is published under the same name "${name}", and the installer installs one skill per name`);
      continue;
    }
    const files = filesOf(entry);
    if (typeof files === 'string') {
      left(files);
      continue;
    }
    const type = files.length === 1 && files[0]!.path === SKILL_MD ? 'skill-md' : 'archive';
    chosen.set(name, { name, description, type, entry, files });
  }
  return [...chosen.values()];
}

/** The skill's files with their archive paths, or why it cannot be published. */
function filesOf(entry: SkillEntry): PublishedFile[] | string {
  if (entry.resources === 'dynamic') return 'its files are "dynamic", so there is no digest to publish';
  const skillMd = parseUri(entry.uri);
  if (!skillMd.ok) return `its URI is not a hierarchical URI (${skillMd.error})`;
  const folder = skillMd.segments.slice(0, -1);
  if (entry.resources.length > INSTALLER_LIMITS.files) {
    return `it has ${entry.resources.length} files, over the ${INSTALLER_LIMITS.files} the installer unpacks`;
  }
  let bytes = 0;
  const files: PublishedFile[] = [];
  for (const resource of entry.resources) {
    bytes += resource.size;
    const parsed = parseUri(resource.uri);
    if (!parsed.ok || parsed.scheme !== skillMd.scheme || !folder.every((segment, i) => parsed.segments[i] === segment)) {
      return `its file ${resource.uri} is not inside the skill's folder`;
    }
    const path = parsed.segments.slice(folder.length).join('/');
    const problem = archivePathProblem(path);
    if (problem) return `its file ${resource.uri} has ${problem}, which the installer refuses`;
    files.push({ path, uri: resource.uri, size: resource.size, digest: resource.digest });
  }
  if (bytes > INSTALLER_LIMITS.unpackedBytes) {
    return `its files hold ${bytes} bytes, over the ${INSTALLER_LIMITS.unpackedBytes / MIB} MiB the installer unpacks`;
  }
  if (!files.some((file) => file.path === SKILL_MD)) return 'its files do not include its SKILL.md';
  files.sort((a, b) => Buffer.compare(Buffer.from(a.path, 'utf8'), Buffer.from(b.path, 'utf8')));
  return files;
}
