import { SKILL_MD } from '../protocol/constants.js';
import { escapeControls } from '../text/escape.js';
import { segmentProblem } from '../uri/segment.js';
import type { SkillFileEntry, SkillWarning } from '../types.js';
import { canBeSkillFolder, isHiddenName, isHiddenPath } from '../storage-kit/skill-folders.js';
import { misnamedSkillMds } from './misnamed.js';
import { isPlainName, joinPath, type StorageTree } from './walk.js';

/** The visible files and folders below a folder (itself included), and what cannot be served there. */
export interface Subtree {
  files: string[];
  dirs: string[];
  problems: SkillWarning[];
}

/** A folder holding a SKILL.md: a skill, unless `problems` (bad names, unsupported entries) rule it out. */
export interface Candidate {
  dir: string;
  subtree: Subtree;
  problems: SkillWarning[];
}

/** What the walk phase finds in a storage tree. */
export interface Walked {
  candidates: Candidate[];
  /** Every visible file below a candidate, as its folder listed it (token, size, digest, content). */
  listedFiles: Map<string, SkillFileEntry>;
  /** Problems outside any skill: a root SKILL.md, a misnamed one, unsupported entries. */
  warnings: SkillWarning[];
}

/**
 * Find the candidate skills of a tree: every visible folder that holds a SKILL.md file. `label`
 * names the storage (a folder path, `s3://bucket/prefix/`) in the message for a root SKILL.md.
 */
export function findCandidates(tree: StorageTree, label?: string): Walked {
  const listedFiles = new Map<string, SkillFileEntry>();
  const collect = subtreeCollector(tree, listedFiles);
  const candidates: Candidate[] = [];
  const warnings: SkillWarning[] = [];
  for (const [dir, children] of tree) {
    if (!children.some((c) => c.kind === 'file' && c.name === SKILL_MD)) continue;
    if (dir === '') {
      warnings.push(rootSkill(label));
      continue;
    }
    if (!canBeSkillFolder(dir)) continue;
    const problems = folderNameProblems(dir);
    const subtree = collect(dir);
    for (const p of subtree.problems) problems.push(p);
    candidates.push({ dir, subtree, problems });
  }
  for (const w of misnamedSkillMds(tree, isHiddenName)) warnings.push(w);
  for (const w of unsupportedOutside(tree, new Set(candidates.map((c) => c.dir)))) warnings.push(w);
  return { candidates, listedFiles, warnings };
}

/**
 * The warning for a SKILL.md at the storage root: most often the storage was pointed at one skill's
 * folder instead of the folder that holds the skill folders, so the fix is the path.
 */
function rootSkill(label: string | undefined): SkillWarning {
  const named = label !== undefined && label !== '' ? escapeControls(label) : undefined;
  const parent = named === undefined ? undefined : parentOf(named);
  const container = parent === undefined ? "the folder that contains the skill's folder" : `the folder that contains it, ${parent}`;
  return {
    code: 'root-skill',
    path: SKILL_MD,
    message:
      `a SKILL.md at the storage root has no skill path: ${named ?? 'the storage'} is one skill's folder, not a folder of skills. ` +
      `Point the storage at ${container} (skills are served from <folder>/<skill-name>/SKILL.md); ` +
      'or, to serve from here, move this SKILL.md into a folder named after the skill',
  };
}

/** The folder above a path-like label (`/srv/skills/pdf` → `/srv/skills`, `s3://b/p/pdf/` → `s3://b/p/`); undefined when there is none. */
function parentOf(label: string): string | undefined {
  // A label with spaces that is not an absolute path is a description (a PostgreSQL table and namespace).
  if (/\s/.test(label) && !/^(\/|[A-Za-z]:[\\/])/.test(label)) return undefined;
  const trimmed = label.replace(/[/\\]+$/, '');
  const cut = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  if (cut <= 0 || trimmed.slice(0, cut).endsWith(':/')) return cut === 0 ? '/' : undefined;
  // An S3 label keeps its trailing slash: it is a prefix.
  return trimmed.slice(0, cut + (label.startsWith('s3://') ? 1 : 0));
}

/** A `bad-name` problem for every segment of a skill folder's path that cannot be a URI segment. */
function folderNameProblems(dir: string): SkillWarning[] {
  const segments = dir.split('/');
  const problems: SkillWarning[] = [];
  segments.forEach((segment, i) => {
    const problem = segmentProblem(segment);
    if (problem)
      problems.push({
        code: 'bad-name',
        path: segments.slice(0, i + 1).join('/'),
        message: `folder name "${escapeControls(segment)}" cannot be a skill URI segment (${problem}); rename it`,
      });
  });
  return problems;
}

/** Subtrees of folders, each collected once and shared by nested skills; files go into `listedFiles`. */
function subtreeCollector(tree: StorageTree, listedFiles: Map<string, SkillFileEntry>): (dir: string) => Subtree {
  const subtrees = new Map<string, Subtree>();
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
        result.problems.push({ code: 'unsupported', path, message: unsupportedMessage(child.name) });
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
  return collect;
}

/** Unsupported entries outside any skill are ignored, but said so once each. */
function unsupportedOutside(tree: StorageTree, candidateDirs: ReadonlySet<string>): SkillWarning[] {
  const insideCandidate = (dir: string): boolean => {
    for (let d = dir; d !== ''; d = d.slice(0, Math.max(0, d.lastIndexOf('/')))) if (candidateDirs.has(d)) return true;
    return false;
  };
  const warnings: SkillWarning[] = [];
  for (const [dir, children] of tree) {
    if (isHiddenPath(dir) || insideCandidate(dir)) continue;
    for (const child of children) {
      if (child.kind === 'unsupported' && (!isPlainName(child.name) || !isHiddenName(child.name))) {
        warnings.push({
          code: 'unsupported',
          path: joinPath(dir, child.name),
          message: 'not a regular file or folder (a symlink, a special file, or a name that cannot be a relative path); ignored',
        });
      }
    }
  }
  return warnings;
}

/**
 * Why an `unsupported` entry is not served. A name that is not valid UTF-8 reaches the catalog
 * with U+FFFD in place of its bytes (the folder storage lists it as unsupported: no URI can name it).
 */
function unsupportedMessage(name: string): string {
  if (name.includes('\uFFFD')) {
    return (
      'not served: its name is not valid UTF-8 (shown with U+FFFD), or it is a symlink or special file; ' +
      'rename it to a UTF-8 name, as a regular file or folder'
    );
  }
  return 'symlinks and special files are not served; replace it with a regular file or folder';
}
