import { escapeControls } from '../text/escape.js';
import type { SkillWarning } from '../types.js';

/**
 * The default `onWarning`: one line on stderr, with control characters from names and storages
 * escaped; a reload's warning marked `repeated` (the previous load told it) is not printed again.
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
  if (warning.repeated) return;
  const where = warning.path ?? warning.uri;
  console.warn(escapeControls(`[skillmount] ${where ? `${where}: ` : ''}${warning.message}`, { lines: true }));
};
