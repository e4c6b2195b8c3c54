import { CatalogError, StorageError } from '../errors.js';
import { sha256Digest } from '../bytes/digest.js';
import { decodeUtf8 } from '../bytes/text.js';
import { DIRECTORY_MIME, SKILL_MD, SKILL_MD_MIME } from '../protocol/constants.js';
import { parseFrontmatter, type FrontmatterResult } from '../skillmd/parse.js';
import { frontmatterNotes, frontmatterProblems } from '../skillmd/rules.js';
import { buildSkillUri, skillUriKey } from '../uri/canonical.js';
import { segmentProblem } from '../uri/segment.js';
import type { DirectoryChild, SkillEntry, SkillFileEntry, SkillFiles, SkillFrontmatter, SkillLimits, SkillResource, SkillResourceListing, SkillWarning } from '../types.js';
import { mapLimit } from './limit.js';
import { mimeTypeFor } from './mime.js';
import type { CatalogSnapshot, FileRecord, ReadRecord } from './snapshot.js';
import { isPlainName, joinPath, walkStorage, type StorageTree } from './walk.js';
import { deepFreeze } from './freeze.js';

export interface BuildOptions {
  prefix: readonly string[];
  limits: SkillLimits;
  strict: boolean;
  concurrency: number;
}

interface Subtree {
  files: string[];
  dirs: string[];
  problems: SkillWarning[];
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;

// Names starting with "." (.git, .DS_Store) are not part of a skill, as in the Agent Skills tooling and the SDK v2.
const isHidden = (name: string) => name.startsWith('.');

/**
 * Walk a storage and build a validated snapshot. Content problems skip the skill with a warning
 * (or, under `strict`, throw one CatalogError listing all of them); storage failures throw.
 * With `previous`, files whose change token is unchanged are not read again.
 */
export async function buildSnapshot(files: SkillFiles, options: BuildOptions, previous?: CatalogSnapshot): Promise<CatalogSnapshot> {
  const tree = await walkStorage(files, options.concurrency);
  const warnings: SkillWarning[] = [];
  const listedFiles = new Map<string, SkillFileEntry>();
  const subtrees = new Map<string, Subtree>();

  const collect = (dir: string): Subtree => {
    const known = subtrees.get(dir);
    if (known) return known;
    const result: Subtree = { files: [], dirs: [dir], problems: [] };
    for (const child of tree.get(dir) ?? []) {
      if (isHidden(child.name)) continue;
      const path = joinPath(dir, child.name);
      const problem = isPlainName(child.name) ? segmentProblem(child.name) : 'a name that is not a single path segment';
      if (problem) {
        result.problems.push({ code: 'bad-name', path, message: `"${child.name}" cannot be a skill URI segment (${problem}); rename it` });
      } else if (child.kind === 'unsupported') {
        result.problems.push({ code: 'unsupported', path, message: 'symlinks and special files are not served; replace it with a regular file or folder' });
      } else if (child.kind === 'file') {
        result.files.push(path);
        listedFiles.set(path, child);
      } else {
        const sub = collect(path);
        result.files.push(...sub.files);
        result.dirs.push(...sub.dirs);
        result.problems.push(...sub.problems);
      }
    }
    subtrees.set(dir, result);
    return result;
  };

  // Candidate skills: every visible folder that holds a SKILL.md file.
  const candidates: { dir: string; subtree: Subtree; problems: SkillWarning[] }[] = [];
  for (const [dir, children] of tree) {
    if (!children.some((c) => c.kind === 'file' && c.name === SKILL_MD)) continue;
    if (dir === '') {
      warnings.push({ code: 'root-skill', path: SKILL_MD, message: 'a SKILL.md at the storage root has no skill path; move it into a folder named after the skill' });
      continue;
    }
    const segments = dir.split('/');
    if (segments.some(isHidden)) continue;
    const problems: SkillWarning[] = [];
    segments.forEach((segment, i) => {
      const problem = segmentProblem(segment);
      if (problem) problems.push({ code: 'bad-name', path: segments.slice(0, i + 1).join('/'), message: `folder name cannot be a skill URI segment (${problem}); rename it` });
    });
    const subtree = collect(dir);
    problems.push(...subtree.problems);
    candidates.push({ dir, subtree, problems });
  }
  for (const [dir, children] of tree) {
    // Unsupported entries outside any skill are ignored, but say so once.
    if (dir.split('/').some(isHidden) || candidates.some((c) => dir === c.dir || dir.startsWith(c.dir + '/'))) continue;
    for (const child of children) {
      if (child.kind === 'unsupported' && (!isPlainName(child.name) || !isHidden(child.name))) {
        warnings.push({ code: 'unsupported', path: joinPath(dir, child.name), message: 'not a regular file or folder (a symlink, a special file, or a name that cannot be a relative path); ignored' });
      }
    }
  }

  // Read and hash each file once, even when nested skills share it.
  const needed = new Set<string>();
  for (const c of candidates) if (c.problems.length === 0) for (const f of c.subtree.files) needed.add(f);
  const reads = new Map<string, ReadRecord>();
  let bodiesRead = 0;
  const paths = [...needed];
  await mapLimit(paths, options.concurrency, async (path) => {
    const listed = listedFiles.get(path);
    const token = listed?.token;
    const before = previous?.reads.get(path);
    if (token !== undefined && before && before.token === token) {
      reads.set(path, before);
      return;
    }
    const isSkillMd = path === SKILL_MD || path.endsWith('/' + SKILL_MD);
    const vouched = isSkillMd ? undefined : vouchedFor(listed);
    if (vouched) {
      // The storage vouches for the content; reads are still verified against it when served.
      reads.set(path, token === undefined ? vouched : { ...vouched, token });
      return;
    }
    let bytes: Uint8Array;
    try {
      bytes = await files.read(path);
    } catch (error) {
      if (error instanceof StorageError) throw error;
      throw new StorageError(`cannot read "${path}": ${(error as Error)?.message ?? error}`, path, { cause: error });
    }
    bodiesRead++;
    const record: ReadRecord = { size: bytes.byteLength, digest: sha256Digest(bytes) };
    if (token !== undefined) record.token = token;
    if (isSkillMd) record.frontmatter = frontmatterOf(bytes);
    reads.set(path, record);
  });

  const built: { key: string; entry: SkillEntry }[] = [];
  const fileIndex = new Map<string, FileRecord>();
  const directories = new Map<string, DirectoryChild[]>();
  const problems: SkillWarning[] = [];
  const prefix = options.prefix;

  for (const candidate of candidates) {
    const { dir, subtree } = candidate;
    const skillMdPath = joinPath(dir, SKILL_MD);
    const skillUri = buildSkillUri([...prefix, ...skillMdPath.split('/')]);
    const skillProblems = [...candidate.problems];
    let frontmatter: SkillFrontmatter | undefined;
    if (skillProblems.length === 0) {
      const parsed = reads.get(skillMdPath)!.frontmatter!;
      if (!parsed.ok) {
        skillProblems.push({ code: 'frontmatter', path: skillMdPath, message: parsed.error });
      } else {
        const folderName = dir.slice(dir.lastIndexOf('/') + 1);
        for (const message of frontmatterProblems(parsed.frontmatter, folderName)) {
          skillProblems.push({ code: message.includes('folder name') ? 'name-mismatch' : 'frontmatter', path: skillMdPath, message });
        }
        frontmatter = parsed.frontmatter as SkillFrontmatter;
        if (parsed.portability.length > 0) {
          warnings.push({
            code: 'portability',
            path: skillMdPath,
            message: `frontmatter uses ${parsed.portability.join(', ')}: valid YAML, served as is, but some hosts (the official SDK v2 among them) cannot parse it and will not load this skill; write plain "key: value" YAML`,
          });
        }
        for (const message of frontmatterNotes(parsed.frontmatter)) warnings.push({ code: 'reserved-metadata', path: skillMdPath, message });
      }
    }
    let resources: SkillResource[] = [];
    if (skillProblems.length === 0) {
      let bytes = 0;
      resources = subtree.files.map((path) => {
        const read = reads.get(path)!;
        bytes += read.size;
        return { uri: buildSkillUri([...prefix, ...path.split('/')]), digest: read.digest, size: read.size };
      });
      if (resources.length > options.limits.files) {
        skillProblems.push({ code: 'limit', path: dir, message: `skill has ${resources.length} files; the limit is ${options.limits.files}` });
      }
      if (bytes > options.limits.bytes) {
        skillProblems.push({ code: 'limit', path: dir, message: `skill has ${bytes} bytes; the limit is ${options.limits.bytes}` });
      }
    }
    if (skillProblems.length > 0) {
      for (const p of skillProblems) problems.push({ ...p, uri: skillUri, message: `skill skipped: ${p.message}` });
      continue;
    }
    resources.sort((a, b) => compare(a.uri, b.uri));
    built.push({ key: skillUriKey([...prefix, ...skillMdPath.split('/')]), entry: { uri: skillUri, frontmatter: frontmatter!, resources } });
    for (const path of subtree.files) {
      const segments = [...prefix, ...path.split('/')];
      const key = skillUriKey(segments);
      if (fileIndex.has(key)) continue;
      const read = reads.get(path)!;
      const record: FileRecord = { path, uri: buildSkillUri(segments), size: read.size, digest: read.digest, mimeType: mimeTypeFor(segments.at(-1)!) };
      if (read.token !== undefined) record.token = read.token;
      fileIndex.set(key, record);
    }
    for (const d of subtree.dirs) {
      const key = skillUriKey([...prefix, ...d.split('/')]);
      if (!directories.has(key)) directories.set(key, directoryChildren(tree, d, prefix, reads));
    }
  }

  if (options.strict && (problems.length > 0 || warnings.some((w) => w.code === 'root-skill'))) {
    throw new CatalogError([...warnings.filter((w) => w.code === 'root-skill'), ...problems]);
  }

  built.sort((a, b) => compare(a.entry.uri, b.entry.uri));
  const entries = built.map((b) => b.entry);
  const skills = new Map(built.map((b) => [b.key, b.entry]));
  const resourceListing: SkillResourceListing[] = [];
  for (const entry of entries) {
    const skillMd = (entry.resources as SkillResource[]).find((r) => r.uri === entry.uri)!;
    resourceListing.push({ uri: entry.uri, name: entry.frontmatter.name, description: entry.frontmatter.description, mimeType: SKILL_MD_MIME, size: skillMd.size });
  }
  return {
    entries: deepFreeze(entries),
    skills,
    files: fileIndex,
    directories,
    resourceListing: deepFreeze(resourceListing),
    reads,
    warnings: [...warnings, ...problems],
    bodiesRead,
  };
}

/** The size and digest a storage vouched for, when both are well-formed; otherwise the body is read and hashed. */
function vouchedFor(listed: SkillFileEntry | undefined): { size: number; digest: string } | undefined {
  if (!listed || typeof listed.digest !== 'string' || !DIGEST.test(listed.digest)) return undefined;
  const size = listed.size;
  return typeof size === 'number' && Number.isSafeInteger(size) && size >= 0 ? { size, digest: listed.digest } : undefined;
}

function frontmatterOf(bytes: Uint8Array): FrontmatterResult {
  const text = decodeUtf8(bytes);
  if (text === undefined) return { ok: false, error: 'SKILL.md is not valid UTF-8' };
  return parseFrontmatter(text);
}

function directoryChildren(tree: StorageTree, dir: string, prefix: readonly string[], reads: Map<string, ReadRecord>): DirectoryChild[] {
  const children: DirectoryChild[] = [];
  for (const child of tree.get(dir) ?? []) {
    if (isHidden(child.name)) continue;
    const path = joinPath(dir, child.name);
    const uri = buildSkillUri([...prefix, ...path.split('/')]);
    if (child.kind === 'directory') children.push({ uri, name: child.name, mimeType: DIRECTORY_MIME });
    else if (child.kind === 'file') children.push({ uri, name: child.name, mimeType: mimeTypeFor(child.name), size: reads.get(path)!.size });
  }
  return children.sort((a, b) => compare(a.uri, b.uri));
}

/** Code-unit order, the same in every locale. */
export const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
