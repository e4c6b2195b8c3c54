import { escapeControls, OptionError, type SkillWarning } from '@skillmount/core';
import type { SkillsLogger } from './types.js';

const NAME = '@skillmount/express';

/**
 * Where the router's warnings go when the app gives its logger: `logger.warn({ warning }, message)`,
 * as the Fastify plugin logs to `app.log`, so a log query finds each by `warning.code`. The
 * message is escaped: it may hold names from storage. A reload's warning the previous load told
 * too (`repeated`) is not logged again.
 */
export function loggerWarnings(logger: SkillsLogger): (warning: SkillWarning) => void {
  return (warning) => {
    if (!warning.repeated) logger.warn({ warning }, escapeControls(warning.message, { lines: true }));
  };
}

/** The `logger` option, checked: undefined when absent. */
export function checkLogger(logger: unknown, onWarning: unknown): SkillsLogger | undefined {
  if (logger === undefined) return undefined;
  if (typeof logger !== 'object' || logger === null || typeof (logger as { warn?: unknown }).warn !== 'function') {
    throw new OptionError('invalid-type', 'logger', 'must be a logger with a warn(object, message) method, such as pino() or req.log of pino-http', NAME);
  }
  if (onWarning !== undefined) {
    throw new OptionError('conflicting-options', 'logger', 'and onWarning both say where warnings go: give one', NAME);
  }
  return logger as SkillsLogger;
}
