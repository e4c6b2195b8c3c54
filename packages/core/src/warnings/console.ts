import { escapeControls } from '../text/escape.js';
import type { SkillWarning } from '../types.js';

/** The default `onWarning`: one line on stderr, with control characters from names and storages escaped. */
export const consoleWarning = (warning: SkillWarning) => {
  const where = warning.path ?? warning.uri;
  console.warn(escapeControls(`[skillmount] ${where ? `${where}: ` : ''}${warning.message}`, { lines: true }));
};
