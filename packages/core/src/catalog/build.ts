import { CatalogError } from '../errors.js';
import { SKILL_MD, SKILL_MD_MIME } from '../protocol/constants.js';
import type { SkillEntry, SkillFileListing, SkillFiles, SkillLimits, SkillResource, SkillResourceListing, SkillWarning } from '../types.js';
import { isHiddenName, isSkillMdPath } from '../storage-kit/skill-folders.js';
import { escapeControls } from '../text/escape.js';
import { findCandidates, type Candidate } from './candidates.js';
import { fileRecords, type Records } from './records.js';
import { buildSkill, type BuiltSkill } from './skill.js';
import { compare } from '../text/compare.js';
import { itemUri, type CatalogSnapshot, type DirectoryItem, type FileRecord, type ListedState, type ReloadMemory } from './snapshot.js';
import { joinPath, listAllOf, treeFromListing, treeTokenOf, walkStorage, type StorageTree } from './walk.js';
import { deepFreeze } from '../entry/freeze.js';
import { UriTable } from './uris.js';
import { fingerprintOf } from './fingerprint.js';
import { listedState, treeFromBatches, type ListedItems } from './batches.js';
import { gateSignatures, isSignatureToKeep } from './signature-gate.js';
import { ByteBudget } from './byte-budget.js';
import type { TrustSettings } from './trust-option.js';

export interface BuildOptions {
  /** Decoded segments every URI starts with: the base URI's authority and path, then the prefix. */
  prefix: readonly string[];
  /** The URI scheme, lower-case (`skill` by default). */
  scheme?: string;
  limits: SkillLimits;
  strict: boolean;
  concurrency: number;
  /** Check each skill's signature (the `trust` option). */
  trust?: TrustSettings | undefined;
  /**
   * When given, the build puts in it the bytes of each SKILL.md it reads (or a listing brings), by
   * path, up to `SKILL_MD_BYTES_KEPT` in all: a text search index takes the bodies from them rather
   * than reading each SKILL.md again (and reads the rest, beyond that, as it would without).
   */
  skillMdBytes?: Map<string, Uint8Array> | undefined;
}

/** SKILL.md bytes a build keeps for a text index, at most, in all (`BuildOptions.skillMdBytes`). */
const SKILL_MD_BYTES_KEPT = 32 * 1024 * 1024;

/** What the walk phase saw: the tree, and how a reload can tell it unchanged. */
interface Seen {
  treeToken: string | undefined;
  tree: StorageTree;
  listing: SkillFileListing[] | undefined;
  /** What a batched listing held besides the tree (a first load from `listAllBatches`). */
  listedItems?: ListedItems;
  fingerprint: string | undefined;
}

/**
 * Walk a storage and build a validated snapshot, in phases: walk (or take the previous snapshot
 * when nothing changed), find the candidate skills, decide and get each file's record, build
 * each skill, assemble. Content problems skip the skill with a warning (or, under `strict`, throw
 * one CatalogError listing all of them); a skill over the limits is served with a warning (an
 * error under `strict`); storage failures throw. With `previous`, files whose change token is
 * unchanged are not read again, and entries that come out identical are the previous (frozen) objects.
 */
export async function buildSnapshot(files: SkillFiles, options: BuildOptions, previous?: CatalogSnapshot): Promise<CatalogSnapshot> {
  // SKILL.md bytes kept for a text index: bounded, so a load holds no more than this beside its work.
  const skillMdBudget = options.skillMdBytes && new ByteBudget(SKILL_MD_BYTES_KEPT);
  const seen = await walk(files, options, previous, skillMdBudget);
  if (!('tree' in seen)) return { ...seen.previous, bodiesRead: 0, reload: withTreeToken(seen.previous.reload, seen.treeToken) };
  const walked = findCandidates(seen.tree, files.label);
  if (walked.candidates.length === 0 && !walked.warnings.some((w) => w.code === 'root-skill')) walked.warnings.push(noSkills(files.label));
  const uris = new UriTable(options.prefix, options.scheme);
  const { skillMdBytes } = options;
  const keepBytes = (path: string, size: number) =>
    (options.trust !== undefined && isSignatureToKeep(path, size)) || (isSkillMdPath(path) && skillMdBudget?.take(size) === true);
  const records = await fileRecords(files, walked.candidates, walked.listedFiles, uris, options.concurrency, previous, keepBytes);
  if (skillMdBytes) for (const [path, bytes] of records.kept) if (isSkillMdPath(path)) skillMdBytes.set(path, bytes);
  const inputs = {
    records: records.records,
    skillMds: records.skillMds,
    limits: options.limits,
    before: previous?.skills,
    uriOf: (path: string) => uris.uri(path),
  };
  const built = walked.candidates.map((c) => buildSkill(c, inputs));
  const gated = options.trust
    ? await gateSignatures(walked.candidates, built, {
        files,
        trust: options.trust,
        records: records.records,
        skillMds: records.skillMds,
        kept: records.kept,
        concurrency: options.concurrency,
        previous,
      })
    : undefined;
  failIfStrict(options.strict, walked.warnings, gated?.built ?? built);
  const snapshot = assemble(seen, walked.candidates, walked.warnings, gated?.built ?? built, records, uris);
  if (!gated) return snapshot;
  snapshot.reload.signatures = gated.memory;
  return { ...snapshot, bodiesRead: snapshot.bodiesRead + gated.reads };
}

