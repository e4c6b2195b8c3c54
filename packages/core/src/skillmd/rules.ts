import { MAX_COMPATIBILITY_LENGTH, MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH } from './limits.js';
import { codePointLength } from '../text/length.js';
import type { SkillFrontmatter } from '../types.js';

const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Agent Skills naming rule: 1–64 of `a-z0-9-`, no leading, trailing or doubled hyphen.
 *
 * @example
 * ```ts
 * import { isValidSkillName } from '@skillmount/core';
 *
 * isValidSkillName('pdf-tools'); // true
 * isValidSkillName('PDF--tools'); // false
 * ```
 * @throws Nothing: anything but a valid name gives `false`.
 */
export function isValidSkillName(name: unknown): name is string {
  // Only ASCII passes NAME, so UTF-16 units are code points here.
  return typeof name === 'string' && name.length >= 1 && name.length <= MAX_NAME_LENGTH && NAME.test(name);
}

/**
 * Why a field is longer than the Agent Skills specification allows; undefined when it is not.
 * Lengths are in characters as the specification counts them: Unicode code points (text/length.ts).
 */
function tooLong(field: string, text: string, max: number): string | undefined {
  // A code point is one or two UTF-16 units: most strings are decided without counting.
  if (text.length <= max) return undefined;
  const length = codePointLength(text);
  return length > max ? `frontmatter ${field} is ${length} characters long; at most ${max}` : undefined;
}

/** A value quoted for a message, cut short when long (the rest is in the file). */
const quoted = (text: string) => JSON.stringify(text.length > MAX_NAME_LENGTH ? `${text.slice(0, MAX_NAME_LENGTH)}…` : text);

/** The problem when a valid `name` differs from the skill's folder name (a `name-mismatch`), else undefined. */
export function folderNameProblem(frontmatter: Record<string, unknown>, folderName: string | undefined): string | undefined {
  const { name } = frontmatter;
  if (folderName === undefined || !isValidSkillName(name) || name === folderName) return undefined;
  return `frontmatter name "${name}" must equal its folder name "${folderName}"; rename one of them`;
}

/** Problems with a frontmatter object under the Agent Skills rules; empty when it is valid. */
export function frontmatterProblems(frontmatter: Record<string, unknown>, folderName?: string): string[] {
  const problems: string[] = [];
  const { name, description } = frontmatter;
  if (typeof name !== 'string') {
    problems.push('frontmatter "name" is required and must be a string');
  } else if (!isValidSkillName(name)) {
    const long = tooLong('name', name, MAX_NAME_LENGTH);
    if (long) problems.push(long);
    if (!NAME.test(name)) {
      problems.push(
        `frontmatter name ${quoted(name)} is invalid: use 1-${MAX_NAME_LENGTH} lowercase letters, ` +
          `digits and single hyphens, not starting or ending with a hyphen`,
      );
    }
  } else {
    const mismatch = folderNameProblem(frontmatter, folderName);
    if (mismatch) problems.push(mismatch);
  }
  if (typeof description !== 'string' || description.trim().length === 0) {
    problems.push('frontmatter "description" is required and must be a non-empty string');
  } else {
    const long = tooLong('"description"', description, MAX_DESCRIPTION_LENGTH);
    if (long) problems.push(long);
  }
  const { metadata, compatibility } = frontmatter;
  if (
    metadata !== undefined &&
    (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata) || Object.values(metadata).some((v) => typeof v !== 'string'))
  ) {
    problems.push('frontmatter "metadata" must map keys to string values (Agent Skills); quote numbers and write a list as one string');
  }
  if (compatibility !== undefined) {
    if (typeof compatibility !== 'string' || compatibility.length === 0) {
      problems.push(`frontmatter "compatibility" must be a string of 1-${MAX_COMPATIBILITY_LENGTH} characters`);
    } else {
      const long = tooLong('"compatibility"', compatibility, MAX_COMPATIBILITY_LENGTH);
      if (long) problems.push(long);
    }
  }
  return problems;
}

const RESERVED_METADATA_PREFIX = 'io.modelcontextprotocol/';

/** Allowed but worth a warning: reserved metadata keys this server does not define. */
export function frontmatterNotes(frontmatter: Record<string, unknown>): string[] {
  const metadata = frontmatter.metadata;
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) return [];
  return Object.keys(metadata)
    .filter((key) => key.startsWith(RESERVED_METADATA_PREFIX))
    .map((key) => `metadata key "${key}" uses the prefix ${RESERVED_METADATA_PREFIX}, reserved for MCP extensions; hosts ignore it. Rename it`);
}

export function isSkillFrontmatter(frontmatter: Record<string, unknown>): frontmatter is SkillFrontmatter {
  return frontmatterProblems(frontmatter).length === 0;
}
