import { escapeControls } from '../text/escape.js';
import type { SkillWarning } from '../types.js';

/**
 * The default `onWarning`: one line on stderr, with control characters from names and storages escaped.
 *
 * @example
 * ```ts
 * import { SkillCatalog, consoleWarning } from '@skillmount/core';
 * import { fsStorage } from '@skillmount/storage-fs';
 *
 * const catalog = await SkillCatalog.load(fsStorage('./skills'), {
 *   onWarning: (warning) => (warning.code === 'limit' ? undefined : consoleWarning(warning)),
 * });
 * ```
 * @throws Nothing.
 */
export const consoleWarning = (warning: SkillWarning) => {
  const where = warning.path ?? warning.uri;
  console.warn(escapeControls(`[skillmount] ${where ? `${where}: ` : ''}${warning.message}`, { lines: true }));
};
