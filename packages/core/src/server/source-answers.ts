/**
 * What a custom `SkillSource` may answer, checked before anything goes on the wire: its pages,
 * and the three shapes of a file (`Uint8Array`, `{ bytes }`, `{ text }`). Each check returns what
 * is wrong, for the warning, or the normalised value.
 */
import { entryProblems } from '../entry/validate.js';
import { canonicalUri } from '../uri/canonical.js';
import type { PublishedFile, SkillEntry, SkillFileContent } from '../types.js';

const encoder = new TextEncoder();

/** A value as a warning names it: its type, never its content (which may be large or secret). */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Uint8Array) return 'bytes';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** What is wrong with a `list` or `readDirectory` page, or undefined. `items` is the array it must hold. */
export function pageProblem(page: unknown, items: 'skills' | 'resources'): string | undefined {
  if (typeof page !== 'object' || page === null || Array.isArray(page)) return `${kindOf(page)}, not { ${items}: [...], nextCursor? }`;
  const { [items]: list, nextCursor } = page as Record<string, unknown>;
  if (!Array.isArray(list)) return `a page whose ${items} is ${kindOf(list)}, not an array`;
  if (nextCursor !== undefined && typeof nextCursor !== 'string') return `a page whose nextCursor is ${kindOf(nextCursor)}, not a string`;
  return undefined;
}

/** An entry of a page that may not be sent, and why. */
export interface DroppedEntry {
  uri?: string;
  problem: string;
}

/**
 * The entries of a `skills/list` page that may be sent, in order, and why each other one may not:
 * it breaks the structural rules, or repeats a skill already on the page (the first copy stays).
 */
export function sortPageEntries(skills: readonly unknown[]): { kept: SkillEntry[]; dropped: DroppedEntry[] } {
  const kept: SkillEntry[] = [];
  const dropped: DroppedEntry[] = [];
  const seen = new Set<string>();
  for (const entry of skills) {
    const uri = typeof (entry as { uri?: unknown } | null)?.uri === 'string' ? (entry as SkillEntry).uri : undefined;
    const problems = entryProblems(entry);
    if (problems.length > 0) {
      dropped.push({ ...(uri !== undefined ? { uri } : {}), problem: problems.join('; ') });
      continue;
    }
    const key = canonicalUri(uri!) ?? uri!; // a valid entry has a string uri
    if (seen.has(key)) {
      dropped.push({ uri: uri!, problem: 'the same skill twice on one page' });
      continue;
    }
    seen.add(key);
    kept.push(entry as SkillEntry);
  }
  return { kept, dropped };
}

function publishedProblem(published: unknown): string | undefined {
  if (published === undefined || published === 'dynamic') return undefined;
  const { size, digest } = (published ?? {}) as Record<string, unknown>;
  if (typeof published !== 'object' || published === null || !Number.isSafeInteger(size) || typeof digest !== 'string') {
    return `published is ${kindOf(published)}, not { size, digest } or 'dynamic'`;
  }
  return undefined;
}

/**
 * The file a `read` answered for `uri`, as bytes, or what is wrong with the answer. Text is
 * encoded as UTF-8: those are the bytes sent and checked against `published`.
 */
export function fileOfAnswer(answer: unknown, uri: string): { file: SkillFileContent } | { problem: string } {
  if (answer instanceof Uint8Array) return { file: { uri, bytes: answer } };
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) {
    return { problem: `${kindOf(answer)}, not a Uint8Array, { bytes } or { text }` };
  }
  const given = answer as Record<string, unknown>;
  const { bytes, text, mimeType, published } = given;
  if ((bytes === undefined) === (text === undefined)) {
    return { problem: bytes === undefined ? 'an object with neither bytes nor text' : 'an object with both bytes and text; give one' };
  }
  if (bytes !== undefined && !(bytes instanceof Uint8Array)) return { problem: `bytes that are ${kindOf(bytes)}, not a Uint8Array` };
  if (text !== undefined) {
    if (typeof text !== 'string') return { problem: `text that is ${kindOf(text)}, not a string` };
    // A lone surrogate has no UTF-8 form: encoding would send other characters than the source gave.
    if (!text.isWellFormed()) return { problem: 'text with a lone surrogate, which has no UTF-8 encoding' };
  }
  if (given.uri !== undefined && typeof given.uri !== 'string') return { problem: `uri that is ${kindOf(given.uri)}, not a string` };
  if (mimeType !== undefined && typeof mimeType !== 'string') return { problem: `mimeType that is ${kindOf(mimeType)}, not a string` };
  const problem = publishedProblem(published);
  if (problem) return { problem };
  const file: SkillFileContent = {
    uri: (given.uri as string | undefined) ?? uri,
    bytes: text !== undefined ? encoder.encode(text as string) : (bytes as Uint8Array),
  };
  if (mimeType !== undefined) file.mimeType = mimeType as string;
  if (published !== undefined) file.published = published as PublishedFile;
  return { file };
}
