/** Longest tenant key accepted, in UTF-16 code units. */
export const MAX_TENANT_KEY_LENGTH = 128;

// C0 controls, DEL and C1 controls: invisible in logs, and meaningless in a folder, prefix or namespace name.
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is what this rule is for
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;

/**
 * Why `key` cannot name a tenant, or `undefined` when it can. A tenant key becomes a folder name,
 * an S3 prefix segment or a database namespace, so it must be one plain segment: a non-empty
 * string of at most 128 characters, not `.` or `..`, without `/`, `\`, NUL or control characters,
 * and valid Unicode.
 *
 * @example
 * ```ts
 * import { tenantKeyProblem } from '@skillmount/core';
 *
 * tenantKeyProblem('acme'); // undefined
 * tenantKeyProblem('../etc'); // 'contains "/"'
 * ```
 * @throws Nothing: every problem is the returned string.
 */
export function tenantKeyProblem(key: unknown): string | undefined {
  if (typeof key !== 'string') return `a tenant key must be a string, got ${key === null ? 'null' : typeof key}`;
  if (key.length === 0) return 'empty';
  if (key.length > MAX_TENANT_KEY_LENGTH) return `longer than ${MAX_TENANT_KEY_LENGTH} characters (${key.length})`;
  if (key === '.' || key === '..') return `"${key}" is not a name`;
  if (key.includes('/')) return 'contains "/"';
  if (key.includes('\\')) return 'contains a backslash';
  if (CONTROL.test(key)) return key.includes('\0') ? 'contains NUL' : 'contains a control character';
  if (!key.isWellFormed()) return 'contains an unpaired UTF-16 surrogate';
  return undefined;
}

/** A refused key as it may appear in a log line: quoted, escaped and shortened. */
export function showKey(key: unknown): string {
  if (typeof key !== 'string') return String(key);
  const shown = key.length > 40 ? `${key.slice(0, 40)}…` : key;
  // JSON escapes C0 controls; DEL and C1 are escaped here, so a log line shows every character.
  return JSON.stringify(shown.toWellFormed()).replace(/[\u007f-\u009f]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
