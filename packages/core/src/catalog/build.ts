import { CatalogError } from '../errors.js';
import { sha256Digest } from '../bytes/digest.js';
import { decodeUtf8 } from '../bytes/text.js';
import { DIRECTORY_MIME, SKILL_MD, SKILL_MD_MIME } from '../protocol/constants.js';
import { skillMdSizeProblem } from '../skillmd/limits.js';
import { parseFrontmatter } from '../skillmd/parse.js';
import { folderNameProblem, frontmatterNotes, frontmatterProblems } from '../skillmd/rules.js';
import { segmentProblem } from '../uri/segment.js';
import { escapeControls } from '../text/escape.js';
import type { SkillEntry, SkillFileEntry, SkillFileListing, SkillFiles, SkillFrontmatter, SkillLimits, SkillResource, SkillResourceListing, SkillWarning } from '../types.js';
import { mapLimit } from '../storage-kit/limit.js';
import { toStorageError } from '../storage-kit/errors.js';
import { canBeSkillFolder, isHiddenName, isHiddenPath, isSkillMdPath } from '../storage-kit/skill-folders.js';
import { misnamedSkillMds } from './misnamed.js';
import { limitProblems } from './over-limit.js';
import { itemUri, type CatalogSnapshot, type DirectoryItem, type FileRecord, type ListedState, type ParsedSkillMd } from './snapshot.js';
import { isPlainName, joinPath, listAllOf, treeFromListing, walkStorage, type StorageTree } from './walk.js';
import { deepFreeze } from './freeze.js';
import { UriTable } from './uris.js';
import { fingerprintOf } from './fingerprint.js';

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


/**
 * Walk a storage and build a validated snapshot. Content problems skip the skill with a warning
 * (or, under `strict`, throw one CatalogError listing all of them); storage failures throw.
 * With `previous`, files whose change token is unchanged are not read again, and entries that
 * come out identical are the previous (frozen) objects.
 */
