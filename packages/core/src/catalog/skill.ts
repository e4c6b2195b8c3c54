import { SKILL_MD } from '../protocol/constants.js';
import { folderNameProblem, frontmatterNotes, frontmatterProblems } from '../skillmd/rules.js';
import type { HiddenReport } from '../text/visible.js';
import type { SkillEntry, SkillFrontmatter, SkillLimits, SkillResource, SkillWarning } from '../types.js';
import type { Candidate } from './candidates.js';
import { limitProblems } from './over-limit.js';
import type { FileRecord, ParsedSkillMd } from './snapshot.js';
import { joinPath } from './walk.js';
import { compare } from '../text/compare.js';

/** What the build phase needs of the records phase and the previous snapshot. */
export interface SkillInputs {
  records: ReadonlyMap<string, FileRecord>;
  skillMds: ReadonlyMap<string, ParsedSkillMd>;
  limits: SkillLimits;
  /** Entries of the previous snapshot by SKILL.md path: an unchanged skill keeps its frozen entry. */
  before: ReadonlyMap<string, SkillEntry> | undefined;
  /** The URI of a storage path that has no record (a skill ruled out before its files were read). */
  uriOf: (path: string) => string;
}

/**
 * One candidate built: its entry, or the problems that skip it. `warnings` hold what is served
 * anyway (portability, reserved metadata, limits: the SDK v2's semantics, a host may refuse such a
 * skill); `overLimit` repeats the limit warnings, which `strict` turns into failures.
 */
export interface BuiltSkill {
  key: string;
  entry: SkillEntry | undefined;
  problems: SkillWarning[];
  warnings: SkillWarning[];
  overLimit: SkillWarning[];
}

export function buildSkill(candidate: Candidate, inputs: SkillInputs): BuiltSkill {
  const { dir, subtree } = candidate;
  const key = joinPath(dir, SKILL_MD);
  const uri = inputs.records.get(key)?.resource.uri ?? inputs.uriOf(key);
  const warnings: SkillWarning[] = [];
  const skip = (problems: SkillWarning[]): BuiltSkill => ({
    key,
    entry: undefined,
    problems: problems.map((p) => ({ ...p, uri, message: `skill skipped: ${p.message}` })),
    warnings,
    overLimit: [],
  });
  if (candidate.problems.length > 0) return skip(candidate.problems);
  const checked = checkFrontmatter(inputs.skillMds.get(key)!, key, dir.slice(dir.lastIndexOf('/') + 1), warnings);
  if (!checked.ok) return skip(checked.problems);
  const resources = subtree.files.map((path) => inputs.records.get(path)!.resource);
  const sized = subtree.files.map((path, i) => ({ path, size: resources[i]!.size }));
  const overLimit = limitProblems(dir, sized, inputs.limits).map((p) => ({ ...p, uri, message: `served over the limit (hosts may refuse it): ${p.message}` }));
  for (const w of overLimit) warnings.push(w);
  resources.sort((a, b) => compare(a.uri, b.uri));
  const before = inputs.before?.get(key);
  // An unchanged skill keeps its frozen entry: nothing to freeze again, and the change report compares by identity.
  const entry =
    before && before.uri === uri && before.frontmatter === checked.frontmatter && sameResources(before.resources, resources)
      ? before
      : { uri, frontmatter: checked.frontmatter, resources };
  return { key, entry, problems: [], warnings, overLimit };
}

type Checked = { ok: true; frontmatter: SkillFrontmatter } | { ok: false; problems: SkillWarning[] };

/** A SKILL.md's frontmatter against the rules; notes that do not skip the skill go into `warnings`. */
function checkFrontmatter(parsed: ParsedSkillMd, path: string, folderName: string, warnings: SkillWarning[]): Checked {
  if (!parsed.ok) return { ok: false, problems: [{ code: parsed.code, path, message: parsed.error }] };
  // The name check comes first, as in frontmatterProblems; it has a code of its own.
  const problems: SkillWarning[] = [];
  const mismatch = folderNameProblem(parsed.frontmatter, folderName);
  if (mismatch) problems.push({ code: 'name-mismatch', path, message: mismatch });
  for (const message of frontmatterProblems(parsed.frontmatter)) problems.push({ code: 'frontmatter', path, message });
  if (parsed.portability.length > 0) {
    warnings.push({
      code: 'portability',
      path,
      message:
        `frontmatter uses ${parsed.portability.join(', ')}: valid YAML, served as is, ` +
        'but some hosts (the official SDK v2 among them) cannot parse it and will not load this skill; write plain "key: value" YAML',
    });
  }
  for (const message of frontmatterNotes(parsed.frontmatter)) warnings.push({ code: 'reserved-metadata', path, message });
  if (parsed.hidden) for (const message of hiddenNotes(parsed.hidden)) warnings.push({ code: 'hidden-characters', path, message });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, frontmatter: parsed.frontmatter as SkillFrontmatter };
}

/**
 * One message per line of a SKILL.md that holds invisible or direction-changing characters (the
 * first few lines; then one that counts the rest): the line, and the code points.
 */
function hiddenNotes(report: HiddenReport): string[] {
  const notes = report.lines.map((l) => {
    const more = l.count > l.first.length ? ` and ${l.count - l.first.length} more` : '';
    const what = l.count === 1 ? 'an invisible or direction-changing character' : `${l.count} invisible or direction-changing characters`;
    return (
      `line ${l.line} holds ${what} (${l.first.join(', ')}${more}): served as published, so a model reads what a person ` +
      `does not see; remove ${l.count === 1 ? 'it' : 'them'} unless meant`
    );
  });
  if (report.moreLines > 0) {
    notes.push(`${report.moreLines} more line${report.moreLines === 1 ? ' holds' : 's hold'} such characters (${report.total} in the whole file)`);
  }
  return notes;
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
