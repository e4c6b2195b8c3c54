import { sha256Digest } from '../bytes/digest.js';
import { decodeUtf8 } from '../bytes/text.js';
import { skillMdSizeProblem } from '../skillmd/limits.js';
import { parseFrontmatter } from '../skillmd/parse.js';
import { hiddenCharacters } from '../text/visible.js';
import { frontmatterBlock } from '../trust/subjects.js';
import type { SkillFiles } from '../types.js';
import { mapLimit } from '../storage-kit/limit.js';
import { toStorageError } from '../storage-kit/errors.js';
import { isSkillMdPath } from '../storage-kit/skill-folders.js';
import type { Candidate } from './candidates.js';
import { decideFile, type ListedEntry } from './reuse.js';
import type { CatalogSnapshot, FileRecord, ParsedSkillMd } from './snapshot.js';
import type { UriTable } from './uris.js';

/** Every file of the candidates without problems, as records, with the frontmatter of each SKILL.md. */
export interface Records {
  records: Map<string, FileRecord>;
  skillMds: Map<string, ParsedSkillMd>;
  /** Bodies read, or taken from the listing. */
  bodiesRead: number;
  /** The bytes of the files `keepBytes` asked for, among those read or listed with their content in this build. */
  kept: Map<string, Uint8Array>;
}

/**
 * One record per file, even when nested skills share it: each file as `decideFile` says, the
 * reads with `concurrency` in flight. The bytes of files `keepBytes` names are kept for a later
 * phase of the build (the signatures) or the search index, so neither reads them again.
 */
export async function fileRecords(
  files: SkillFiles,
  candidates: readonly Candidate[],
  listedFiles: ReadonlyMap<string, ListedEntry>,
  uris: UriTable,
  concurrency: number,
  previous: CatalogSnapshot | undefined,
  keepBytes?: (path: string, size: number) => boolean,
): Promise<Records> {
  const kept = new Map<string, Uint8Array>();
  const keep = (path: string, bytes: Uint8Array) => {
    if (keepBytes?.(path, bytes.byteLength)) kept.set(path, bytes);
  };
  const records = new Map<string, FileRecord>();
  const skillMds = new Map<string, ParsedSkillMd>();
  const toRead: { path: string; maxBytes: number | undefined }[] = [];
  const seen = new Set<string>();
  let contentsTaken = 0;
  const recordOf = (path: string, size: number, digest: string): FileRecord => newRecord(path, uris.uri(path), size, digest, listedFiles.get(path)?.token);
  for (const c of candidates) {
    if (c.problems.length > 0) continue;
    for (const path of c.subtree.files) {
      if (seen.has(path)) continue;
      seen.add(path);
      const skillMd = isSkillMdPath(path);
      const before = previous && (previous.reload.unserved.get(path) ?? previous.files.get(path));
      const parsedBefore = skillMd ? previous?.reload.skillMds.get(path) : undefined;
      const decision = decideFile({ listed: listedFiles.get(path), before, parsedBefore, skillMd });
      if (decision.take === 'previous') {
        records.set(path, decision.record);
        if (decision.parsed) skillMds.set(path, decision.parsed);
      } else if (decision.take === 'content') {
        records.set(path, recordOf(path, decision.bytes.byteLength, sha256Digest(decision.bytes)));
        if (skillMd) skillMds.set(path, frontmatterOf(decision.bytes));
        keep(path, decision.bytes);
        contentsTaken++;
      } else if (decision.take === 'taken') {
        records.set(path, recordOf(path, decision.taken.size, decision.taken.digest));
        if (skillMd) skillMds.set(path, decision.taken.parsed!); // parsed for every SKILL.md path
        // Admitted when the listing brought them (treeFromBatches).
        if (decision.taken.bytes) kept.set(path, decision.taken.bytes);
        contentsTaken++;
      } else if (decision.take === 'vouched') {
        records.set(path, recordOf(path, decision.size, decision.digest));
      } else {
        toRead.push({ path, maxBytes: decision.maxBytes });
      }
    }
  }
  await mapLimit(toRead, concurrency, async ({ path, maxBytes }) => {
    const bytes = await readBody(files, path, maxBytes);
    records.set(path, recordOf(path, bytes.byteLength, sha256Digest(bytes)));
    if (isSkillMdPath(path)) skillMds.set(path, frontmatterOf(bytes));
    keep(path, bytes);
  });
  return { records, skillMds, bodiesRead: toRead.length + contentsTaken, kept };
}

/** A file's body; a listed size bounds the read, so a file replaced by a giant since the listing is refused, not read whole. */
async function readBody(files: SkillFiles, path: string, maxBytes: number | undefined): Promise<Uint8Array> {
  try {
    return maxBytes === undefined ? await files.read(path) : await files.read(path, { maxBytes });
  } catch (error) {
    throw toStorageError(error, 'cannot read', path);
  }
}

function newRecord(path: string, uri: string, size: number, digest: string, token: string | undefined): FileRecord {
  const record: FileRecord = { path, resource: { uri, digest, size } };
  if (token !== undefined) record.token = token === digest ? digest : flatCopy(token);
  return record;
}

/**
 * The same text as one flat string. Storages build change tokens with `+` or template literals,
 * which make ropes; a catalog keeps one token per file, and a rope costs a second object once read.
 */
function flatCopy(text: string): string {
  return text.length < 2 ? text : [text.slice(0, 1), text.slice(1)].join('');
}

/**
 * What a catalog keeps of a SKILL.md: its frontmatter, not its body (served from storage like any
 * file), and where the whole file holds characters a reader cannot see (a few lines' worth).
 */
export function frontmatterOf(bytes: Uint8Array): ParsedSkillMd {
  const tooLarge = skillMdSizeProblem(bytes.byteLength); // before decoding it
  if (tooLarge) return { ok: false, code: 'limit', error: tooLarge };
  const text = decodeUtf8(bytes);
  if (text === undefined) return { ok: false, code: 'frontmatter', error: 'SKILL.md is not valid UTF-8' };
  const parsed = parseFrontmatter(text);
  if (!parsed.ok) return parsed;
  // A fresh copy: the parsed strings are slices of the whole SKILL.md text and would keep all of it alive.
  const frontmatter = JSON.parse(JSON.stringify(parsed.frontmatter)) as Record<string, unknown>;
  const hidden = hiddenCharacters(text);
  // As a signature's verifier decodes SKILL.md: TextDecoder drops a leading BOM (decodeUtf8 keeps it).
  const block = frontmatterBlock(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  const frontmatterDigest = sha256Digest(new TextEncoder().encode(block));
  return { ok: true, frontmatter, portability: parsed.portability, ...(hidden ? { hidden } : {}), frontmatterDigest };
}