/** Nothing changed: the previous snapshot holds, and the tree token it was seen with now. */
interface Unchanged {
  previous: CatalogSnapshot;
  treeToken: string | undefined;
}

/**
 * The storage's tree, or the previous snapshot when its tree token, listing or walk shows nothing
 * changed. The token is read before the listing, so a change made while listing shows in the next one.
 */
async function walk(
  files: SkillFiles,
  options: BuildOptions,
  previous: CatalogSnapshot | undefined,
  skillMdBudget: ByteBudget | undefined,
): Promise<Seen | Unchanged> {
  const memory = previous?.reload;
  const treeToken = await treeTokenOf(files);
  if (treeToken !== undefined && memory?.treeToken === treeToken) return { previous: previous!, treeToken };
  // A first load builds its tree as the batches arrive; a reload compares whole listings.
  if (!previous && typeof files.listAllBatches === 'function') {
    const { tree, listed } = await treeFromBatches(files, skillMdBudget);
    return { treeToken, tree, listing: undefined, listedItems: listed, fingerprint: undefined };
  }
  const known = previous && ((path: string) => (previous.files.get(path) ?? memory!.unserved.get(path))?.token);
  const listing = await listAllOf(files, known && { known });
  if (listing && memory?.listed && sameListing(listing, previous!, memory.listed)) return { previous: previous!, treeToken };
  const tree = listing ? treeFromListing(listing) : await walkStorage(files, options.concurrency);
  const fingerprint = listing ? undefined : fingerprintOf(tree);
  if (fingerprint !== undefined && memory?.fingerprint === fingerprint) return { previous: previous!, treeToken };
  return { treeToken, tree, listing, fingerprint };
}

function withTreeToken(memory: ReloadMemory, treeToken: string | undefined): ReloadMemory {
  if (memory.treeToken === treeToken) return memory;
  const next: ReloadMemory = { ...memory };
  if (treeToken === undefined) delete next.treeToken;
  else next.treeToken = treeToken;
  return next;
}

/** Under `strict`, any skill left out or over the limits fails the build, with every problem in one error. */
function failIfStrict(strict: boolean, walkWarnings: readonly SkillWarning[], built: readonly BuiltSkill[]): void {
  if (!strict) return;
  // A SKILL.md at the root or in the wrong case is a skill left out: strict refuses it like any other problem.
  const failures = walkWarnings.filter((w) => w.code === 'root-skill' || w.code === 'skill-md-case');
  for (const b of built) for (const p of b.problems) failures.push(p);
  for (const b of built) for (const p of b.overLimit) failures.push(p);
  if (failures.length > 0) throw new CatalogError(failures);
}