export async function buildSnapshot(files: SkillFiles, options: BuildOptions, previous?: CatalogSnapshot): Promise<CatalogSnapshot> {
  // Nothing the listing or the walk shows has changed: the previous snapshot still holds, with no body read.
  const known = previous && ((path: string) => (previous.files.get(path) ?? previous.unserved.get(path))?.token);
  const listing = await listAllOf(files, known && { known });
  if (listing && previous?.listed && sameListing(listing, previous, previous.listed)) return { ...previous, bodiesRead: 0 };
  const tree = listing ? treeFromListing(listing) : await walkStorage(files, options.concurrency);
  const fingerprint = listing ? undefined : fingerprintOf(tree);
  if (fingerprint !== undefined && previous?.fingerprint === fingerprint) return { ...previous, bodiesRead: 0 };
  const warnings: SkillWarning[] = [];
  const listedFiles = new Map<string, SkillFileEntry>();
  const subtrees = new Map<string, Subtree>();
  const uris = new UriTable(options.prefix);

  const collect = (dir: string): Subtree => {
    const known = subtrees.get(dir);
    if (known) return known;
    const result: Subtree = { files: [], dirs: [dir], problems: [] };
    for (const child of tree.get(dir) ?? []) {
      if (isHiddenName(child.name)) continue;
      const path = joinPath(dir, child.name);
      const problem = isPlainName(child.name) ? segmentProblem(child.name) : 'a name that is not a single path segment';
      if (problem) {
        result.problems.push({ code: 'bad-name', path, message: `"${escapeControls(child.name)}" cannot be a skill URI segment (${problem}); rename it` });
      } else if (child.kind === 'unsupported') {
        result.problems.push({ code: 'unsupported', path, message: 'symlinks and special files are not served; replace it with a regular file or folder' });
      } else if (child.kind === 'file') {
        result.files.push(path);
        listedFiles.set(path, child);
      } else {
        const sub = collect(path);
        // Loops, not push(...spread): a subtree can hold more items than a call takes arguments.
        for (const f of sub.files) result.files.push(f);
        for (const d of sub.dirs) result.dirs.push(d);
        for (const p of sub.problems) result.problems.push(p);
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
    if (!canBeSkillFolder(dir)) continue;
    const segments = dir.split('/');
    const problems: SkillWarning[] = [];
    segments.forEach((segment, i) => {
      const problem = segmentProblem(segment);
      if (problem) problems.push({ code: 'bad-name', path: segments.slice(0, i + 1).join('/'), message: `folder name "${escapeControls(segment)}" cannot be a skill URI segment (${problem}); rename it` });
    });
    const subtree = collect(dir);
    for (const p of subtree.problems) problems.push(p);
    candidates.push({ dir, subtree, problems });
  }
  for (const w of misnamedSkillMds(tree, isHiddenName)) warnings.push(w);
  if (candidates.length === 0 && !warnings.some((w) => w.code === 'root-skill')) warnings.push(noSkills(files.label));
  const candidateDirs = new Set(candidates.map((c) => c.dir));
  const insideCandidate = (dir: string): boolean => {
    for (let d = dir; d !== ''; d = d.slice(0, Math.max(0, d.lastIndexOf('/')))) if (candidateDirs.has(d)) return true;
    return false;
  };
  for (const [dir, children] of tree) {
    // Unsupported entries outside any skill are ignored, but say so once.
    if (isHiddenPath(dir) || insideCandidate(dir)) continue;
    for (const child of children) {
      if (child.kind === 'unsupported' && (!isPlainName(child.name) || !isHiddenName(child.name))) {
        warnings.push({ code: 'unsupported', path: joinPath(dir, child.name), message: 'not a regular file or folder (a symlink, a special file, or a name that cannot be a relative path); ignored' });
      }
    }
  }

  // One record per file, even when nested skills share it: unchanged tokens and vouched digests need
  // no read; the rest are read and hashed with `concurrency` reads in flight.
  const records = new Map<string, FileRecord | undefined>();
  const skillMds = new Map<string, ParsedSkillMd>();
  const toRead: string[] = [];
  let contentsTaken = 0;
  const recordOf = (path: string, size: number, digest: string, token: string | undefined): FileRecord => {
    const record: FileRecord = { path, resource: { uri: uris.uri(path), digest, size } };
    if (token !== undefined) record.token = token === digest ? digest : flatCopy(token);
    return record;
  };
  for (const c of candidates) {
    if (c.problems.length > 0) continue;
    for (const path of c.subtree.files) {
      if (records.has(path)) continue;
      const listed = listedFiles.get(path);
      const token = listed?.token;
      const skillMd = isSkillMdPath(path);
      const before = previous ? previous.unserved.get(path) ?? previousFile(previous, path) : undefined;
      const parsed = skillMd ? previous?.skillMds.get(path) : undefined;
      if (token !== undefined && before && before.token === token && (!skillMd || parsed)) {
        records.set(path, before);
        if (parsed) skillMds.set(path, parsed);
        continue;
      }
      const content = listed?.content;
      if (content instanceof Uint8Array) {
        // Bytes the listing brought along count as a read: hashed here, like any other.
        records.set(path, recordOf(path, content.byteLength, sha256Digest(content), token));
        if (skillMd) skillMds.set(path, frontmatterOf(content));
        contentsTaken++;
        continue;
      }
      const vouched = skillMd ? undefined : vouchedFor(listed);
      if (vouched) {
        // The storage vouches for the content; reads are still verified against it when served.
        records.set(path, recordOf(path, vouched.size, vouched.digest, token));
        continue;
      }
      records.set(path, undefined); // read below
      toRead.push(path);
    }
  }
  await mapLimit(toRead, options.concurrency, async (path) => {
    let bytes: Uint8Array;
    try {
      // A listed size bounds the read: a file replaced by a giant since the listing is refused, not read whole.
      const size = listedSize(listedFiles.get(path));
      bytes = size === undefined ? await files.read(path) : await files.read(path, { maxBytes: size });
    } catch (error) {
      throw toStorageError(error, 'cannot read', path);
    }
    records.set(path, recordOf(path, bytes.byteLength, sha256Digest(bytes), listedFiles.get(path)?.token));
    if (isSkillMdPath(path)) skillMds.set(path, frontmatterOf(bytes));
  });
  const bodiesRead = toRead.length + contentsTaken;

  const built: { key: string; entry: SkillEntry }[] = [];
  const directories = new Map<string, DirectoryItem[]>();
  const problems: SkillWarning[] = [];

  for (const candidate of candidates) {
    const { dir, subtree } = candidate;
    const skillMdPath = joinPath(dir, SKILL_MD);
    const skillUri = records.get(skillMdPath)?.resource.uri ?? uris.uri(skillMdPath);
    const skillProblems = [...candidate.problems];
    let frontmatter: SkillFrontmatter | undefined;
    if (skillProblems.length === 0) {
      const parsed = skillMds.get(skillMdPath)!;
      if (!parsed.ok) {
        skillProblems.push({ code: parsed.code, path: skillMdPath, message: parsed.error });
      } else {
        const folderName = dir.slice(dir.lastIndexOf('/') + 1);
        // The name check comes first, as in frontmatterProblems; it has a code of its own.
        const mismatch = folderNameProblem(parsed.frontmatter, folderName);
        if (mismatch) skillProblems.push({ code: 'name-mismatch', path: skillMdPath, message: mismatch });
        for (const message of frontmatterProblems(parsed.frontmatter)) skillProblems.push({ code: 'frontmatter', path: skillMdPath, message });
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
      resources = subtree.files.map((path) => records.get(path)!.resource);
      const sized = subtree.files.map((path, i) => ({ path, size: resources[i]!.size }));
      for (const p of limitProblems(dir, sized, options.limits)) skillProblems.push(p);
    }
    if (skillProblems.length > 0) {
      for (const p of skillProblems) problems.push({ ...p, uri: skillUri, message: `skill skipped: ${p.message}` });
      continue;
    }
    resources.sort((a, b) => compare(a.uri, b.uri));
    const key = skillMdPath;
    const before = previous?.skills.get(key);
    // An unchanged skill keeps its frozen entry: nothing to freeze again, and the change report compares by identity.
    const entry = before && before.uri === skillUri && before.frontmatter === frontmatter && sameResources(before.resources, resources) ? before : { uri: skillUri, frontmatter: frontmatter!, resources };
    built.push({ key, entry });
    for (const d of subtree.dirs) {
      if (!directories.has(d)) directories.set(d, directoryItems(tree, d, uris, records));
    }
  }

  // A SKILL.md at the root or in the wrong case is a skill left out: strict refuses it like any other problem.
  const leftOut = warnings.filter((w) => w.code === 'root-skill' || w.code === 'skill-md-case');
  if (options.strict && (problems.length > 0 || leftOut.length > 0)) {
    throw new CatalogError([...leftOut, ...problems]);
  }

  built.sort((a, b) => compare(a.entry.uri, b.entry.uri));
  const entries = built.map((b) => b.entry);
  const skills = new Map(built.map((b) => [b.key, b.entry]));
  const resourceListing: SkillResourceListing[] = [];
  for (const entry of entries) {
    const skillMd = (entry.resources as SkillResource[]).find((r) => r.uri === entry.uri)!;
    resourceListing.push({ uri: entry.uri, name: entry.frontmatter.name, description: entry.frontmatter.description, mimeType: SKILL_MD_MIME, size: skillMd.size });
  }
  // The file index is `records` less the files of skipped skills (unless an enclosing or nested
  // served skill holds them), which are kept aside for the next reload.
  const servedDirs = new Set(built.map((b) => b.key.slice(0, -SKILL_MD.length - 1)));
  const served = (path: string) => {
    for (let d = path.slice(0, Math.max(0, path.lastIndexOf('/'))); d !== ''; d = d.slice(0, Math.max(0, d.lastIndexOf('/')))) if (servedDirs.has(d)) return true;
    return false;
  };
  const unserved = new Map<string, FileRecord>();
  for (const c of candidates) {
    if (servedDirs.has(c.dir)) continue;
    for (const path of c.subtree.files) {
      const record = records.get(path);
      if (record && !served(path)) {
        unserved.set(path, record);
        records.delete(path);
      }
    }
  }
  const fileIndex = records as Map<string, FileRecord>;
  return {
    entries: deepFreeze(entries),
    skills,
    files: fileIndex,
    directories,
    resourceListing: deepFreeze(resourceListing),
    skillMds,
    unserved,
    warnings: [...warnings, ...problems],
    bodiesRead,
    ...(fingerprint !== undefined ? { fingerprint } : {}),
    ...(listing ? { listed: listedOthers(listing, fileIndex, unserved) } : {}),
  };
}

/** The warning for a storage with no SKILL.md in any visible folder: most often the wrong folder, or one level off. */
export function noSkills(label: string | undefined): SkillWarning {
  const where = typeof label === 'string' && label !== '' ? escapeControls(label) : 'the storage';
  return {
    code: 'no-skills',
    message: `no skills found in ${where}: no folder holds a SKILL.md. Each skill is a folder named after it with a SKILL.md inside, <folder>/<skill-name>/SKILL.md; check the path given`,
  };
}

/** What a listing held besides the served and unserved files: the rest of `CatalogSnapshot.listed`. */
function listedOthers(listing: readonly SkillFileListing[], files: ReadonlyMap<string, FileRecord>, unserved: ReadonlyMap<string, FileRecord>): ListedState {
  const others = new Map<string, string>();
  for (const item of listing) if (item.kind !== 'file' || (!files.has(item.path) && !unserved.has(item.path))) others.set(item.path, item.kind);
  return { count: listing.length, others };
}

/**
 * True when a new listing shows exactly what the previous snapshot was built from: the same
 * paths and kinds, and every file it read or vouched for with the same change token (or vouched
 * size and digest). Cheaper than a walk: one lookup per item, no tree.
 */
function sameListing(listing: readonly SkillFileListing[], previous: CatalogSnapshot, listed: ListedState): boolean {
  if (listing.length !== listed.count) return false;
  const seen = new Set<string>();
  for (const item of listing) {
    if (seen.has(item.path)) return false;
    seen.add(item.path);
    const record = item.kind === 'file' ? previous.files.get(item.path) ?? previous.unserved.get(item.path) : undefined;
    if (!record) {
      if (listed.others.get(item.path) !== item.kind) return false;
      continue;
    }
    if (item.token === undefined && item.digest === undefined) return false; // nothing shows whether it changed
    if (item.token !== record.token) return false;
    if (item.digest !== undefined && (item.digest !== record.resource.digest || item.size !== record.resource.size)) return false;
  }
  return true;
}

/**
 * The same text as one flat string. Storages build change tokens with `+` or template literals,
 * which make ropes; a catalog keeps one token per file, and a rope costs a second object once read.
 */
function flatCopy(text: string): string {
  return text.length < 2 ? text : [text.slice(0, 1), text.slice(1)].join('');
}


/** Both lists sorted by URI: the same files with the same digests and sizes. */
function sameResources(before: SkillEntry['resources'], after: readonly SkillResource[]): boolean {
  if (!Array.isArray(before) || before.length !== after.length) return false;
  for (let i = 0; i < after.length; i++) {
    const a = before[i]!;
    const b = after[i]!;
    if (a !== b && (a.uri !== b.uri || a.digest !== b.digest || a.size !== b.size)) return false;
  }
  return true;
}

/** The size a listing gave for a file, when it is a plain byte count. */
function listedSize(listed: SkillFileEntry | undefined): number | undefined {
  const size = listed?.size;
  return typeof size === 'number' && Number.isSafeInteger(size) && size >= 0 ? size : undefined;
}

/** The size and digest a storage vouched for, when both are well-formed; otherwise the body is read and hashed. */
function vouchedFor(listed: SkillFileEntry | undefined): { size: number; digest: string } | undefined {
  if (!listed || typeof listed.digest !== 'string' || !DIGEST.test(listed.digest)) return undefined;
  const size = listed.size;
  return typeof size === 'number' && Number.isSafeInteger(size) && size >= 0 ? { size, digest: listed.digest } : undefined;
}

/** What a catalog keeps of a SKILL.md: its frontmatter, not its body (served from storage like any file). */
function frontmatterOf(bytes: Uint8Array): ParsedSkillMd {
  const tooLarge = skillMdSizeProblem(bytes.byteLength); // before decoding it
  if (tooLarge) return { ok: false, code: 'limit', error: tooLarge };
  const text = decodeUtf8(bytes);
  if (text === undefined) return { ok: false, code: 'frontmatter', error: 'SKILL.md is not valid UTF-8' };
  const parsed = parseFrontmatter(text);
  if (!parsed.ok) return parsed;
  // A fresh copy: the parsed strings are slices of the whole SKILL.md text and would keep all of it alive.
  return { ok: true, frontmatter: JSON.parse(JSON.stringify(parsed.frontmatter)) as Record<string, unknown>, portability: parsed.portability };
}

/** A folder's visible children, sorted by URI: file records from the index, and subfolders. */
function directoryItems(tree: StorageTree, dir: string, uris: UriTable, fileIndex: ReadonlyMap<string, FileRecord | undefined>): DirectoryItem[] {
  const items: DirectoryItem[] = [];
  for (const child of tree.get(dir) ?? []) {
    if (isHiddenName(child.name)) continue;
    const path = joinPath(dir, child.name);
    if (child.kind === 'directory') items.push({ uri: uris.folderUri(path), name: child.name });
    else if (child.kind === 'file') items.push(fileIndex.get(path)!);
  }
  return items.sort((a, b) => compare(itemUri(a), itemUri(b)));
}

/** The record of a file the previous snapshot served, as a reload may reuse it. */
function previousFile(previous: CatalogSnapshot, path: string): FileRecord | undefined {
  return previous.files.get(path);
}

/** Code-unit order, the same in every locale. */
export const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
