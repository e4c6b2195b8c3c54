import type { SkillEntry } from '../types.js';
import { SEARCH_LIMITS } from './limits.js';
import { tokenize } from './tokens.js';

/** The fields a skill is searched by, in this order: name, description, `metadata.version`, SKILL.md body. */
export const FIELD_COUNT = 4;

/** A skill's words per field (the body's only when given). */
export function skillFields(entry: SkillEntry, body: string | undefined): string[][] {
  const { name, description, metadata } = entry.frontmatter;
  const version = typeof metadata === 'object' && metadata !== null ? (metadata as Record<string, unknown>).version : undefined;
  return [
    tokenize(typeof name === 'string' ? name : ''),
    tokenize(typeof description === 'string' ? description : ''),
    typeof version === 'string' || typeof version === 'number' ? tokenize(String(version)) : [],
    body === undefined ? [] : tokenize(body.slice(0, SEARCH_LIMITS.maxBodyChars)),
  ];
}