/** The served part (entries, file index, directory index, listing) and the reload memory, from the built skills. */
function assemble(
  seen: Seen,
  candidates: readonly Candidate[],
  walkWarnings: readonly SkillWarning[],
  built: readonly BuiltSkill[],
  records: Records,
  uris: UriTable,
): CatalogSnapshot {
  const served = built.filter((b): b is BuiltSkill & { entry: SkillEntry } => b.entry !== undefined).sort((a, b) => compare(a.entry.uri, b.entry.uri));
  const entries = served.map((b) => b.entry);
  const servedKeys = new Set(served.map((b) => b.key));
  const directories = new Map<string, DirectoryItem[]>();
  for (const c of candidates) {
    if (!servedKeys.has(joinPath(c.dir, SKILL_MD))) continue;
    for (const d of c.subtree.dirs) if (!directories.has(d)) directories.set(d, directoryItems(seen.tree, d, uris, records.records));
  }
  const unserved = setAsideUnserved(candidates, new Set(served.map((b) => b.key.slice(0, -SKILL_MD.length - 1))), records.records);
  const warnings = [...walkWarnings];
  for (const b of built) for (const w of b.warnings) warnings.push(w);
  for (const b of built) for (const p of b.problems) warnings.push(p);
  const reload: ReloadMemory = { skillMds: records.skillMds, unserved };
  if (seen.treeToken !== undefined) reload.treeToken = seen.treeToken;
  if (seen.fingerprint !== undefined) reload.fingerprint = seen.fingerprint;
  if (seen.listing) reload.listed = listedOthers(seen.listing, records.records, unserved);
  else if (seen.listedItems) reload.listed = listedState(seen.listedItems, seen.tree, records.records, unserved);
  return {
    entries: deepFreeze(entries),
    skills: new Map(served.map((b) => [b.key, b.entry])),
    names: byName(entries),
    files: records.records,
    directories,
    resourceListing: deepFreeze(entries.map(listingOf)),
    warnings,
    bodiesRead: records.bodiesRead,
    reload,
  };
}

/** The entries by frontmatter name, each list in the order of `entries` (list order). */
function byName(entries: readonly SkillEntry[]): Map<string, SkillEntry[]> {
  const names = new Map<string, SkillEntry[]>();
  for (const entry of entries) {
    const bearing = names.get(entry.frontmatter.name);
    if (bearing) bearing.push(entry);
    else names.set(entry.frontmatter.name, [entry]);
  }
  return names;
}

/** The warning for a storage with no SKILL.md in any visible folder: most often the wrong folder, or one level off. */
export function noSkills(label: string | undefined): SkillWarning {
  const where = typeof label === 'string' && label !== '' ? escapeControls(label) : 'the storage';
  return {
    code: 'no-skills',
    message:
      `no skills found in ${where}: no folder holds a SKILL.md. ` +
      'Each skill is a folder named after it with a SKILL.md inside, <folder>/<skill-name>/SKILL.md; check the path given',
  };
}

/** A served skill as `resources/list` shows it. */
function listingOf(entry: SkillEntry): SkillResourceListing {
  const skillMd = (entry.resources as SkillResource[]).find((r) => r.uri === entry.uri)!;
  return { uri: entry.uri, name: entry.frontmatter.name, description: entry.frontmatter.description, mimeType: SKILL_MD_MIME, size: skillMd.size };
}

/**
 * Move out of `records` the files of skipped skills (unless an enclosing or nested served skill
 * holds them): `records` becomes the file index, and the rest is kept aside for the next reload.
 */
function setAsideUnserved(candidates: readonly Candidate[], servedDirs: ReadonlySet<string>, records: Map<string, FileRecord>): Map<string, FileRecord> {
  const servedBy = (path: string) => {
    for (let d = path.slice(0, Math.max(0, path.lastIndexOf('/'))); d !== ''; d = d.slice(0, Math.max(0, d.lastIndexOf('/'))))
      if (servedDirs.has(d)) return true;
    return false;
  };
  const unserved = new Map<string, FileRecord>();
  for (const c of candidates) {
    if (servedDirs.has(c.dir)) continue;
    for (const path of c.subtree.files) {
      const record = records.get(path);
      if (record && !servedBy(path)) {
        unserved.set(path, record);
        records.delete(path);
      }
    }
  }
  return unserved;
}

/** What a listing held besides the served and unserved files: the rest of `ReloadMemory.listed`. */
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
    const record = item.kind === 'file' ? (previous.files.get(item.path) ?? previous.reload.unserved.get(item.path)) : undefined;
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

/** A folder's visible children, sorted by URI: file records from the index, and subfolders. */
function directoryItems(tree: StorageTree, dir: string, uris: UriTable, fileIndex: ReadonlyMap<string, FileRecord>): DirectoryItem[] {
  const items: DirectoryItem[] = [];
  for (const child of tree.get(dir) ?? []) {
    if (isHiddenName(child.name)) continue;
    const path = joinPath(dir, child.name);
    if (child.kind === 'directory') items.push({ uri: uris.folderUri(path), name: child.name });
    else if (child.kind === 'file') items.push(fileIndex.get(path)!);
  }
  return items.sort((a, b) => compare(itemUri(a), itemUri(b)));
}
