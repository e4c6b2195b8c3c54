/** Counts and sizes as the CLI prints them. */
import { field } from './print.js';

export { formatBytes } from '@skillmount/core';

/** `1 file`, `2 files`. */
export const plural = (count: number, singular: string, many = `${singular}s`): string => `${count} ${count === 1 ? singular : many}`;

/**
 * One catalog warning as `check` prints it and `serve` logs it: the path (or URI) it is about, the
 * message, and its stable code in brackets, to look up in the README.
 */
export function warningText(warning: { code: string; message: string; path?: string; uri?: string }, fallback = ''): string {
  const where = warning.path ?? warning.uri ?? fallback;
  return `${where === '' ? '' : `${field(where)}: `}${warning.message} [${field(warning.code)}]`;
}
